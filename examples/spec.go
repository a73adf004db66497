package examples

import (
	"context"
	"fmt"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// The entry points below are what `specgate examples validate`, `fix` and
// `generate`, the MCP server and the studio do with one specification:
// load it, read its examples (its <name>_examples folder and the folders
// given, and its inline examples) and check, repair or generate them.

// SpecOptions say how ValidateSpec, FixSpec and GenerateSpec read a
// specification and its examples.
type SpecOptions struct {
	// Loader loads the specification; nil loads with the spec package's
	// defaults.
	Loader *spec.Loader
	// Dirs are folders of external examples, searched recursively, read
	// after the specification's own <name>_examples folder (which a
	// specification read from a URL or standard input does not have).
	Dirs []string
	// NoInline leaves out the examples written in the specification
	// (ValidateSpec).
	NoInline bool
	// Seed makes the values of repairs and generated files repeatable.
	Seed uint64
	// Dir is where GenerateSpec's files go; "" is the specification's
	// <name>_examples folder.
	Dir string
	// Read configures the reading of example files.
	Read Options
}

// Loaded is a specification loaded for its examples: its document and the
// checker of its examples (through its contract).
type Loaded struct {
	// Path is the specification as given: a file, a URL or "-".
	Path    string
	Doc     *spec.Document
	Checker *Checker
}

// LoadSpec loads an OpenAPI specification for its examples. The error
// names the file (and the line and column) of a specification that cannot
// be read, or says that a document is not OpenAPI.
func LoadSpec(ctx context.Context, path string, opts SpecOptions) (*Loaded, error) {
	loader := opts.Loader
	if loader == nil {
		loader = spec.NewLoader(spec.Options{})
	}
	doc, err := loader.Load(ctx, path)
	if err != nil {
		return nil, err
	}
	if doc.Format != spec.OpenAPI && doc.Format != spec.Swagger {
		return nil, fmt.Errorf("%s: %s is not an OpenAPI description; examples are OpenAPI's", path, doc)
	}
	c, err := contract.New(doc, nil, contract.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Loaded{Path: path, Doc: doc, Checker: NewChecker(c, nil)}, nil
}

// External reads the specification's external examples: its
// <name>_examples folder when it is a local file, and dirs.
func (l *Loaded) External(dirs []string, opts Options) *Set {
	return Discover(l.Path, dirs, opts)
}

func isLocalSpec(path string) bool {
	return path != "-" && !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://")
}

// Validation is what ValidateSpec found.
type Validation struct {
	*Loaded
	// Inline and Files count the examples checked, written in the
	// specification and in files.
	Inline, Files int
	// Findings are every way an example breaks the specification, in the
	// order of their files and positions.
	Findings []Finding
	// Errors are the example files (and externalValue files) that could
	// not be read, and the specification's $refs that do not resolve, each
	// with its place.
	Errors Errors
	// BrokenRefs counts the $refs of Errors: an example under one is not
	// checked against what the $ref should have named, so a validation
	// with one is not clean.
	BrokenRefs int
}

// ValidateSpec loads a specification and checks its inline examples
// (unless opts.NoInline) and its external ones against it. The error is
// the specification's: one that cannot be loaded, or is not OpenAPI.
func ValidateSpec(ctx context.Context, path string, opts SpecOptions) (*Validation, error) {
	l, err := LoadSpec(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	v := &Validation{Loaded: l}
	v.Errors = brokenRefs(l.Doc)
	v.BrokenRefs = len(v.Errors)
	set := l.External(opts.Dirs, opts.Read)
	v.Errors = append(v.Errors, set.Errors...)
	list := set.Examples
	v.Files = len(set.Examples)
	if !opts.NoInline {
		in := Inline(l.Doc, opts.Read)
		v.Errors = append(v.Errors, in.Errors...)
		list = append(in.Examples, list...)
		v.Inline = len(in.Examples)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v.Findings = l.Checker.CheckAll(list)
	return v, nil
}

// Fixes is what FixSpec did: the repairs it would make, not yet written.
type Fixes struct {
	*Loaded
	// Results are those of the example files that had findings, in the
	// order the files were read; Changed tells the ones a repair changes.
	Results []*FixResult
	// Left are the findings no repair removes, in the order of their files
	// and positions.
	Left []Finding
	// Errors are the example files that could not be read, or that a
	// repair made unreadable.
	Errors Errors
}

// FixSpec loads a specification and repairs each of its external examples
// that breaks it (see Checker.Fix), each with values drawn from opts.Seed.
// Nothing is written: WriteFix writes a result, Before and After give a
// diff. The error is the specification's.
func FixSpec(ctx context.Context, path string, opts SpecOptions) (*Fixes, error) {
	l, err := LoadSpec(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	f := &Fixes{Loaded: l, Errors: brokenRefs(l.Doc)}
	set := l.External(opts.Dirs, opts.Read)
	f.Errors = append(f.Errors, set.Errors...)
	for _, ex := range set.Examples {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(l.Checker.Check(ex)) == 0 {
			continue
		}
		res, err := l.Checker.FixFile(ex.File, ex.Name, opts.Read, schema.NewGenerator(opts.Seed))
		if err != nil {
			f.Errors = append(f.Errors, asErrors(ex.File, err)...)
			continue
		}
		f.Results = append(f.Results, res)
		f.Left = append(f.Left, res.Left...)
	}
	SortFindings(f.Left)
	return f, nil
}

// brokenRefs lists the $refs of doc that do not resolve, each where it is
// written: the schema an example should be checked against is missing.
func brokenRefs(doc *spec.Document) Errors {
	var out Errors
	for _, r := range doc.Refs {
		if r.Err != nil {
			out = append(out, r.Err)
		}
	}
	return out
}

// asErrors lists the errors of err, each located (at least at file).
func asErrors(file string, err error) Errors {
	if es, ok := err.(Errors); ok {
		return es
	}
	if se, ok := err.(*spec.Error); ok {
		return Errors{se}
	}
	return Errors{{File: file, Msg: strings.TrimPrefix(err.Error(), file+": "), Err: err}}
}

// Generation is what GenerateSpec made: the files, and where they go.
type Generation struct {
	*Loaded
	// Dir is opts.Dir, else the specification's <name>_examples folder.
	Dir   string
	Files []GeneratedFile
	// Err lists what could not be generated (a schema no value
	// satisfies); the other files are made all the same.
	Err error
}

// GenerateSpec loads a specification and makes its examples (see
// Checker.Generate), each file's values drawn from opts.Seed mixed with
// what the file exemplifies. Nothing is written: WriteFiles writes them
// into Dir. The error is the specification's, or says that a
// specification without a folder of its own (a URL) needs opts.Dir.
func GenerateSpec(ctx context.Context, path string, opts SpecOptions) (*Generation, error) {
	dir := opts.Dir
	if dir == "" {
		if !isLocalSpec(path) {
			return nil, fmt.Errorf("%s: the spec is not a local file: give the folder of its examples", path)
		}
		dir = DefaultDir(path)
	}
	l, err := LoadSpec(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	files, err := l.Checker.GenerateSeeded(opts.Seed)
	return &Generation{Loaded: l, Dir: dir, Files: files, Err: err}, nil
}
