package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A folder of specs gives a CPU profile (gzip-compressed protobuf, as
// pprof writes and go build reads).
func TestRunWritesAProfile(t *testing.T) {
	t.Setenv("SPECGATE_CACHE_DIR", "off")
	dir := t.TempDir()
	spec, err := os.ReadFile("../../examples/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "petstore.yaml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "default.pgo")
	if err := run(dir, out, 1); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(got, []byte{0x1f, 0x8b}) {
		t.Errorf("%s is not a gzip-compressed profile: % x…", out, got[:min(len(got), 8)])
	}
}

// A spec that does not lint stops the run with its name, and a folder
// without specs is an error.
func TestRunFails(t *testing.T) {
	t.Setenv("SPECGATE_CACHE_DIR", "off")
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "broken.yaml"), []byte("openapi: 3.1.0\ninfo: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "default.pgo")
	if err := run(bad, out, 1); err == nil || !strings.Contains(err.Error(), "broken.yaml") {
		t.Errorf("broken spec: error %v, want one naming broken.yaml", err)
	}
	if err := run(t.TempDir(), out, 1); err == nil || !strings.Contains(err.Error(), "no spec") {
		t.Errorf("empty folder: error %v, want no spec", err)
	}
}
