// Package corpusspecs lists the specifications of a corpus folder such as
// ../shared/corpus by what a specification is, so that a stray file in it
// (a README, a report that a lint run wrote there) is not taken for one.
// Only tests import it; it imports no specgate package, so that spec's own
// tests may use it.
package corpusspecs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Spec is one specification of a corpus folder.
type Spec struct {
	Name string // the folder's entry: the file, or the folder of a spec laid out in one
	Path string // the document to load
	// Folder is set for a spec laid out in a folder (name/spec/swagger.yaml
	// with $refs to its siblings, such as ../common): load it with the
	// folder as its ref root.
	Folder bool
}

// folderDocs are the names, in spec/, of the document of a spec laid out
// in a folder.
var folderDocs = []string{"openapi.yaml", "openapi.yml", "openapi.json", "swagger.yaml", "swagger.yml", "swagger.json"}

// List lists the specifications of dir in lexical order: each file that
// IsSpecFile accepts, and each folder with a document in its spec/ folder.
func List(dir string) ([]Spec, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Spec
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !e.IsDir() {
			if IsSpecFile(e.Name()) {
				out = append(out, Spec{Name: e.Name(), Path: path})
			}
			continue
		}
		for _, doc := range folderDocs {
			if info, err := os.Stat(filepath.Join(path, "spec", doc)); err == nil && !info.IsDir() {
				out = append(out, Spec{Name: e.Name(), Path: filepath.Join(path, "spec", doc), Folder: true})
				break
			}
		}
	}
	return out, nil
}

// Files are the paths of dir's specifications that are single files (List
// less the folders), with one of exts as extension when exts are given;
// none when dir cannot be read.
func Files(dir string, exts ...string) []string {
	specs, _ := List(dir)
	var out []string
	for _, s := range specs {
		if !s.Folder && (len(exts) == 0 || slices.Contains(exts, filepath.Ext(s.Path))) {
			out = append(out, s.Path)
		}
	}
	return out
}

// IsSpecFile reports whether a file of this name may be a specification:
// JSON or YAML, and not a report specgate writes (specgate-report.json,
// ctrf-report.json, test-report.json).
func IsSpecFile(name string) bool {
	switch filepath.Ext(name) {
	case ".json", ".yaml", ".yml":
		return !strings.HasSuffix(name, "-report.json")
	}
	return false
}
