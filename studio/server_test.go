package studio

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/exchangetest"
	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/internal/gittest"
)

func TestGuard(t *testing.T) {
	c := start(t, workspace(t))
	outside := t.TempDir()
	filetest.File(t, outside, "secret.yaml", "secret: 1\n")
	if err := os.Symlink(outside, filepath.Join(c.dir, "link")); err != nil {
		t.Fatal(err)
	}
	host := hostOf(c.url)
	for _, tc := range []struct {
		name, method, path, token, origin, host string
		status                                  int
		kind                                    string
	}{
		{"the page needs no token", "GET", "/", "", "", "", 200, ""},
		{"the api with the token", "GET", "/api/tree", "test-token", "", "", 200, ""},
		{"without the token", "GET", "/api/tree", "", "", "", 403, "forbidden"},
		{"with another token", "GET", "/api/tree", "guess", "", "", 403, "forbidden"},
		{"a save without the token", "PUT", "/api/file", "", "", "", 403, "forbidden"},
		{"from another origin", "POST", "/api/check", "test-token", "http://evil.example", "", 403, "forbidden"},
		{"from another port of this host", "GET", "/api/tree", "test-token", "http://127.0.0.1:1", "", 403, "forbidden"},
		{"from the page's origin", "GET", "/api/tree", "test-token", "http://" + host, "", 200, ""},
		{"through another host name (DNS rebinding)", "GET", "/api/tree", "test-token", "", "evil.example:80", 403, "forbidden"},
		{"a path that climbs out", "GET", "/api/file?path=../x.yaml", "test-token", "", "", 403, "outside-folder"},
		{"an absolute path", "GET", "/api/file?path=/etc/passwd", "test-token", "", "", 403, "outside-folder"},
		{"a link that leads out", "GET", "/api/file?path=link/secret.yaml", "test-token", "", "", 403, "outside-folder"},
		{"a save through a link that leads out", "PUT", "/api/file", "test-token", "", "", 403, "outside-folder"},
		{"a missing file", "GET", "/api/file?path=nope.yaml", "test-token", "", "", 404, "not-found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.method != "GET" {
				data, _ := json.Marshal(SaveRequest{Path: "link/secret.yaml", Text: "x: 2\n"})
				if tc.method == "POST" {
					data, _ = json.Marshal(CheckRequest{Path: "api.yaml", Text: "openapi: 3.1.0\n"})
				}
				body = strings.NewReader(string(data))
			}
			req, _ := http.NewRequest(tc.method, c.url+tc.path, body)
			if tc.token != "" {
				req.Header.Set(TokenHeader, tc.token)
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			res, data := exchangetest.Send(t, req)
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tc.status, data)
			}
			if tc.kind != "" {
				var p struct{ Type string }
				if err := json.Unmarshal(data, &p); err != nil || !strings.HasSuffix(p.Type, "#"+tc.kind) {
					t.Errorf("problem %s, want kind %s", data, tc.kind)
				}
			}
		})
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "secret.yaml")); string(data) != "secret: 1\n" {
		t.Errorf("the file outside the folder was written: %q", data)
	}
}

