package spec

// Path is a path into a document from the entry file's root: object keys as
// strings, array indices as ints. Paths go through $refs (a path may pass a
// reference object and continue in its target); Document.Locate follows
// them to the file and position where the value is written.
type Path []any

// with returns a new path extended by segs; the receiver is never aliased.
func (p Path) with(segs ...any) Path {
	out := make(Path, len(p), len(p)+len(segs))
	copy(out, p)
	return append(out, segs...)
}

// Views are the normalized, version-independent views of a document. A rule,
// a diff or a mock written against them holds for every version it
// declares: Swagger 2.0 body and formData parameters become request bodies,
// host/basePath/schemes become servers, definitions become named schemas,
// securityDefinitions become security schemes.
type Views struct {
	PathItems  []*PathItem
	Operations []*Operation // operations under paths, in source order
	Webhooks   []*Operation // OpenAPI 3.1+ webhooks (Operation.Webhook set)
	Callbacks  []*Operation // callback operations (Operation.Callback set)

	// Parameters holds each distinct parameter once: reusable ones
	// (components.parameters, Swagger parameters) and those written inline.
	// Swagger body and formData parameters are not here: they are request
	// bodies.
	Parameters []*Parameter

	// Schemas holds each distinct schema once, named and inline, found by
	// walking every schema position (properties, items, allOf, …) and
	// following $refs. A $ref object is not itself a schema entry: its
	// target is.
	Schemas []*Schema

	SecuritySchemes []*SecurityScheme
	Servers         []*Server
	Tags            []*Tag

	// Security is the document-level security requirement; nil when the
	// document declares none.
	Security *Security

	// AsyncAPI
	Channels        []*Channel
	AsyncOperations []*AsyncOperation
	Messages        []*Message
}

// PathItem is one entry of paths.
type PathItem struct {
	Path       string
	Node       *Node // dereferenced
	Source     Path
	Operations []*Operation
}

// Operation is an HTTP operation of paths, webhooks or callbacks.
type Operation struct {
	Path        string // the path template, webhook name or callback expression
	Method      string // lower case: get, put, post, …
	OperationID string
	Summary     string
	Description string
	Tags        []string
	Deprecated  bool

	// Parameters are the path-item and operation parameters merged: an
	// operation parameter replaces a path-item one with the same name and
	// location. Swagger body and formData parameters are in RequestBody.
	Parameters  []*Parameter
	RequestBody *RequestBody // nil when the operation takes no body
	Responses   []*Response  // in source order
	// Security is the effective requirement: the operation's own when it
	// declares one (even empty), else the document's; nil when neither does.
	Security  *Security
	Callbacks []*Operation
	Servers   []*Server // operation or path-item servers (OpenAPI 3)

	Webhook  string // the webhook name, for webhook operations
	Callback string // the callback name, for callback operations

	Node   *Node
	Source Path
}

// Parameter is a parameter with its schema. For Swagger 2.0 non-body
// parameters, which carry type, format and the like themselves, Schema is
// the parameter object.
type Parameter struct {
	Name     string
	In       string
	Required bool
	Schema   *Node // dereferenced; nil when absent
	// SchemaSource is where Schema is written; the parameter's own source
	// for Swagger 2.0 non-body parameters.
	SchemaSource Path
	Node         *Node // dereferenced parameter object
	Source       Path
	// Component is the name under components.parameters (or Swagger's
	// parameters) for reusable parameters, else "".
	Component string
}

// RequestBody is a request body with one entry per media type.
type RequestBody struct {
	Required    bool
	Description string
	Content     []*MediaType
	// FormData holds Swagger 2.0 formData parameters.
	FormData []*Parameter
	Node     *Node
	Source   Path
}

// MediaType is one media type of a body, with its schema.
type MediaType struct {
	Name         string // e.g. "application/json"
	Schema       *Node  // dereferenced; nil when absent
	SchemaSource Path
	Node         *Node // the media type object; for Swagger 2.0 the body parameter or response
	Source       Path
}

// Response is one response of an operation.
type Response struct {
	Status      string // "200", "4XX", "default"
	Description string
	Content     []*MediaType
	Headers     []*Header
	Node        *Node
	Source      Path
}

// Header is a response header.
type Header struct {
	Name         string
	Required     bool
	Schema       *Node // for Swagger 2.0, the header object itself
	SchemaSource Path
	Node         *Node
	Source       Path
}

// Security is a security requirement: a list of alternatives, each a set of
// schemes that must all be satisfied. An empty list means "no security".
type Security struct {
	Alternatives []SecurityAlternative
	Source       Path
}

// SecurityAlternative is one object of a security requirement list.
type SecurityAlternative struct {
	Schemes []SchemeScopes
	Source  Path
}

// SchemeScopes names a security scheme and the scopes it requires.
type SchemeScopes struct {
	Name   string
	Scopes []string
}

// Schema is one schema of a document.
type Schema struct {
	Name   string // the component name for named schemas, else ""
	Node   *Node
	Source Path
	// Request and Response tell whether the schema describes data that the
	// operations under paths receive (parameters, request bodies) or send
	// (response bodies, response headers), directly or through subschemas
	// and $refs. Subschemas under not and if, which test values rather than
	// describe them, do not count, nor do webhooks and callbacks, whose
	// direction is reversed; a schema no operation uses has both false.
	Request, Response bool
}

// SecurityScheme is one security scheme, normalized: Swagger's basic is
// type "http" with scheme "basic".
type SecurityScheme struct {
	Name         string
	Type         string // apiKey, http, oauth2, openIdConnect, mutualTLS, …
	Scheme       string // for http: basic, bearer, …
	In           string // for apiKey
	ParamName    string // for apiKey: the header, query or cookie name
	BearerFormat string
	Node         *Node
	Source       Path
}

// Server is a server URL. Swagger 2.0 host, basePath and schemes become one
// server per scheme.
type Server struct {
	URL         string
	Description string
	Node        *Node // nil for servers derived from Swagger fields
	Source      Path
}

// Tag is a tag declared at the top level.
type Tag struct {
	Name        string
	Description string
	Node        *Node
	Source      Path
}

// Channel is an AsyncAPI channel (2.x: keyed by its address; 3.x: keyed by
// its id with an address field).
type Channel struct {
	ID       string
	Address  string
	Messages []*Message
	Node     *Node
	Source   Path
}

// AsyncOperation is an AsyncAPI operation: 2.x publish/subscribe inside a
// channel, 3.x send/receive under operations.
type AsyncOperation struct {
	ID          string // operationId (2.x) or the operations key (3.x)
	Action      string // publish, subscribe, send, receive
	Channel     string // the channel id or address
	Summary     string
	Description string
	Messages    []*Message
	Security    *Security
	Node        *Node
	Source      Path
}

// Message is an AsyncAPI message.
type Message struct {
	Name          string
	Payload       *Node // dereferenced; nil when absent
	PayloadSource Path
	Node          *Node
	Source        Path
}
