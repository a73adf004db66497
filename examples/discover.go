package examples

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/specgate/specgate/spec"
)

// Set is the examples of one specification, read from its folders, with
// every problem found on the way. One bad file does not stop the others.
type Set struct {
	Examples []*Example
	Errors   Errors
}

// Named returns the example named name, or nil.
func (s *Set) Named(name string) *Example {
	for _, ex := range s.Examples {
		if ex.Name == name {
			return ex
		}
	}
	return nil
}

// DefaultDir returns the folder where a specification's examples are
// looked for by default: <name>_examples beside it (petstore_examples for
// petstore.yaml).
func DefaultDir(specFile string) string {
	base := filepath.Base(specFile)
	return filepath.Join(filepath.Dir(specFile), strings.TrimSuffix(base, filepath.Ext(base))+"_examples")
}

// Discover reads the examples of a specification: its default folder (when
// the specification is a local file and the folder exists; a URL or
// standard input has none) and every configured folder, each searched
// recursively. A configured folder that does not exist is an error.
func Discover(specFile string, configured []string, opts Options) *Set {
	var dirs []string
	var errs Errors
	if st, err := os.Stat(DefaultDir(specFile)); err == nil && st.IsDir() && isLocalSpec(specFile) {
		dirs = append(dirs, DefaultDir(specFile))
	}
	for _, d := range configured {
		st, err := os.Stat(d)
		switch {
		case err != nil:
			errs = append(errs, &spec.Error{File: d, Msg: "no such examples folder", Err: err})
		case !st.IsDir():
			errs = append(errs, &spec.Error{File: d, Msg: "is a file, not an examples folder"})
		default:
			dirs = append(dirs, d)
		}
	}
	set := Load(dirs, opts)
	set.Errors = append(errs, set.Errors...)
	return set
}

// Load reads every example file (.json, .yaml, .yml) under dirs, each
// folder recursively in lexical order, skipping hidden files and folders.
// The same folder given twice is read once. A file that is not an example
// is an error, as is a name that two files share: the first file keeps
// it, and the clash is reported with both places.
func Load(dirs []string, opts Options) *Set {
	set := &Set{}
	seenDir := map[string]bool{}
	byName := map[string]*Example{}
	for _, dir := range dirs {
		abs, err := filepath.Abs(dir)
		if err == nil && seenDir[abs] {
			continue
		}
		seenDir[abs] = true
		for _, path := range exampleFiles(dir, &set.Errors) {
			rel, _ := filepath.Rel(dir, path)
			defaultName := filepath.ToSlash(strings.TrimSuffix(rel, filepath.Ext(rel)))
			data, rerr := readLimited(path, opts.limits().MaxFileSize)
			if rerr != nil {
				set.Errors = append(set.Errors, rerr)
				continue
			}
			ex, err := parse(path, data, defaultName, opts)
			if err != nil {
				var es Errors
				if errors.As(err, &es) {
					set.Errors = append(set.Errors, es...)
				}
				continue
			}
			ex.Root = dir
			if first := byName[ex.Name]; first != nil {
				set.Errors = append(set.Errors, clash(first, ex))
				continue
			}
			byName[ex.Name] = ex
			set.Examples = append(set.Examples, ex)
		}
	}
	return set
}

// exampleFiles lists the .json, .yaml and .yml files under dir in lexical
// order, without hidden files and folders.
func exampleFiles(dir string, errs *Errors) []string {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			*errs = append(*errs, &spec.Error{File: path, Msg: err.Error(), Err: err})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if path != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".json", ".yaml", ".yml":
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		*errs = append(*errs, &spec.Error{File: dir, Msg: err.Error(), Err: err})
	}
	sort.Strings(out)
	return out
}

// clash reports a name two examples share, at the second, naming the first.
func clash(first, second *Example) *spec.Error {
	where := func(ex *Example) Loc {
		if ex.NameLoc.Range.Start.Line > 0 {
			return ex.NameLoc
		}
		return Loc{File: ex.File, Range: ex.Loc.Range}
	}
	how := "a second time"
	if first.Root != second.Root {
		how = fmt.Sprintf("in %s and in %s", first.Root, second.Root)
	}
	at := where(second)
	return &spec.Error{File: second.File, Pos: at.Range.Start,
		Msg: fmt.Sprintf("example %q is defined %s: here and at %s; give one of them another name (the name key)", second.Name, how, where(first))}
}
