package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: any input either loads or gives Errors, each with the file's
// name; it never panics. The upgrade of whatever loads as version 2 loads
// too. The seeds are the fixtures; `go test -fuzz FuzzParse ./config`
// explores from them.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.yaml")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	getenv := func(k string) string { return map[string]string{"API_KEY": "k"}[k] }
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "testdata/v3/fuzz.yaml"
		cfg, err := Parse(name, data, Options{Getenv: getenv})
		if err != nil {
			var errs Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error %T %v, want Errors", err, err)
			}
			for _, e := range errs {
				if e.File == "" || e.Msg == "" {
					t.Fatalf("problem without a file or message: %+v", e)
				}
			}
			return
		}
		if cfg.Version != 2 {
			return
		}
		out, _, err := Upgrade(name, data, Options{Getenv: getenv})
		if err != nil {
			t.Fatalf("loads, but its upgrade fails: %v", err)
		}
		if _, err := Parse(name, out, Options{Getenv: getenv}); err != nil {
			t.Fatalf("the upgrade does not load: %v\n%s", err, out)
		}
	})
}

// FuzzExpand: expansion never panics, and a string without a template is
// its own expansion.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"${A}", "${A:b}", "$${A}", "${", "x${A:${B}}y", "${A.b_1:c:d}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, missing, err := Expand(s, func(k string) string {
			if strings.HasPrefix(k, "S") {
				return "set"
			}
			return ""
		})
		if err == nil && !strings.Contains(s, "${") && (out != s || missing != nil) {
			t.Fatalf("Expand(%q) = %q, %v", s, out, missing)
		}
	})
}
