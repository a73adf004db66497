package contract_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
)

// TestEncodeResponse: a response body written by EncodeResponse is read
// back by CheckResponse without a problem, for each family of media type,
// and a media type the response does not declare is an error.
func TestEncodeResponse(t *testing.T) {
	doc := loadFixture(t, "responses-3.1.yaml")
	c := newContract(t, doc, contract.Options{})
	set := schema.NewSet(doc)
	var done int
	for _, op := range c.Operations() {
		for _, r := range op.Responses {
			if r.Status == "default" || strings.HasSuffix(r.Status, "XX") {
				continue
			}
			status := 0
			for _, ch := range r.Status {
				status = status*10 + int(ch-'0')
			}
			for _, mt := range r.Content {
				if mt.Schema == nil || strings.Contains(mt.Name, "*") {
					continue
				}
				v, why := generated(set, mt, schema.Response, 7)
				if why != "" {
					t.Fatalf("%s %s %d %s: %s", op.Method, op.Path, status, mt.Name, why)
				}
				body, ct, err := c.EncodeResponse(op, status, mt.Name, v)
				if err != nil {
					t.Errorf("%s %s %d %s: %v", op.Method, op.Path, status, mt.Name, err)
					continue
				}
				if probs := c.CheckResponse(op, &contract.Response{Status: status, Header: http.Header{"Content-Type": {ct}}, Body: body, Method: op.Method}); len(probs) > 0 {
					t.Errorf("%s %s %d %s: %s\n%v", op.Method, op.Path, status, mt.Name, body, probs)
				}
				// What was written reads back as the value, where the
				// media type is read at all.
				if back, err := c.DecodeResponse(op, status, ct, body); err == nil {
					if !reflect.DeepEqual(jsonish(back), jsonish(v)) {
						t.Errorf("%s %d %s: read back %#v, wrote %#v", op.Path, status, mt.Name, back, v)
					}
				} else if mt.Name != "application/octet-stream" {
					t.Errorf("%s %d %s: %v", op.Path, status, mt.Name, err)
				}
				done++
			}
		}
	}
	if done != 7 {
		t.Errorf("%d response bodies encoded, want 7", done)
	}
	op := c.Operations()[0]
	if _, _, err := c.EncodeResponse(op, 200, "application/x-nothing", map[string]any{}); err == nil || !strings.Contains(err.Error(), "declares no") {
		t.Errorf("undeclared media type: %v", err)
	}
}

// jsonish is v as JSON reads it back, so that numbers compare alike
// whatever Go type holds them.
func jsonish(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
