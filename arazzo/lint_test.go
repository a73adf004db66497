package arazzo

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/spec"
)

// TestLintInput checks input.arazzo: the operation each step calls with
// what it declares and what its security sends, the parameters each step
// sends after its own replace its workflow's, and the expressions each
// workflow reads.
func TestLintInput(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pets.yaml": `openapi: 3.1.0
info: {title: Pets, version: 1.0.0}
paths:
  /pets/{petId}:
    get:
      operationId: getPet
      security: [{key: []}, {bearer: []}]
      parameters:
        - {name: petId, in: path, required: true, schema: {type: integer}}
        - {name: fields, in: query, schema: {type: string}}
      responses:
        '200': {description: the pet}
components:
  securitySchemes:
    key: {type: apiKey, in: cookie, name: sid}
    bearer: {type: http, scheme: bearer}
`,
		"flows.arazzo.yaml": `arazzo: 1.0.1
info: {title: Flows, version: 1.0.0}
sourceDescriptions:
  - {name: pets, url: ./pets.yaml}
workflows:
  - workflowId: read
    inputs:
      type: object
      properties:
        id: {type: integer}
    parameters:
      - {name: trace, in: header, value: t1}
      - {name: fields, in: query, value: all}
    steps:
      - stepId: get
        operationId: getPet
        parameters:
          - {name: petId, in: path, value: $inputs.id}
          - {name: fields, in: query, value: name}
          - reference: $components.parameters.page
        successCriteria:
          - condition: $statusCode == 200
        outputs:
          name: $response.body#/name
    outputs:
      name: $steps.get.outputs.name
  - workflowId: call
    parameters:
      - {name: trace, in: header, value: t2}
      - {name: id, value: 7}
    steps:
      - stepId: read
        workflowId: read
        parameters:
          - {name: id, value: $workflows.read.inputs.id}
components:
  parameters:
    page: {name: page, in: query, value: 1}
`,
	}
	filetest.Write(t, dir, files)
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join(dir, "flows.arazzo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(LintInput(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Workflows []struct {
			ID     string
			Inputs []struct {
				Name   string
				Source []any
			}
		}
		Steps []struct {
			Workflow, ID, Kind string
			Parameters         []struct {
				Name, In      string
				WorkflowLevel bool
				Source        []any
			}
			Operation *struct {
				Name                    string
				Parameters, Credentials []struct{ Name, In string }
			}
		}
		Uses []struct{ Workflow, Step, Kind, ID, Field, Name, Expression string }
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	check := func(what string, got, want any) {
		t.Helper()
		g, w := canonicalJSON(got), canonicalJSON(want)
		if g != w {
			t.Errorf("%s:\n got %s\nwant %s", what, g, w)
		}
	}
	check("workflows", got.Workflows, []any{
		map[string]any{"ID": "read", "Inputs": []any{map[string]any{"Name": "id", "Source": []any{"workflows", 0, "inputs", "properties", "id"}}}},
		map[string]any{"ID": "call", "Inputs": nil},
	})
	get, call := got.Steps[0], got.Steps[1]
	check("operation of get", get.Operation, map[string]any{"Name": "GET /pets/{petId} (getPet)",
		"Parameters":  []any{map[string]any{"Name": "petId", "In": "path"}, map[string]any{"Name": "fields", "In": "query"}},
		"Credentials": []any{map[string]any{"Name": "sid", "In": "cookie"}, map[string]any{"Name": "Authorization", "In": "header"}}})
	check("parameters of get", get.Parameters, []any{
		map[string]any{"Name": "trace", "In": "header", "WorkflowLevel": true, "Source": []any{"workflows", 0, "parameters", 0}},
		map[string]any{"Name": "fields", "In": "query", "WorkflowLevel": false, "Source": []any{"workflows", 0, "steps", 0, "parameters", 1}},
		map[string]any{"Name": "petId", "In": "path", "WorkflowLevel": false, "Source": []any{"workflows", 0, "steps", 0, "parameters", 0}},
		map[string]any{"Name": "page", "In": "query", "WorkflowLevel": false, "Source": []any{"workflows", 0, "steps", 0, "parameters", 2}},
	})
	if call.Kind != "workflow" || call.Operation != nil {
		t.Errorf("step call: kind %s, operation %v; want a workflow step without operation", call.Kind, call.Operation)
	}
	// A step that calls a workflow gets its workflow's parameters without
	// a location: they are the called workflow's inputs.
	check("parameters of call", call.Parameters, []any{
		map[string]any{"Name": "id", "In": "", "WorkflowLevel": false, "Source": []any{"workflows", 1, "steps", 0, "parameters", 0}},
	})
	check("uses", got.Uses, []any{
		map[string]any{"Workflow": "read", "Step": "get", "Kind": "inputs", "ID": "", "Field": "", "Name": "id", "Expression": "$inputs.id"},
		map[string]any{"Workflow": "read", "Step": "get", "Kind": "statusCode", "ID": "", "Field": "", "Name": "", "Expression": "$statusCode"},
		map[string]any{"Workflow": "read", "Step": "get", "Kind": "response", "ID": "", "Field": "", "Name": "", "Expression": "$response.body#/name"},
		map[string]any{"Workflow": "read", "Step": "", "Kind": "steps", "ID": "get", "Field": "outputs", "Name": "name", "Expression": "$steps.get.outputs.name"},
		map[string]any{"Workflow": "call", "Step": "read", "Kind": "workflows", "ID": "read", "Field": "inputs", "Name": "id", "Expression": "$workflows.read.inputs.id"},
	})
}

// canonicalJSON is v's JSON with the keys of objects sorted, structs and
// maps alike.
func canonicalJSON(v any) string {
	data, _ := json.Marshal(v)
	var x any
	json.Unmarshal(data, &x)
	data, _ = json.Marshal(x)
	return string(data)
}
