package insightsd

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/validate"
)

// apiDoc is the insights API's description, which the service implements.
var apiDoc = filepath.Join("..", "docs", "insights-api.yaml")

// TestAPIDescriptionLintsClean: the description is valid OpenAPI 3.1 and
// specgate's recommended and strict rulesets find nothing in it (its
// x-lint-ignore lists say why where a rule does not apply).
func TestAPIDescriptionLintsClean(t *testing.T) {
	ctx := context.Background()
	doc, err := spec.NewLoader(spec.Options{}).Load(ctx, apiDoc)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range validate.Validate(doc) {
		t.Errorf("invalid: %v", p)
	}
	for _, ruleset := range []string{"recommended", "strict"} {
		setup, err := rulesets.Load(rulesets.Options{Ruleset: ruleset, NoSearch: true})
		if err != nil {
			t.Fatal(err)
		}
		l, err := linter.New(ctx, linter.Options{Registry: setup.Registry, Severities: setup.Severities})
		if err != nil {
			t.Fatal(err)
		}
		res := l.LintDocument(ctx, doc)
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		for _, d := range res.Findings {
			t.Errorf("%s: %s:%d:%d %s %s: %s", ruleset, apiDoc, d.Range.Start.Line, d.Range.Start.Col, d.Severity, d.Rule, d.Message)
		}
		if l.RuleCount() < 30 {
			t.Errorf("%s: only %d rules ran", ruleset, l.RuleCount())
		}
	}
}

var (
	apiOnce     sync.Once
	apiContract *contract.Contract
	apiErr      error
)

// conform serves h and checks each of its answers against the API's
// description: every status, header and body the service sends is one the
// description declares.
func conform(t *testing.T, h http.Handler) http.Handler {
	apiOnce.Do(func() {
		var doc *spec.Document
		doc, apiErr = spec.NewLoader(spec.Options{}).Load(context.Background(), apiDoc)
		if apiErr == nil {
			apiContract, apiErr = contract.New(doc, nil, contract.Options{})
		}
	})
	if apiErr != nil {
		t.Fatal(apiErr)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
		route, err := apiContract.Route(r.Method, r.URL.RequestURI())
		if err != nil {
			return // an endpoint the description does not have: its 404 or 405 is checked by the tests
		}
		for _, p := range apiContract.CheckResponse(route.Op, &contract.Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes(), Method: r.Method}) {
			t.Errorf("%s %s answered %d, which the description does not allow: %s", r.Method, r.URL.Path, rec.Code, p.Error())
		}
	})
}
