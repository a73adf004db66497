package insights_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/insights"
)

func TestSpecMetadata(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("no corpus beside the repository")
	}
	files := []string{
		"testdata/pets-base.yaml",
		filepath.Join(corpus, "petstore-expanded.yaml"),
		filepath.Join(corpus, "uber-v2.json"),
		filepath.Join(corpus, "asyncapi-streetlights-kafka-2.6.yml"),
		"testdata/missing.yaml",
	}
	rep, errs := insights.BuildSpecMetadata(context.Background(), loader(), files, &insights.Resolver{}, insights.Tool{Name: "specgate", Version: "test"})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "missing.yaml") {
		t.Errorf("errors %v, want the missing file's", errs)
	}
	if len(rep.Specs) != 5 {
		t.Fatalf("%d entries", len(rep.Specs))
	}
	pets := rep.Specs[0]
	if pets.File != "testdata/pets-base.yaml" || pets.ID != "testdata/pets-base.yaml" || pets.Format != "openapi" || pets.SpecVersion != "3.0.3" ||
		pets.Title != "Pets" || pets.Version != "1.0" || pets.OperationCount() != 3 || len(pets.Operations) != 3 {
		t.Errorf("pets: %+v", pets)
	}
	wantOps := []insights.OperationMetadata{
		{Path: "/pets", Method: "GET", Status: "200", ResponseContentType: "application/json", OperationID: "listPets"},
		{Path: "/pets", Method: "POST", RequestContentType: "application/json", Status: "201", ResponseContentType: "application/json", OperationID: "addPet"},
		{Path: "/pets/{id}", Method: "DELETE", Status: "204", OperationID: "deletePet"},
	}
	if !reflect.DeepEqual(pets.Operations, wantOps) {
		t.Errorf("operations\n got  %+v\n want %+v", pets.Operations, wantOps)
	}
	if !reflect.DeepEqual(pets.Servers, []insights.ServerMetadata{{URL: "https://pets.example.com/v1"}}) {
		t.Errorf("servers %+v", pets.Servers)
	}
	wantSchemes := []insights.SecuritySchemeInfo{{Name: "bearer", Type: "http", Scheme: "bearer"}, {Name: "key", Type: "apiKey", In: "header", ParamName: "X-Api-Key"}}
	if !reflect.DeepEqual(pets.SecuritySchemes, wantSchemes) {
		t.Errorf("security schemes %+v", pets.SecuritySchemes)
	}

	petstore := rep.Specs[1]
	if petstore.Title != "Swagger Petstore" || petstore.OperationCount() != 4 {
		t.Errorf("petstore-expanded: %q, %d operations", petstore.Title, petstore.OperationCount())
	}
	uber := rep.Specs[2]
	if uber.Format != "swagger" || uber.SpecVersion != "2.0" || uber.OperationCount() != 5 || len(uber.Servers) != 1 {
		t.Errorf("uber: %s %s, %d operations, servers %+v", uber.Format, uber.SpecVersion, uber.OperationCount(), uber.Servers)
	}
	kafka := rep.Specs[3]
	if kafka.Format != "asyncapi" || len(kafka.Operations) == 0 || kafka.Operations[0].Action == "" || kafka.Operations[0].Channel == "" {
		t.Errorf("streetlights: %+v", kafka.Operations)
	}
	if missing := rep.Specs[4]; missing.Error == "" || missing.Operations == nil {
		t.Errorf("missing: %+v", missing)
	}

	dir := t.TempDir()
	path, err := insights.WriteSpecMetadata(dir, rep)
	if err != nil || path != filepath.Join(dir, insights.SpecMetadataFile) {
		t.Fatalf("written to %s: %v", path, err)
	}
	back, err := insights.ReadSpecMetadata(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Specs, rep.Specs) {
		t.Error("the report does not read back the same")
	}

	s := insights.NewSubmission("spec-metadata-report", insights.SpecMetadataKind, insights.Tool{}, insights.CI{RepoID: "acme/contracts"})
	s.AddSpecMetadata(rep)
	if len(s.Results) != 4 || s.Results[0].Status != "published" || s.Results[0].Operations != 3 {
		t.Errorf("results %+v", s.Results)
	}
}

// TestLegacySpecMetadata: the report under its earlier name and shape
// still reads.
func TestLegacySpecMetadata(t *testing.T) {
	rep, err := insights.ReadSpecMetadata("testdata/legacy_central_contract_repo_report.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []insights.OperationMetadata{{Path: "/pets", Method: "GET", Status: "200"}, {Path: "/pets", Method: "POST", Status: "201"}}
	if len(rep.Specs) != 1 || rep.Specs[0].ID != "specs/pets.yaml" || rep.Specs[0].Format != "openapi" || !reflect.DeepEqual(rep.Specs[0].Operations, want) {
		t.Errorf("legacy report read as %+v", rep.Specs)
	}
}

func TestReadSpecMetadataErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, data, want string }{
		{"syntax", "{\n  \"specs\": [\n    {\"file\": 1,}\n  ]\n}", ":3:16: invalid character '}'"},
		{"type", `{"specs": [{"file": 1}]}`, ":1:21: json: cannot unmarshal number into Go struct field"},
		{"neither", `{"reports": []}`, "not a spec metadata report (it has neither specs nor specifications)"},
		{"unknown member", `{"specs": [], "extra": 1}`, `unknown field "extra"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name+".json")
			os.WriteFile(p, []byte(tc.data), 0o644)
			_, err := insights.ReadSpecMetadata(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), p) {
				t.Errorf("error %v, want %s…%q", err, p, tc.want)
			}
		})
	}
}

// TestSpecRefInGit: a specification in a git repository is named by its
// origin and its path within the repository, wherever it is checked out.
func TestSpecRefInGit(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	repo := filepath.Join(root, "checkout")
	os.MkdirAll(filepath.Join(repo, "specs"), 0o755)
	os.WriteFile(filepath.Join(repo, "specs", "api.yaml"), []byte("openapi: 3.0.3\n"), 0o644)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"remote", "add", "origin", "git@github.com:Acme/Contracts.git"}} {
		if out, err := gitCmd(repo, args...); err != nil {
			t.Skipf("git: %v %s", err, out)
		}
	}
	res := &insights.Resolver{Dir: root, Git: &insights.Git{}}
	ref := res.Ref(ctx, "checkout/specs/api.yaml")
	want := insights.SpecRef{ID: "github.com/Acme/Contracts/specs/api.yaml", Repository: "github.com/Acme/Contracts", Path: "specs/api.yaml", File: "checkout/specs/api.yaml"}
	if ref != want {
		t.Errorf("ref %+v, want %+v", ref, want)
	}
	res.Aliases = map[string]string{"api": filepath.Join(repo, "specs", "api.yaml")}
	if alias := res.Ref(ctx, "api"); alias.ID != want.ID || alias.File != "api" {
		t.Errorf("alias: %+v", alias)
	}
	outside := res.Ref(ctx, "elsewhere/api.yaml")
	if outside.ID != "elsewhere/api.yaml" || outside.Repository != "" {
		t.Errorf("outside git: %+v", outside)
	}
}

func gitCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	return cmd.CombinedOutput()
}
