package compat

import (
	"slices"
	"sort"
	"strings"

	"github.com/specgate/specgate/spec"
)

// Rules are the breaking-change rules, in the order they run and are
// documented (docs/compat.md). To add one, write an entry here with an id,
// a level, a summary, a why and a hook, and a fixture pair
// testdata/rules/<id>.txtar; the tests fail until both exist.
//
// "request" rules are about data consumers write and the API reads
// (Dir == Request); "response" rules about data the API writes and
// consumers read. Webhooks, callbacks and AsyncAPI messages the API sends
// count as responses; AsyncAPI messages it receives as requests.
var Rules = slices.Concat(httpRules, schemaRules, asyncRules)

// httpRules judge paths, operations, security, parameters, request bodies
// and responses.
var httpRules = []*Rule{
	// Paths and operations.
	{
		ID: "path-removed", Level: Breaking,
		Summary: "a path the base has is missing from the revision",
		Why:     "requests consumers send to it now fail",
		Path: func(c *Check, base, rev *spec.PathItem) {
			if rev != nil {
				return
			}
			var live []string
			for _, op := range base.Operations {
				if !op.Deprecated {
					live = append(live, opLabel(op, ""))
				}
			}
			if len(live) > 0 {
				c.WithOperations(live).Base(base.Source, "path %s was removed", base.Path)
			}
		},
	},
	{
		ID: "operation-removed", Level: Breaking,
		Summary: "an operation the base has is missing from the revision",
		Why:     "requests consumers send to it now fail",
		Operation: func(c *Check, base, rev *spec.Operation) {
			if base != nil && rev == nil && !c.PathRemoved && !base.Deprecated {
				c.Base(base.Source, "operation %s was removed", opLabel(base, ""))
			}
		},
	},
	{
		ID: "deprecated-operation-removed", Level: Warning,
		Summary: "an operation the base marks deprecated is missing from the revision",
		Why:     "consumers were warned, but those still calling it now fail",
		Operation: func(c *Check, base, rev *spec.Operation) {
			if base != nil && rev == nil && base.Deprecated {
				c.Base(base.Source, "deprecated operation %s was removed", opLabel(base, ""))
			}
		},
	},
	{
		ID: "operation-added", Level: Info,
		Summary: "the revision has an operation the base lacks",
		Why:     "new operations do not affect existing consumers",
		Operation: func(c *Check, base, rev *spec.Operation) {
			if base == nil {
				c.Revision(rev.Source, "operation %s was added", opLabel(rev, ""))
			}
		},
	},
	{
		ID: "operation-deprecated", Level: Info,
		Summary: "an operation became deprecated",
		Why:     "consumers keep working but should move away from it",
		Operation: func(c *Check, base, rev *spec.Operation) {
			if base != nil && rev != nil && !base.Deprecated && rev.Deprecated {
				c.Revision(at(rev.Source, rev.Node, "deprecated"), "operation %s is now deprecated", opLabel(rev, ""))
			}
		},
	},
	{
		ID: "operation-id-changed", Level: Warning,
		Summary: "an operation's operationId changed",
		Why:     "client code generated from the specification names its methods after operationId",
		Operation: func(c *Check, base, rev *spec.Operation) {
			if base != nil && rev != nil && base.OperationID != "" && rev.OperationID != base.OperationID {
				c.Revision(at(rev.Source, rev.Node, "operationId"), "operationId changed from %q to %q", base.OperationID, rev.OperationID)
			}
		},
	},

	// Security.
	securityRule(&Rule{
		ID: "security-added", Level: Breaking,
		Summary: "an operation that needed no authentication now requires it",
		Why:     "consumers that send no credentials are now rejected",
	}, securityAdded),
	securityRule(&Rule{
		ID: "security-requirement-changed", Level: Breaking,
		Summary: "a way to authenticate the base accepts is no longer enough: an alternative, a scheme or a scope changed",
		Why:     "consumers that authenticate the way the base allowed are now rejected",
	}, securityNarrowed),
	{
		ID: "security-removed", Level: Info,
		Summary: "an operation that required authentication no longer does",
		Why:     "consumers may keep sending credentials; they are not needed",
		Operation: func(c *Check, base, rev *spec.Operation) {
			if base != nil && rev != nil && !openAccess(base.Security) && openAccess(rev.Security) {
				c.Revision(securitySource(rev.Security, rev.Source), "operation no longer requires authentication (was %s)", describeSecurity(base.Security))
			}
		},
	},
	{
		ID: "security-alternative-added", Level: Info,
		Summary: "the revision accepts a new way to authenticate",
		Why:     "existing consumers keep authenticating as before",
		Operation: func(c *Check, base, rev *spec.Operation) {
			if base != nil && rev != nil {
				securityWidened(c, base.Security, rev.Security, securitySource(rev.Security, rev.Source))
			}
		},
	},
	securityRule(&Rule{
		ID: "security-scheme-changed", Level: Breaking,
		Summary: "a security scheme an operation uses changed its type, HTTP scheme, or API key name or location",
		Why:     "consumers send credentials the way the base described, which the API no longer reads",
	}, schemeChanged),

	// Request parameters.
	{
		ID: "request-parameter-added-required", Level: Breaking,
		Summary: "a new required parameter (query, header, path, cookie or form field)",
		Why:     "requests of existing consumers lack it and are rejected",
		Parameter: func(c *Check, base, rev *spec.Parameter) {
			if c.Dir == Request && base == nil && rev.Required && !c.InBasePath(rev) {
				c.Revision(rev.Source, "new required %s", describeParam(rev))
			}
		},
	},
	{
		ID: "request-parameter-added", Level: Info,
		Summary: "a new optional parameter, or the declaration of a path parameter the URL already had",
		Why:     "existing consumers do not send it, which the API accepts; a path parameter they send in the URL anyway",
		Parameter: func(c *Check, base, rev *spec.Parameter) {
			switch {
			case c.Dir != Request || base != nil:
			case c.InBasePath(rev):
				c.Revision(rev.Source, "%s, already in the path, is now declared", describeParam(rev))
			case !rev.Required:
				c.Revision(rev.Source, "new optional %s", describeParam(rev))
			}
		},
	},
	{
		ID: "request-parameter-removed", Level: Warning,
		Summary: "a parameter the base accepts is gone",
		Why:     "consumers still send it; the API may ignore it or reject the request",
		Parameter: func(c *Check, base, rev *spec.Parameter) {
			if c.Dir == Request && rev == nil {
				c.Base(base.Source, "%s was removed", describeParam(base))
			}
		},
	},
	{
		ID: "request-parameter-became-required", Level: Breaking,
		Summary: "an optional parameter became required",
		Why:     "consumers that omit it are now rejected",
		Parameter: func(c *Check, base, rev *spec.Parameter) {
			if c.Dir == Request && base != nil && rev != nil && !base.Required && rev.Required {
				c.Revision(at(rev.Source, rev.Node, "required"), "%s became required", describeParam(rev))
			}
		},
	},
	{
		ID: "request-parameter-became-optional", Level: Info,
		Summary: "a required parameter became optional",
		Why:     "consumers that send it keep working",
		Parameter: func(c *Check, base, rev *spec.Parameter) {
			if c.Dir == Request && base != nil && rev != nil && base.Required && !rev.Required {
				c.Revision(at(rev.Source, rev.Node, "required"), "%s became optional", describeParam(rev))
			}
		},
	},

	{
		ID: "request-parameter-became-array", Level: Info,
		Summary: "a scalar parameter now takes an array of that scalar, and a single value still reads as a one-element array",
		Why:     "each value consumers send stays valid: in form style with explode, name=a&name=b is [a, b] and name=a is [a]",
		Parameter: func(c *Check, base, rev *spec.Parameter) {
			if c.Dir != Request || base == nil || rev == nil {
				return
			}
			if sh := c.d.paramShape(base, rev); sh.becameArray && !sh.risky {
				c.Revision(sh.typePath, "%s now takes an array written %s; a single value is a one-element array", describeParam(rev), sh.wire)
			}
		},
	},
	{
		ID: "request-parameter-serialization-changed", Level: Breaking,
		Summary: "the values consumers send for a parameter are read differently: its style, explode or content changed, or a scalar became a delimited array its values may contain the delimiter of",
		Why:     "requests written the way the base describes are parsed into other values, or rejected",
		Parameter: func(c *Check, base, rev *spec.Parameter) {
			if c.Dir != Request || base == nil || rev == nil {
				return
			}
			serializationChanged(c, base, rev)
		},
	},

	// Request bodies.
	{
		ID: "request-body-added-required", Level: Breaking,
		Summary: "an operation without a request body now requires one",
		Why:     "requests of existing consumers have no body and are rejected",
		Body: func(c *Check, base, rev *spec.RequestBody) {
			if c.Dir == Request && base == nil && rev.Required {
				c.Revision(rev.Source, "a required request body was added")
			}
		},
	},
	{
		ID: "request-body-added", Level: Info,
		Summary: "an operation without a request body accepts an optional one",
		Why:     "existing consumers send no body, which the API accepts",
		Body: func(c *Check, base, rev *spec.RequestBody) {
			if c.Dir == Request && base == nil && !rev.Required {
				c.Revision(rev.Source, "an optional request body was added")
			}
		},
	},
	{
		ID: "request-body-removed", Level: Warning,
		Summary: "an operation no longer takes the optional request body the base describes",
		Why:     "consumers that send a body still do; the API may ignore it or reject the request",
		Body: func(c *Check, base, rev *spec.RequestBody) {
			if c.Dir == Request && rev == nil && !base.Required {
				c.Base(base.Source, "the optional request body was removed")
			}
		},
	},
	{
		ID: "request-required-body-removed", Level: Breaking,
		Summary: "an operation no longer takes the request body the base requires",
		Why:     "every consumer sends that body; the API no longer reads it, so it rejects the request or drops the data consumers meant it to act on",
		Body: func(c *Check, base, rev *spec.RequestBody) {
			if c.Dir == Request && rev == nil && base.Required {
				c.Base(base.Source, "the required request body was removed")
			}
		},
	},
	{
		ID: "request-body-became-required", Level: Breaking,
		Summary: "an optional request body became required",
		Why:     "consumers that send no body are now rejected",
		Body: func(c *Check, base, rev *spec.RequestBody) {
			if c.Dir == Request && base != nil && rev != nil && !base.Required && rev.Required {
				c.Revision(at(rev.Source, rev.Node, "required"), "the request body became required")
			}
		},
	},
	{
		ID: "request-body-became-optional", Level: Info,
		Summary: "a required request body became optional",
		Why:     "consumers that send a body keep working",
		Body: func(c *Check, base, rev *spec.RequestBody) {
			if c.Dir == Request && base != nil && rev != nil && base.Required && !rev.Required {
				c.Revision(at(rev.Source, rev.Node, "required"), "the request body became optional")
			}
		},
	},
	{
		ID: "request-media-type-removed", Level: Breaking,
		Summary: "a media type the base accepts in a request body is gone",
		Why:     "consumers that send this media type are rejected (415)",
		MediaType: func(c *Check, base, rev *spec.MediaType) {
			if c.Dir == Request && rev == nil {
				c.Base(base.Source, "%s no longer accepts %s", c.Where, base.Name)
			}
		},
	},
	{
		ID: "request-media-type-added", Level: Info,
		Summary: "a request body accepts a new media type",
		Why:     "existing consumers keep sending the media types they used",
		MediaType: func(c *Check, base, rev *spec.MediaType) {
			if c.Dir == Request && base == nil {
				c.Revision(rev.Source, "%s now also accepts %s", c.Where, rev.Name)
			}
		},
	},

	// Responses.
	{
		ID: "response-status-removed", Level: Breaking,
		Summary: "a response status the base declares is gone, and no range or default response covers it",
		Why:     "consumers handle the responses the base declared; the API no longer describes this one",
		Response: func(c *Check, base, rev *spec.Response) {
			if c.Dir == Response && rev == nil {
				c.Base(base.Source, "response %s was removed", base.Status)
			}
		},
	},
	{
		ID: "response-status-covered", Level: Info,
		Summary: "a response status is no longer declared, but a range (4XX) or default response of the revision covers it",
		Why:     "the response stays described; its schema is compared with the covering response's",
		Response: func(c *Check, base, rev *spec.Response) {
			if c.Dir == Response && base != nil && rev != nil && generality(rev.Status) > generality(base.Status) {
				c.Base(base.Source, "response %s is no longer declared; the %s response covers it", base.Status, rev.Status)
			}
		},
	},
	{
		ID: "response-status-added", Level: Info,
		Summary: "a response status is declared that the base did not declare",
		Why:     "consumers already had to expect undeclared statuses; when a range or default response covered it, the schemas are compared",
		Response: func(c *Check, base, rev *spec.Response) {
			if c.Dir == Response && rev != nil && (base == nil || generality(base.Status) > generality(rev.Status)) {
				c.Revision(rev.Source, "response %s was added", rev.Status)
			}
		},
	},
	{
		ID: "response-media-type-removed", Level: Breaking,
		Summary: "a media type the base returns in a response is gone",
		Why:     "consumers that ask for or parse this media type no longer get it",
		MediaType: func(c *Check, base, rev *spec.MediaType) {
			if c.Dir == Response && rev == nil {
				c.Base(base.Source, "%s no longer returns %s", c.Where, base.Name)
			}
		},
	},
	{
		ID: "response-media-type-added", Level: Info,
		Summary: "a response returns a new media type",
		Why:     "consumers keep asking for the media types they know",
		MediaType: func(c *Check, base, rev *spec.MediaType) {
			if c.Dir == Response && base == nil {
				c.Revision(rev.Source, "%s now also returns %s", c.Where, rev.Name)
			}
		},
	},
	{
		ID: "response-header-removed", Level: Breaking,
		Summary: "a response header the base declares required is gone",
		Why:     "consumers that read it no longer get it",
		Header: func(c *Check, base, rev *spec.Header) {
			if c.Dir == Response && rev == nil && base.Required {
				c.Base(base.Source, "required header %q was removed from %s", base.Name, c.Where)
			}
		},
	},
	{
		ID: "response-optional-header-removed", Level: Warning,
		Summary: "an optional response header is gone",
		Why:     "consumers had to cope without it, but those that read it when present lose it",
		Header: func(c *Check, base, rev *spec.Header) {
			if c.Dir == Response && rev == nil && !base.Required {
				c.Base(base.Source, "header %q was removed from %s", base.Name, c.Where)
			}
		},
	},
	{
		ID: "response-header-became-optional", Level: Breaking,
		Summary: "a required response header became optional",
		Why:     "consumers that rely on it may not get it",
		Header: func(c *Check, base, rev *spec.Header) {
			if c.Dir == Response && base != nil && rev != nil && base.Required && !rev.Required {
				c.Revision(at(rev.Source, rev.Node, "required"), "header %q of %s became optional", rev.Name, c.Where)
			}
		},
	},
}

