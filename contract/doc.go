// Package contract owns the HTTP contract of an OpenAPI document's
// operations (Swagger 2.0, OpenAPI 3.0, 3.1 and 3.2), in both directions:
// the mock server routes and checks the requests it receives and picks the
// media types of its answers; the contract tester builds the requests it
// sends and checks the responses it gets; the example commands check
// examples. Both sides go through the same code, so a test run against
// specgate's own mock proves the two at once.
//
// A Contract is built once per document and is safe for concurrent use:
//
//	c, err := contract.New(doc, schemas, contract.Options{})
//
//	// Route: which operation a method and path belong to.
//	route, err := c.Route("GET", "/v1/pets/42")   // *Route, or a *RouteError (404, or 405 with Allow)
//
//	// Check a request, as a server: route → security → content type →
//	// Accept → parameters and body. Status is what to answer.
//	res := c.CheckRequest(&contract.Request{Method: "GET", Path: "/v1/pets/42", Header: h})
//	res.Route.Op; res.Params.Path["petId"]; res.Body; res.Problems; res.Status
//
//	// Check a response, as a client.
//	problems := c.CheckResponse(op, &contract.Response{Status: 200, Header: h, Body: b})
//
//	// Build a request, as a client.
//	req, err := c.BuildRequest(op, contract.Values{Path: map[string]any{"petId": 42}})
//
//	// Content negotiation.
//	mt, ok := contract.Negotiate("application/json;q=0.5, */*;q=0.1", offered)
//
// Routing honours the servers' path prefixes (servers[].url, Swagger's
// basePath), matches templates inside segments ("/files/{name}.json",
// "/items/{a}-{b}", "/v{version}/x") and prefers literal segments; see
// Contract.Route for the order.
//
// Parameters are read and written by style and explode (form, simple,
// label, matrix, spaceDelimited, pipeDelimited, deepObject; Swagger's
// collectionFormat), typed by their schema's type: "?ids=1&ids=x" for an
// array of integers is a problem at the serialized key ids[1]. Bodies are
// read by a Codec per media-type family: JSON and +json, form fields,
// multipart parts (files included), text, XML (read into a JSON value by
// the schema's xml names; see xml.go), and binary bodies, of which only
// the media type is checked. Values are validated by the schema package,
// for the direction they travel (readOnly, writeOnly).
//
// A Problem names where it is (path, query, header, cookie, body, status,
// content-type, accept, security, method), the serialized key of a
// parameter, the JSON path of the failing value, the keyword, and the
// place in the document of the rule it breaks (file:line:col).
package contract
