package examples

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/schema"
)

// generateInto writes the examples Generate makes for a spec into a new
// folder, and returns it with the file names.
func generateInto(t *testing.T, k *Checker, seed uint64) (string, []string) {
	t.Helper()
	files, err := k.Generate(schema.NewGenerator(seed))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	written, skipped, err := WriteFiles(dir, files)
	if err != nil || len(skipped) > 0 {
		t.Fatalf("written %v, skipped %v: %v", written, skipped, err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	return dir, names
}

// generatedValid checks that the files generated into dir are the names
// wanted and that none has findings, and returns them loaded and a reader
// of their text.
func generatedValid(t *testing.T, k *Checker, dir string, names, want []string) (*Set, func(name string) string) {
	t.Helper()
	if !reflect.DeepEqual(names, want) {
		t.Errorf("files\n%q\nwant\n%q", names, want)
	}
	set := Load([]string{dir}, Options{})
	if len(set.Errors) > 0 {
		t.Fatal(set.Errors)
	}
	if fs := k.CheckAll(set.Examples); len(fs) > 0 {
		t.Errorf("generated examples have findings:\n%v", fs)
	}
	return set, func(name string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
}

// Generated examples cover every operation, status and media type, and
// 405 and 415 where an operation can answer them; each validates.
func TestGenerate(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "check", "api.yaml"))
	k := NewChecker(c, nil)
	dir, names := generateInto(t, k, 1)
	want := []string{
		"listPets_200.json", "listPets_400.json",
		"createPet_201.json", "createPet_422.json", "createPet_415.json",
		"put_pets_405.json",
		"getPet_200_json.json", "getPet_200_xml.json", "getPet_404.json",
		"deletePet_204.json",
		"put_pets_petId_405.json",
	}
	set, read := generatedValid(t, k, dir, names, want)
	for name, parts := range map[string][]string{
		"createPet_201.json":      {`"Authorization": "Bearer ${bearerAuth:specgate-token}"`, `"Content-Type": "application/json"`, `"status": 201`},
		"createPet_415.json":      {`"Content-Type": "text/plain"`, `"body": "unsupported content"`, `"status": 415`},
		"createPet_422.json":      {`"status": 422`},
		"listPets_400.json":       {`"status": 400`},
		"put_pets_petId_405.json": {`"method": "PUT"`, `"Allow": "GET, DELETE"`, `"status": 405`},
		"getPet_200_xml.json":     {`"Accept": "application/xml"`, `"Content-Type": "application/xml"`},
		"deletePet_204.json":      {`"Authorization": "Basic ${basicAuth:c3BlY2dhdGU6c3BlY2dhdGU=}"`, `"status": 204`},
	} {
		got := read(name)
		for _, p := range parts {
			if !strings.Contains(got, p) {
				t.Errorf("%s lacks %s:\n%s", name, p, got)
			}
		}
	}
	// The 400 and 422 examples break their requests: the contract rejects them.
	for _, name := range []string{"listPets_400", "createPet_422"} {
		ex := set.Named(name)
		x := &exampleCheck{k: k, ex: ex}
		x.request(k.Route(ex))
		if len(x.out) == 0 {
			t.Errorf("%s: the request of a %d example is valid", name, ex.Response.Status)
		}
	}
	// The same seed writes the same files.
	again, _ := generateInto(t, k, 1)
	for _, name := range names {
		a, _ := os.ReadFile(filepath.Join(dir, name))
		b, _ := os.ReadFile(filepath.Join(again, name))
		if string(a) != string(b) {
			t.Errorf("%s differs between two runs of one seed", name)
		}
	}
}

// Existing files are never overwritten.
func TestWriteFilesSkips(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "a.json")
	if err := os.WriteFile(old, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	written, skipped, err := WriteFiles(dir, []GeneratedFile{{Name: "a.json", Data: []byte("new")}, {Name: "b.json", Data: []byte("new")}})
	if err != nil || !reflect.DeepEqual(written, []string{filepath.Join(dir, "b.json")}) || !reflect.DeepEqual(skipped, []string{old}) {
		t.Errorf("written %v, skipped %v, %v", written, skipped, err)
	}
	if data, _ := os.ReadFile(old); string(data) != "mine" {
		t.Errorf("a.json was overwritten: %s", data)
	}
}

// What a generated example holds where the spec leaves room: a default
// response beside successes is exemplified by a request broken in one
// place (and not at all when none can be broken), a media type's own
// example is its body, a scalar in XML is an element, a multipart body of
// any schema is parts, a template's query stays in the path, and a
// request that cannot be made is said once. Each file validates.
func TestGenerateWhereTheSpecLeavesRoom(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "generate", "api.yaml"))
	k := NewChecker(c, nil)
	files, err := k.GenerateSeeded(1)
	if err == nil || strings.Count(err.Error(), "cannot generate") != 1 || !strings.HasPrefix(err.Error(), "GET /broken/{code}: parameter code: ") {
		t.Errorf("the error: %v", err)
	}
	dir := t.TempDir()
	if _, _, err := WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	want := []string{
		"listReports_200.json", "listReports_default.json", "put_reports_405.json",
		"getReport_200_json.json", "getReport_200_json_2.json", "put_reports_id_405.json",
		"getStatus_4XX.json", "getStatus_default.json", "put_status_405.json",
		"upload_204.json", "upload_415.json", "put_uploads_405.json",
		"searchBeta_200.json", "searchBeta_415.json", "put_search_beta_true_405.json",
		"search_200.json", "search_415.json", "put_search_405.json",
	}
	_, read := generatedValid(t, k, dir, names, want)
	for name, parts := range map[string][]string{
		// year left out: the contract rejects it, and only default covers 400
		"listReports_default.json": {`"path": "/reports"`, `"status": 400`, `"code":`, `"message":`},
		"getReport_200_json.json":  {`"title": "Q1"`, `"pages": 12`},
		"getStatus_default.json":   {`"status": 200`, `"body": "<`, `>up</`},
		"upload_204.json":          {`"multipart-formdata": []`},
		"searchBeta_200.json":      {`"path": "/search?beta=true"`, `"beta":`},
		"put_status_405.json":      {`"Allow": "GET"`},
	} {
		got := read(name)
		for _, p := range parts {
			if !strings.Contains(got, p) {
				t.Errorf("%s lacks %s:\n%s", name, p, got)
			}
		}
	}
	if got := read("put_status_405.json"); strings.Contains(got, `"body"`) {
		t.Errorf("a 405 example beside a range and a default has a body:\n%s", got)
	}
}
