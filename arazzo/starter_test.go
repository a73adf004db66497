package arazzo_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/arazzo"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/mock"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// TestStarter writes the starter workflows of OpenAPI descriptions of every
// version (the corpus's and those of the Arazzo examples) and checks the
// documents as specgate checks any: valid against the official Arazzo
// schema and for what it cannot say (arazzo.Check), free of findings of
// the Arazzo lint rules, with inputs that can be generated. The starters of
// petstore-expanded.yaml then run against a mock of it and pass.
func TestStarter(t *testing.T) {
	shared := filepath.Join("..", "..", "shared")
	specs := []string{"corpus/petstore-expanded.yaml", "corpus/uspto.yaml", "corpus/uber-v2.json", "corpus/petstore-separate-v2/spec/swagger.yaml",
		"corpus/webhook-example-3.1.yaml", "arazzo/examples/1.0.0/pet-coupons.openapi.yaml", "arazzo/examples/1.0.0/FAPI-PAR.openapi.yaml",
		"arazzo/examples/1.0.0/bnpl-openapi.yaml", "arazzo/examples/1.0.0/oauth.openapi.yaml"}
	if _, err := os.Stat(shared); err != nil {
		t.Skip("../shared is not beside the repository")
	}
	l := arazzoLinter(t)
	for _, name := range specs {
		t.Run(filepath.Base(name), func(t *testing.T) {
			specFile, err := filepath.Abs(filepath.Join(shared, filepath.FromSlash(name)))
			if err != nil {
				t.Fatal(err)
			}
			loader := spec.NewLoader(spec.Options{AllowExternalRefs: true})
			doc, err := loader.Load(context.Background(), specFile)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			rel, err := filepath.Rel(dir, specFile)
			if err != nil {
				t.Fatal(err)
			}
			data, err := arazzo.Starter(doc, filepath.ToSlash(rel))
			if err != nil {
				if strings.Contains(err.Error(), "has no operations under paths") && strings.Contains(name, "webhook") {
					return // webhooks only: nothing to call
				}
				t.Fatal(err)
			}
			out := filepath.Join(dir, "starter.arazzo.yaml")
			if err := os.WriteFile(out, data, 0o644); err != nil {
				t.Fatal(err)
			}
			adoc, err := loader.Load(context.Background(), out)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if adoc.Version != arazzo.StarterVersion {
				t.Errorf("version %s, want %s", adoc.Version, arazzo.StarterVersion)
			}
			c, problems := arazzo.Check(context.Background(), adoc)
			for _, p := range problems {
				t.Errorf("%s", p.Error())
			}
			if len(c.Workflows) != len(doc.Views().Operations) {
				t.Errorf("%d workflows for %d operations", len(c.Workflows), len(doc.Views().Operations))
			}
			if _, err := arazzo.ExampleInputs(c.Description, 1); err != nil {
				t.Errorf("inputs: %v", err)
			}
			res := l.LintFile(context.Background(), out)
			for _, d := range res.Findings {
				t.Errorf("lint: %d:%d %s %s", d.Range.Start.Line, d.Range.Start.Col, d.Rule, d.Message)
			}
		})
	}
	t.Run("runs against a mock", func(t *testing.T) {
		specFile, _ := filepath.Abs(filepath.Join(shared, "corpus", "petstore-expanded.yaml"))
		srv, err := mock.New(context.Background(), mock.Options{Specs: []mock.SpecSource{{Path: specFile}}, WatchInterval: -1})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		loader := spec.NewLoader(spec.Options{AllowExternalRefs: true})
		doc, err := loader.Load(context.Background(), specFile)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		rel, _ := filepath.Rel(dir, specFile)
		data, err := arazzo.Starter(doc, filepath.ToSlash(rel))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "petstore.arazzo.yaml")
		os.WriteFile(out, data, 0o644)
		adoc, err := loader.Load(context.Background(), out)
		if err != nil {
			t.Fatal(err)
		}
		c, problems := arazzo.Check(context.Background(), adoc)
		if len(problems) > 0 {
			t.Fatal(problems)
		}
		in, err := arazzo.ExampleInputs(c.Description, 1)
		if err != nil {
			t.Fatal(err)
		}
		inputs := map[string]map[string]any{}
		for id, v := range in {
			inputs[id] = v.(map[string]any)
		}
		r, err := arazzo.NewRunner(c, arazzo.Options{BaseURL: ts.URL, Inputs: inputs})
		if err != nil {
			t.Fatal(err)
		}
		var got, steps []string
		for _, res := range r.Run(context.Background(), nil, func(sr *arazzo.StepResult) { steps = append(steps, sr.Workflow+": "+sr.Message) }) {
			got = append(got, res.ID+"="+string(res.Outcome)+" "+res.Message)
		}
		defer func() {
			if t.Failed() {
				t.Logf("steps:\n%s\n%s", strings.Join(steps, "\n"), data)
			}
		}()
		want := []string{"findPets=passed ", "addPet=passed ", "find-pet-by-id=passed ", "deletePet=passed "}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("workflows:\n got %q\nwant %q", got, want)
		}
	})
}

// arazzoLinter lints with the Arazzo rules alone, at their severities.
func arazzoLinter(t *testing.T) *linter.Linter {
	t.Helper()
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		t.Fatal(err)
	}
	sevs := rulesets.Severities{}
	for _, r := range reg.Rules {
		if strings.HasPrefix(r.ID, "arazzo-") {
			sevs[r.ID] = r.Severity
		}
	}
	if len(sevs) == 0 {
		t.Fatal("no arazzo-* rules")
	}
	l, err := linter.New(context.Background(), linter.Options{Registry: reg, Severities: sevs, Loader: spec.NewLoader(spec.Options{AllowExternalRefs: true})})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
