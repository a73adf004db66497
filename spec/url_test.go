package spec_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/spec"
)

func specServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/api/root.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /pets:\n    $ref: 'parts/pets.yaml'\n"))
	})
	mux.HandleFunc("/api/parts/pets.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("get:\n  responses:\n    \"200\":\n      description: ok\n"))
	})
	mux.HandleFunc("/big.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("openapi: 3.0.3\nx-pad: \"" + strings.Repeat("a", 3<<20) + "\"\n"))
	})
	mux.HandleFunc("/slow.yaml", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestLoadFromURLFollowsRelativeRefs(t *testing.T) {
	srv := specServer(t)
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), srv.URL+"/api/root.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Refs {
		if r.Err != nil {
			t.Errorf("ref %s: %v", r.Value, r.Err)
		}
	}
	ops := doc.Views().Operations
	if len(ops) != 1 || ops[0].Method != "get" || ops[0].Path != "/pets" {
		t.Fatalf("operations = %+v", ops)
	}
	loc := doc.Locate(ops[0].Source, nil)
	if loc.File.Name != srv.URL+"/api/parts/pets.yaml" || loc.Range.Start.Line != 1 {
		t.Errorf("operation located at %s:%d, want the referenced URL, line 1", loc.File.Name, loc.Range.Start.Line)
	}
}

func TestLoadFromURLErrors(t *testing.T) {
	srv := specServer(t)
	tests := []struct {
		name, path string
		opts       spec.Options
		want       string
	}{
		{"not found", "/nope.yaml", spec.Options{}, "fetch failed: HTTP 404"},
		{"too large", "/big.yaml", spec.Options{Limits: spec.Limits{MaxFileSize: 1 << 20}}, "larger than the 1 MiB limit"},
		{"too slow", "/slow.yaml", spec.Options{Limits: spec.Limits{FetchTimeout: 100 * time.Millisecond}}, "fetch failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := spec.NewLoader(tt.opts).Load(context.Background(), srv.URL+tt.path)
			var se *spec.Error
			if !errors.As(err, &se) || !strings.Contains(se.Msg, tt.want) || se.File != srv.URL+tt.path {
				t.Fatalf("err = %v, want a spec.Error for %s containing %q", err, srv.URL+tt.path, tt.want)
			}
		})
	}
}

func TestRemoteRefsNeedPermission(t *testing.T) {
	srv := specServer(t)
	dir := t.TempDir()
	local := filepath.Join(dir, "api.yaml")
	src := "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /pets:\n    $ref: '" + srv.URL + "/api/parts/pets.yaml'\n"
	if err := os.WriteFile(local, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), local)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Refs) != 1 || doc.Refs[0].Err == nil || !strings.Contains(doc.Refs[0].Err.Msg, "--allow-remote-refs") {
		t.Fatalf("remote ref without permission: %+v", doc.Refs)
	}
	if e := doc.Refs[0].Err; e.Pos.Line != 5 || e.Pos.Col != 11 {
		t.Errorf("error at %d:%d, want the $ref value at 5:11", e.Pos.Line, e.Pos.Col)
	}
	doc, err = spec.NewLoader(spec.Options{AllowRemoteRefs: true}).Load(context.Background(), local)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Refs[0].Err != nil || len(doc.Views().Operations) != 1 {
		t.Errorf("remote ref with permission: %v", doc.Refs[0].Err)
	}
}

func TestExpandInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.yaml", "openapi: 3.1.0\n")
	write("sub/deep/b.json", `{"swagger": "2.0"}`)
	write("sub/c.yml", "asyncapi: 3.0.0\n")
	write("sub/config.yaml", "name: not a spec\n")
	write(".hidden/d.yaml", "openapi: 3.1.0\n")
	write("node_modules/e.yaml", "openapi: 3.1.0\n")
	write("notes.txt", "openapi: 3.1.0\n")

	got, errs := spec.Expand([]string{dir, filepath.Join(dir, "**", "*.json"), "-", "https://example.com/x.yaml", filepath.Join(dir, "missing.yaml"), filepath.Join(dir, "*.none")})
	rel := make([]string, len(got))
	for i, g := range got {
		if r, err := filepath.Rel(dir, g); err == nil && !strings.HasPrefix(r, "..") {
			rel[i] = filepath.ToSlash(r)
		} else {
			rel[i] = g
		}
	}
	want := []string{"a.yaml", "sub/c.yml", "sub/deep/b.json", "-", "https://example.com/x.yaml"}
	if strings.Join(rel, " ") != strings.Join(want, " ") {
		t.Errorf("Expand = %v, want %v", rel, want)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "no such file or folder") || !strings.Contains(errs[1].Error(), "no specification matches") {
		t.Errorf("errors = %v", errs)
	}
}
