package contract_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

const petstore = `openapi: 3.1.0
info: {title: Pets, version: "1"}
servers: [{url: "https://api.example.com/v1"}]
paths:
  /pets/{petId}:
    get:
      parameters:
        - {name: petId, in: path, required: true, schema: {type: integer}}
      responses:
        "200":
          description: the pet
          content:
            application/json:
              schema:
                type: object
                required: [id, name]
                properties:
                  id: {type: integer}
                  name: {type: string}
`

// The contract of a document serves both sides: a server routes and checks
// the requests it receives, a client builds requests and checks the
// responses it gets.
func Example() {
	ctx := context.Background()
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(ctx, "api.yaml", []byte(petstore))
	if err != nil {
		panic(err)
	}
	c, err := contract.New(doc, schema.NewSet(doc), contract.Options{})
	if err != nil {
		panic(err)
	}

	// Route: the operation of a method and path, under the servers' prefix.
	route, _ := c.Route("GET", "/v1/pets/42")
	id, _ := route.Param("petId")
	fmt.Println("route:", route.Template, "petId", id)

	// As a server: read the body within a limit, then check everything.
	req, _ := contract.NewRequest(httptest.NewRequest("GET", "/v1/pets/x", nil), 1<<20)
	res := c.CheckRequest(req)
	fmt.Println("request:", res.Status, res.Problems)

	// As a client: build a request by the parameters' styles and check the
	// response it got.
	built, _ := c.BuildRequest(route.Op, contract.Values{Path: map[string]any{"petId": 7}})
	httpReq, _ := built.HTTPRequest(ctx, "https://api.example.com"+c.Prefix(route.Op))
	fmt.Println("built:", httpReq.Method, httpReq.URL)
	problems := c.CheckResponse(route.Op, &contract.Response{Status: 200,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"id": 7}`)})
	fmt.Println("response:", problems)
	// Output:
	// route: /pets/{petId} petId 42
	// request: 400 [path parameter petId: expected integer, got "x" (api.yaml:8:60)]
	// built: GET https://api.example.com/v1/pets/7
	// response: [response body $: missing required property "name" (api.yaml:16:32)]
}
