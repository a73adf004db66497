// Package schematest validates the reports specgate writes (SARIF, CTRF)
// against the published JSON Schemas of their formats, for the tests of
// the packages that write them. The schemas are in
// reports/testdata/schemas.
package schematest

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

// Complaints validates doc against the JSON Schema in schemaFile with the
// validator built into OPA (json.match_schema) and returns its complaints,
// none when doc is valid.
func Complaints(t testing.TB, doc []byte, schemaFile string) []string {
	t.Helper()
	schema, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var input struct {
		Doc    any `json:"doc"`
		Schema any `json:"schema"`
	}
	if err := json.Unmarshal(doc, &input.Doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := json.Unmarshal(schema, &input.Schema); err != nil {
		t.Fatal(err)
	}
	rs, err := rego.New(rego.Query("result := json.match_schema(input.doc, input.schema)"), rego.Input(input)).Eval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 {
		t.Fatalf("json.match_schema gave %d results", len(rs))
	}
	result := rs[0].Bindings["result"].([]any)
	if result[0] == true {
		return nil
	}
	var complaints []string
	for _, e := range result[1].([]any) {
		m := e.(map[string]any)
		complaints = append(complaints, m["field"].(string)+": "+m["desc"].(string))
	}
	if len(complaints) == 0 {
		t.Fatalf("no match and no complaint: %v", result)
	}
	return complaints
}
