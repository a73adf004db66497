// Package contract owns the HTTP contract of an OpenAPI document's
// operations (Swagger 2.0, OpenAPI 3.0, 3.1 and 3.2), in both directions:
// the mock server routes and checks the requests it receives and picks the
// media types of its answers; the contract tester builds the requests it
// sends and checks the responses it gets; the example commands check
// examples. Both sides go through the same code, so a test run against
// specgate's own mock proves the two at once.
//
// A Contract is built once per document (its routing tree; schemas are
// compiled on first use) and is safe for concurrent use. Its steps are
// those of Prism, each usable alone:
//
//	c, err := contract.New(doc, schemas, contract.Options{})
//
//	// Route: the operation of a method and path, or a *RouteError
//	// (404, or 405 with the Allow list).
//	route, err := c.Route("GET", "/v1/pets/42")
//
//	// As a server: read the body within a limit (413 beyond it), then
//	// route, check security, Content-Type, Accept, parameters and body.
//	req, err := contract.NewRequest(r, 1<<20)
//	res := c.CheckRequest(req)
//	res.Route.Op; res.Params.Path["petId"]; res.Body; res.Problems; res.Status
//	mt, ok := contract.NegotiateResponse(resp, r.Header.Get("Accept"))
//
//	// As a client: build a request (parameters by style, the body by
//	// its codec, credentials by security scheme) and check the answer.
//	built, err := c.BuildRequest(op, contract.Values{
//		Path: map[string]any{"petId": 42}, Body: pet, Credentials: creds})
//	httpReq, err := built.HTTPRequest(ctx, baseURL+c.Prefix(op))
//	problems := c.CheckResponse(op, &contract.Response{Status: 200, Header: h, Body: b})
//
// The parts: Negotiate and MatchMediaType choose media types (Accept with
// q-values and wildcards; a Content-Type against content keys, the most
// specific key winning); CheckSecurity and Authorize check and put
// credentials; Codec reads and writes a media-type family (Options.Codecs
// adds others).
//
// Routing honours the servers' path prefixes (servers[].url, Swagger's
// basePath), matches templates inside segments ("/files/{name}.json",
// "/items/{a}-{b}", "/v{version}/x") and prefers literal segments; see
// Contract.Route for the order. Parameters are read and written by style
// and explode (form, simple, label, matrix, spaceDelimited,
// pipeDelimited, deepObject; Swagger's collectionFormat) and typed by their
// schema: "?ids=1&ids=x" for an array of integers is a problem at the
// serialized key ids[1]. Bodies are read by a codec per media-type
// family: JSON and +json, form fields (by their Encoding Objects),
// multipart parts (files included), text, XML (below), and binary content,
// of which only the media type is checked. Values are validated by the schema package for
// the direction they travel (readOnly, writeOnly).
//
// A Problem names where it is (path, query, header, cookie, body, status,
// content-type, accept, security, method), the serialized key of a
// parameter, the JSON path of the failing value, the keyword, and the
// place in the document of the rule it breaks (file:line:col).
//
// # XML bodies
//
// XML is read into a JSON value so that its schema can validate it, using
// the schema's xml object where it has one:
//
//   - xml.name names a property's element (or attribute); a property
//     without it is the element of its own name;
//   - xml.attribute (OpenAPI 3.2: nodeType attribute) reads the property
//     from an attribute of its object's element; nodeType text from the
//     element's text;
//   - an array property's items are repeated elements named by the items'
//     xml.name, else by the property's name; with xml.wrapped they sit
//     inside one element named by the array's xml.name (or the property's).
//
// Elements and attributes are matched by local name: prefixes and
// namespaces are not checked, nor is the name of the root element. Text is
// typed by the schema (integers, numbers, booleans). An element that the
// schema does not describe becomes a string (text only) or an object of
// its attributes and children, so that additionalProperties: false still
// sees it. Writing follows the same rules; the root element is named by
// the schema's xml.name, else by the component its media type refers to,
// else "root".
//
// The decisions behind these rules, and measurements, are in
// docs/architecture-notes.md ("One operation's contract").
package contract