// asyncRules judge AsyncAPI channels, operations and messages.
var asyncRules = []*Rule{
	// AsyncAPI.
	{
		ID: "channel-removed", Level: Breaking,
		Summary: "an AsyncAPI channel the base has is missing from the revision",
		Why:     "consumers that publish to or subscribe on it lose it",
		Channel: func(c *Check, base, rev *spec.Channel) {
			if rev == nil {
				c.Base(base.Source, "channel %s was removed", channelName(base))
			}
		},
	},
	{
		ID: "channel-added", Level: Info,
		Summary: "the revision has a channel the base lacks",
		Why:     "new channels do not affect existing consumers",
		Channel: func(c *Check, base, rev *spec.Channel) {
			if base == nil {
				c.Revision(rev.Source, "channel %s was added", channelName(rev))
			}
		},
	},
	{
		ID: "async-operation-removed", Level: Breaking,
		Summary: "an AsyncAPI operation the base has is missing from the revision",
		Why:     "consumers that exchange its messages lose the operation",
		AsyncOperation: func(c *Check, base, rev *spec.AsyncOperation) {
			if base != nil && rev == nil {
				c.Base(base.Source, "operation %s was removed", asyncLabel(base))
			}
		},
	},
	{
		ID: "async-operation-added", Level: Info,
		Summary: "the revision has an AsyncAPI operation the base lacks",
		Why:     "new operations do not affect existing consumers",
		AsyncOperation: func(c *Check, base, rev *spec.AsyncOperation) {
			if base == nil {
				c.Revision(rev.Source, "operation %s was added", asyncLabel(rev))
			}
		},
	},
	{
		ID: "async-operation-action-changed", Level: Breaking,
		Summary: "an AsyncAPI operation changed its action (send and receive, publish and subscribe)",
		Why:     "messages now flow the other way: consumers send where they received, or the reverse",
		AsyncOperation: func(c *Check, base, rev *spec.AsyncOperation) {
			if base != nil && rev != nil && apiAction(base.Action) != apiAction(rev.Action) {
				c.Revision(at(rev.Source, rev.Node, "action"), "action changed from %s to %s", base.Action, rev.Action)
			}
		},
	},
	{
		ID: "message-removed", Level: Breaking,
		Summary: "a message consumers send (the API receives) is no longer accepted by the operation",
		Why:     "consumers that send it are no longer understood",
		Message: func(c *Check, base, rev *spec.Message) {
			if c.Dir == Request && rev == nil {
				c.Base(base.Source, "message %s is no longer accepted", messageName(base))
			}
		},
	},
	{
		ID: "message-added", Level: Warning,
		Summary: "the operation sends a message the base does not list",
		Why:     "consumers meet messages they do not know; strict deserializers fail",
		Message: func(c *Check, base, rev *spec.Message) {
			if c.Dir == Response && base == nil {
				c.Revision(rev.Source, "message %s may now be sent", messageName(rev))
			}
		},
	},
}