func TestTree(t *testing.T) {
	c := start(t, workspace(t))
	filetest.File(t, c.dir, ".hidden/x.yaml", "a: 1\n")
	filetest.File(t, c.dir, "node_modules/p/x.json", "{}")
	var tree TreeResponse
	c.do(http.MethodGet, "/api/tree", nil, &tree)
	var got []string
	for _, f := range tree.Files {
		s := f.Path + " " + f.Kind
		if f.Spec != "" {
			s += " of " + f.Spec
		}
		got = append(got, s)
	}
	want := []string{
		"api.yaml spec",
		"api_examples/bad_pet.json example of api.yaml",
		"api_examples/create_pet.json example of api.yaml",
		"broken.yaml spec",
		"parts/pet.yaml file",
		"specgate-reports/ctrf-report.json report",
		"specgate.yaml config",
	}
	if !slices.Equal(got, want) {
		t.Errorf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSave(t *testing.T) {
	c := start(t, workspace(t))
	var f FileResponse
	c.do(http.MethodGet, "/api/file?path=api.yaml", nil, &f)
	if f.Text != c.read("api.yaml") || f.Version != Version([]byte(f.Text)) {
		t.Fatalf("read api.yaml: version %s", f.Version)
	}
	edited := strings.Replace(f.Text, "title: Pets", "title: Pet Store", 1)
	var saved SaveResponse
	if code := c.do(http.MethodPut, "/api/file", SaveRequest{Path: "api.yaml", Text: edited, Base: f.Version}, &saved); code != 200 {
		t.Fatalf("save: %d", code)
	}
	if c.read("api.yaml") != edited || saved.Version != Version([]byte(edited)) {
		t.Fatal("the save did not write the text")
	}
	if left, _ := filepath.Glob(filepath.Join(c.dir, ".api.yaml.studio-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}

	// Another program changes the file: a save from the old version is
	// refused, and the answer carries the file as it is on disk.
	disk := edited + "# changed by another program\n"
	filetest.File(t, c.dir, "api.yaml", disk)
	var conflict struct {
		Type   string
		Status int
		Disk   FileResponse
	}
	mine := strings.Replace(edited, "version: 1.0.0", "version: 1.1.0", 1)
	if code := c.do(http.MethodPut, "/api/file", SaveRequest{Path: "api.yaml", Text: mine, Base: saved.Version}, &conflict); code != http.StatusConflict {
		t.Fatalf("save over a changed file: %d", code)
	}
	if !strings.HasSuffix(conflict.Type, "#conflict") || conflict.Disk.Text != disk || conflict.Disk.Version != Version([]byte(disk)) {
		t.Errorf("conflict answer %+v", conflict)
	}
	if c.read("api.yaml") != disk {
		t.Fatal("the refused save wrote the file")
	}
	// The person chooses to overwrite.
	if code := c.do(http.MethodPut, "/api/file", SaveRequest{Path: "api.yaml", Text: mine, Base: saved.Version, Force: true}, &saved); code != 200 || c.read("api.yaml") != mine {
		t.Fatalf("forced save: %d", code)
	}
	// A new file is saved from no version; saving it again as new is a
	// conflict.
	if code := c.do(http.MethodPut, "/api/file", SaveRequest{Path: "new/pets.yaml", Text: "a: 1\n"}, &saved); code != 200 || c.read("new/pets.yaml") != "a: 1\n" {
		t.Fatalf("new file: %d", code)
	}
	if code := c.do(http.MethodPut, "/api/file", SaveRequest{Path: "new/pets.yaml", Text: "a: 2\n"}, &conflict); code != http.StatusConflict {
		t.Errorf("a second new file of that name: %d", code)
	}
	var v VersionResponse
	c.do(http.MethodGet, "/api/version?path=new/pets.yaml", nil, &v)
	if v.Version != Version([]byte("a: 1\n")) {
		t.Errorf("version %q", v.Version)
	}
	// A deleted file is a conflict too.
	os.Remove(filepath.Join(c.dir, "new/pets.yaml"))
	if code := c.do(http.MethodPut, "/api/file", SaveRequest{Path: "new/pets.yaml", Text: "a: 3\n", Base: v.Version}, &conflict); code != http.StatusConflict || conflict.Disk.Version != "" {
		t.Errorf("save over a deleted file: %d %+v", code, conflict)
	}
}

// diag finds a diagnostic of a stage by rule.
func diag(st Stage, rule string) *Diagnostic {
	for i, d := range st.Diagnostics {
		if d.Rule == rule {
			return &st.Diagnostics[i]
		}
	}
	return nil
}

func TestCheck(t *testing.T) {
	c := start(t, workspace(t))
	api := c.read("api.yaml")
	for _, tc := range []struct {
		name, path, text string
		stage, rule      string
		file             string
		line, col        int
		message          string
		kind             string
	}{
		{"a file that does not parse", "broken.yaml", c.read("broken.yaml"), "parse", "parse-error", "broken.yaml", 7, 0, "", "spec"},
		{"a structural error", "api.yaml", strings.Replace(api, "        \"404\":\n          description: No such pet\n", "        \"404\": none\n", 1),
			"validate", "invalid", "api.yaml", 59, 9, `"404" must be an object, found string`, "spec"},
		{"a lint finding", "api.yaml", api, "lint", "health-endpoint", "api.yaml", 10, 1, "GET /health", "spec"},
		{"an invalid inline example", "api.yaml", strings.Replace(api, "{id: 2, name: Tom}", "{id: two, name: Tom}", 1),
			"examples", "example-body-invalid", "api.yaml", 29, 48, `$[1].id: expected integer, found string "two"`, "spec"},
		{"a broken $ref lands in its file", "api.yaml", strings.Replace(api, "#/NewPet", "#/NewPets", 1), "validate", "invalid", "api.yaml", 37, 28, `has no "NewPets"`, "spec"},
		{"an invalid example file", "api_examples/bad_pet.json", c.read("api_examples/bad_pet.json"), "examples", "example-security-invalid", "api_examples/bad_pet.json", 5, 17, `write "Bearer <token>"`, "example"},
		{"an example file that does not parse", "api_examples/bad_pet.json", `{"http-request": {"method": "GET", "pathh": "/pets"}, "http-response": {"status": 200}}`, "parse", "parse-error", "api_examples/bad_pet.json", 1, 36, `did you mean "path"`, "example"},
		{"a version 2 configuration", "specgate.yaml", c.read("specgate.yaml"), "config", "config-version-2", "specgate.yaml", 1, 1, "Upgrade", "config"},
		{"a configuration error", "specgate.yaml", "version: 3\nspecgate:\n  settingz: {}\n", "config", "config-error", "specgate.yaml", 3, 3, "settingz", "config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := c.check(tc.path, tc.text)
			if st["done"].Kind != tc.kind {
				t.Errorf("kind %q, want %q", st["done"].Kind, tc.kind)
			}
			d := diag(st[tc.stage], tc.rule)
			if d == nil {
				t.Fatalf("no %s diagnostic in stage %s: %+v", tc.rule, tc.stage, st[tc.stage])
			}
			if d.File != tc.file || d.Line != tc.line || tc.col != 0 && d.Column != tc.col || !strings.Contains(d.Message, tc.message) {
				t.Errorf("diagnostic %+v, want %s:%d:%d with %q", *d, tc.file, tc.line, tc.col, tc.message)
			}
			if tc.stage != "parse" && tc.stage != "config" && d.URL == "" {
				t.Errorf("diagnostic %+v links to no documentation", *d)
			}
		})
	}
	// The text checked is the editor's, not the file's: the fix of the
	// structural error clears it without a save.
	st := c.check("api.yaml", api)
	if ds := st["validate"].Diagnostics; len(ds) != 0 {
		t.Errorf("validate on the original text: %v", ds)
	}
	if st["parse"].Note != "OpenAPI 3.1.0" {
		t.Errorf("parse note %q", st["parse"].Note)
	}
}

func TestCheckCompat(t *testing.T) {
	dir := workspace(t)
	gittest.Init(t, dir)
	gittest.Commit(t, dir, "base")
	c := start(t, dir)
	api := c.read("api.yaml")
	st := c.check("api.yaml", api)
	if n := st["compat"].Note; !strings.HasPrefix(n, "compared with main at ") || len(st["compat"].Diagnostics) != 0 {
		t.Fatalf("compat of the unchanged spec: %+v", st["compat"])
	}
	// A required property added to a request body breaks consumers; the
	// marker is where the revision writes it. A removed operation is shown
	// at its path, which the revision still has.
	edited := strings.Replace(api, "      operationId: createPet\n", "      operationId: createPet\n      parameters:\n        - {name: trace, in: header, required: true, schema: {type: string}}\n", 1)
	edited = strings.Replace(edited, "        \"404\":\n          description: No such pet\n", "", 1)
	st = c.check("api.yaml", edited)
	var got []string
	for _, d := range st["compat"].Diagnostics {
		got = append(got, d.Severity+" "+d.Rule+" "+d.File+":"+strconv.Itoa(d.Line))
	}
	want := []string{"error request-parameter-added-required api.yaml:33", "error response-status-removed api.yaml:55"}
	if !slices.Equal(got, want) {
		t.Errorf("compat diagnostics %v, want %v", got, want)
	}
	var removed *Diagnostic
	for i, d := range st["compat"].Diagnostics {
		if strings.Contains(d.Message, "[on main: line ") {
			removed = &st["compat"].Diagnostics[i]
		}
	}
	if removed == nil || removed.File != "api.yaml" || !strings.Contains(removed.Message, "[on main: line 59]") {
		t.Errorf("the removed response is not placed on the revision: %+v", removed)
	}
	// A spec the base branch does not have is new: nothing to compare.
	st = c.check("new.yaml", api)
	if n := st["compat"].Note; n != "new on main: nothing to compare" {
		t.Errorf("compat of a new spec: %q", n)
	}
}

func TestSupersede(t *testing.T) {
	c := start(t, workspace(t))
	ctx1, cancel1 := context.WithCancel(context.Background())
	done1 := c.s.checker.supersede("tab\x00api.yaml", cancel1)
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := c.s.checker.supersede("tab\x00api.yaml", cancel2)
	select {
	case <-ctx1.Done():
	case <-time.After(time.Second):
		t.Fatal("the first check was not cancelled by the second")
	}
	done1() // the first one ending does not unregister the second
	ctx3, cancel3 := context.WithCancel(context.Background())
	done3 := c.s.checker.supersede("other\x00api.yaml", cancel3)
	if ctx2.Err() != nil || ctx3.Err() != nil {
		t.Error("a check of another tab was cancelled")
	}
	c.s.checker.supersede("tab\x00api.yaml", func() {})
	if ctx2.Err() == nil {
		t.Error("the second check was not cancelled by a third")
	}
	done2()
	done3()
}

// TestCheckStreams requires each stage to be flushed as it is written,
// through the access log's wrapper: a check whose stages came at the end
// held a large spec's first markers back by the lint's whole time.
func TestCheckStreams(t *testing.T) {
	s, err := New(Options{Dir: workspace(t), Token: "test-token"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := httptest.NewRequest(http.MethodPost, "/api/check?path=api.yaml&client=t", strings.NewReader("openapi: 3.1.0\n"))
	req.Header.Set(TokenHeader, "test-token")
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !rec.Flushed {
		t.Fatalf("status %d, flushed %v", rec.Code, rec.Flushed)
	}
	if got := rec.Header().Get("Content-Type"); got != "application/x-ndjson" {
		t.Errorf("Content-Type %q", got)
	}
	lines := strings.Split(strings.TrimSpace(rec.Body.String()), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], `{"stage":"parse"`) || !strings.HasPrefix(lines[len(lines)-1], `{"stage":"done"`) {
		t.Errorf("stages:\n%s", rec.Body.String())
	}
}

// TestLintKept answers a check of a text linted before from what the lint
// found then, and lints again when the text changes.
func TestLintKept(t *testing.T) {
	c := start(t, workspace(t))
	api := c.read("api.yaml")
	first := c.check("api.yaml", api)
	again := c.check("api.yaml", api)
	if !strings.HasSuffix(again["lint"].Note, ", unchanged") || len(again["lint"].Diagnostics) != len(first["lint"].Diagnostics) || len(first["lint"].Diagnostics) == 0 {
		t.Errorf("the second lint of the same text: %q, %d findings (first %q, %d)", again["lint"].Note, len(again["lint"].Diagnostics), first["lint"].Note, len(first["lint"].Diagnostics))
	}
	edited := c.check("api.yaml", strings.Replace(api, "  /pets:\n", "  /health:\n    get:\n      responses: {\"200\": {description: ok}}\n  /pets:\n", 1))
	if d := diag(edited["lint"], "health-endpoint"); strings.HasSuffix(edited["lint"].Note, "unchanged") || d == nil || strings.Contains(d.Message, "no GET /health and") {
		t.Errorf("an edited text was not linted again: %q, %+v", edited["lint"].Note, d)
	}
}
