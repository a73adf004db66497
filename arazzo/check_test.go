package arazzo

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/wanttest"
	"github.com/specgate/specgate/spec"
)

// TestBrokenDocuments checks each testdata/broken document against the
// `# want "substring"` comments on its lines: every problem must be wanted
// on the line it is located at, and every want must be met. A want written
// `# want broken "substring"` is a reference that does not resolve or an
// expression that does not parse (Problem.Broken, which lint reports);
// the others are validate's alone.
func TestBrokenDocuments(t *testing.T) {
	files, _ := filepath.Glob("testdata/broken/*.arazzo.yaml")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), name)
			if err != nil {
				t.Fatal(err)
			}
			wants := wanttest.Wants{}
			wanttest.Read(t, name, wanttest.Hash, wants)
			_, problems := Check(context.Background(), doc)
			found := make([]wanttest.Found, len(problems))
			for i, p := range problems {
				found[i] = wanttest.Found{File: p.File, Line: int(p.Range.Start.Line), Col: int(p.Range.Start.Col), Message: p.Message}
				if p.Broken {
					found[i].Tag = "broken"
				}
			}
			wanttest.Check(t, wants, found)
		})
	}
}

// TestWrongVersion: a version specgate does not read is the loader's error,
// at the version's position.
func TestWrongVersion(t *testing.T) {
	_, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "v.arazzo.yaml", []byte("arazzo: 2.0.0\ninfo: {title: t, version: v}\n"))
	if err == nil || err.Error() != `v.arazzo.yaml:1:9: unsupported arazzo version "2.0.0": specgate reads arazzo 1.0.x or 1.1.x` {
		t.Fatalf("got %v", err)
	}
}

// TestExamples checks the Arazzo specification's own examples: those whose
// sources are here and whose steps name what exists are valid; the others
// get the problems below (remote sources are not fetched without
// --allow-remote-refs; two examples name steps' outputs that do not exist
// or an operationId in the wrong case, one passes parameters by names its
// operations do not have).
func TestExamples(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "arazzo", "examples", "1.0.0")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/arazzo is not beside the repository")
	}
	want := map[string][]string{
		"oauth.arazzo.yaml": nil,
		"pet-coupons.arazzo.yaml": {
			`36:9: step "find-coupons" sets no value for path parameter "petId" of GET /pet/{petId}/coupons (getPetCoupons)`,
			`40:13: GET /pet/{petId}/coupons (getPetCoupons) has no path parameter "pet_id"; did you mean "petId"?`,
		},
		"FAPI-PAR.arazzo.yaml":                  {`102:9: step "PARStep": no operation of`},
		"ExtendedParametersExample.arazzo.yaml": {`8:5: source description "animals" does not load`},
		"LoginAndRetrievePets.arazzo.yaml":      {`10:3: source description "petStoreDescription" does not load: https://raw.githubusercontent.com/swagger-api/swagger-petstore/master/src/main/resources/openapi.yaml: a remote document, not fetched without --allow-remote-refs`},
		"bnpl-arazzo.yaml": {
			`9:5: source description "BnplApi" does not load`,
			`231:9: $steps.authenticateCustomerAndAuthorizeLoan.outputs.redirectAuthToken: step "authenticateCustomerAndAuthorizeLoan" has no output "redirectAuthToken"`,
			`242:9: $steps.initiateBnplTransaction.outputs.loanTransactionId: step "initiateBnplTransaction" has no output "loanTransactionId"`,
			`253:9: $steps.initiateBnplTransaction.outputs.loanTransactionId`,
			`260:5: output "finalizedPaymentPlan": runtime expression "$steps.retrieveFinalizedPaymentPlan.finalizedPaymentPlan" does not parse`,
		},
	}
	for file, wants := range want {
		t.Run(file, func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			_, problems := Check(context.Background(), doc)
			if len(problems) != len(wants) {
				for _, p := range problems {
					t.Log(p.Error())
				}
				t.Fatalf("%d problems, want %d", len(problems), len(wants))
			}
			for i, p := range problems {
				if !strings.Contains(p.Error(), wants[i]) {
					t.Errorf("problem %d: %s\nwant it to contain %s", i, p.Error(), wants[i])
				}
			}
		})
	}
}