// at is the path of the first of keys that n has, under src; src itself
// when n has none.
func at(src spec.Path, n *spec.Node, keys ...string) spec.Path {
	for _, k := range keys {
		if n.Get(k) != nil {
			return join(src, spec.Path{k})
		}
	}
	return src
}

func describeParam(p *spec.Parameter) string {
	if p.In == "formData" {
		return "form field \"" + p.Name + "\""
	}
	return p.In + " parameter \"" + p.Name + "\""
}

// generality orders statuses from specific to catch-all: 404, 4XX,
// default.
func generality(status string) int {
	s := strings.ToUpper(status)
	switch {
	case s == "DEFAULT":
		return 2
	case strings.HasSuffix(s, "XX"):
		return 1
	}
	return 0
}

// sortedRequired yields required names in a stable order.
func sortedRequired(req map[string]spec.Path) func(yield func(string, spec.Path) bool) {
	return func(yield func(string, spec.Path) bool) {
		names := make([]string, 0, len(req))
		for n := range req {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if !yield(n, req[n]) {
				return
			}
		}
	}
}

func (s *SchemaCheck) readOnly(v *SchemaView, name string) bool {
	p := v.Property(name)
	return p != nil && v.Flag(p, "readOnly")
}

func channelName(ch *spec.Channel) string {
	if ch.Address != "" {
		return ch.Address
	}
	return ch.ID
}

func messageName(m *spec.Message) string {
	if m.Name != "" {
		return m.Name
	}
	return "(unnamed)"
}
