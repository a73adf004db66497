package proto

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/ast"
	"github.com/bufbuild/protocompile/linker"
	"github.com/bufbuild/protocompile/parser"
	"github.com/bufbuild/protocompile/reporter"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/internal/srctree"
)

// maxImports bounds the files one document may read through imports
// (googleapis' largest APIs import a few dozen).
const maxImports = 2000

// source is one file of a document: the entry file or an import.
type source struct {
	path  string // import path (the name protocompile knows it by)
	key   string
	name  string // display name
	data  []byte
	lines *srctree.Lines
	res   parser.Result // nil when the file did not parse
}

// reader reads one document: the entry file, then its imports on demand
// (protocompile asks for them while linking).
type reader struct {
	ctx   context.Context
	src   *spec.Source
	entry *source

	mu       sync.Mutex
	files    map[string]*source // by import path; nil value: not found
	order    []*source          // files read from source, in the order read
	problems []Problem
}

func read(ctx context.Context, src *spec.Source) (*spec.Document, error) {
	r := &reader{ctx: ctx, src: src, files: map[string]*source{}}
	entry := &source{key: src.Key(), name: src.Name, data: src.Data, lines: srctree.NewLines(src.Data)}
	r.entry = entry
	// Syntax errors of the entry file fail the load: there is no document
	// to speak of. protocompile reports the first one it cannot recover
	// from with its position.
	entry.path = filepath.Base(src.Name)
	node, err := parser.Parse(entry.path, bytes.NewReader(src.Data), reporter.NewHandler(nil))
	if err != nil {
		return nil, r.loadError(entry, err)
	}
	entry.path = r.entryPath(node)
	node, err = parser.Parse(entry.path, bytes.NewReader(src.Data), reporter.NewHandler(nil))
	if err != nil {
		return nil, r.loadError(entry, err)
	}
	r.files[entry.path] = entry
	r.order = append(r.order, entry)
	entry.res, err = parser.ResultFromAST(node, true, r.handler())
	if err != nil && entry.res == nil {
		return nil, r.loadError(entry, err)
	}

	c := protocompile.Compiler{
		Resolver:       protocompile.WithStandardImports(protocompile.ResolverFunc(r.find)),
		Reporter:       reporter.NewReporter(r.collect, nil),
		MaxParallelism: 1,
		RetainASTs:     true,
	}
	// The linker resolves type names in the parse results' descriptors in
	// place; what does not link stays as written, and the errors are the
	// document's problems.
	files, err := c.Compile(ctx, entry.path)
	// The linked results carry the resolved type names (protocompile links
	// a copy of each parse result); a file that did not link keeps its
	// names as written.
	r.useLinked(files)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &spec.Error{File: src.Name, Msg: ctx.Err().Error(), Err: ctx.Err()}
		}
		// An error the reporter did not see (an import that cannot be
		// read is returned, not reported) is a problem too.
		var ep reporter.ErrorWithPos
		if errors.As(err, &ep) {
			r.collect(ep)
		} else if !errors.Is(err, reporter.ErrInvalidSource) {
			r.mu.Lock()
			r.problems = append(r.problems, Problem{File: entry.name, Message: message(err)})
			r.mu.Unlock()
		}
	}
	return r.document()
}

// useLinked replaces the parse results of the files that linked with
// their linked results.
func (r *reader) useLinked(files linker.Files) {
	seen := map[string]bool{}
	var walk func(fd protoreflect.FileDescriptor)
	walk = func(fd protoreflect.FileDescriptor) {
		if fd == nil || seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		if lr, ok := fd.(linker.Result); ok && lr.AST() != nil {
			r.mu.Lock()
			if f := r.files[fd.Path()]; f != nil {
				f.res = lr
			}
			r.mu.Unlock()
		}
		imps := fd.Imports()
		for i := range imps.Len() {
			walk(imps.Get(i).FileDescriptor)
		}
	}
	for _, f := range files {
		if f != nil {
			walk(f)
		}
	}
}

// entryPath is the import path of the entry file: its path below the
// module root, as buf lays a module out, else its base name. The module
// root is where the folders that spell the file's package start (folders
// google/api/ for package google.api; or google/actions/sdk/v2/ within
// google/actions/sdk/v2/conversation/ for package google.actions.sdk.v2),
// provided the file's own imports are written from there.
func (r *reader) entryPath(node *ast.FileNode) string {
	base := filepath.Base(r.src.Name)
	pkg := ""
	var imports []string
	for _, d := range node.Decls {
		switch d := d.(type) {
		case *ast.PackageNode:
			pkg = string(d.Name.AsIdentifier())
		case *ast.ImportNode:
			if name := d.Name.AsString(); !strings.HasPrefix(name, "google/protobuf/") {
				imports = append(imports, name)
			}
		}
	}
	key := r.src.Key()
	if pkg == "" || key == "-" || strings.Contains(key, "://") {
		return base
	}
	dir := filepath.ToSlash(filepath.Dir(key))
	want := "/" + strings.ReplaceAll(pkg, ".", "/")
	var roots []string
	if strings.HasSuffix(dir, want) {
		roots = append(roots, strings.TrimSuffix(dir, want))
	}
	if i := strings.LastIndex(dir+"/", want+"/"); i >= 0 && !strings.HasSuffix(dir, want) {
		roots = append(roots, dir[:i])
	}
	for _, root := range roots {
		if root == "" || !r.src.SetModuleRoot(filepath.FromSlash(root), func(root string) bool {
			for _, name := range imports {
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err != nil {
					return false
				}
			}
			return true
		}) {
			continue
		}
		rel, err := filepath.Rel(filepath.FromSlash(root), key)
		if err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return base
}

// handler collects errors into the problems and goes on.
func (r *reader) handler() *reporter.Handler {
	return reporter.NewHandler(reporter.NewReporter(r.collect, nil))
}

// collect records one error of protocompile as a problem at its position.
func (r *reader) collect(err reporter.ErrorWithPos) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	pos := err.GetPosition()
	p := Problem{Message: message(err)}
	if f := r.files[pos.Filename]; f != nil {
		p.File = f.name
		if pos.Line > 0 {
			at := f.lines.Pos(pos.Offset)
			p.Range = spec.Range{Start: at, End: at}
		}
	} else {
		p.File = r.entry.name
		if pos.Filename != "" && pos.Filename != r.entry.path {
			p.Message = pos.Filename + ": " + p.Message
		}
	}
	r.problems = append(r.problems, p)
	return nil
}

// message is protocompile's message without the position it prefixes.
func message(err error) string {
	var ep reporter.ErrorWithPos
	if errors.As(err, &ep) {
		if u := ep.Unwrap(); u != nil {
			return u.Error()
		}
	}
	return err.Error()
}

func (r *reader) loadError(f *source, err error) *spec.Error {
	e := &spec.Error{File: f.name, Msg: strings.ReplaceAll(message(err), "$end", "end of file"), Err: err}
	var ep reporter.ErrorWithPos
	if errors.As(err, &ep) {
		if pos := ep.GetPosition(); pos.Line > 0 {
			e.Pos = f.lines.Pos(pos.Offset)
		}
	}
	if errors.Is(err, reporter.ErrInvalidSource) && e.Msg == reporter.ErrInvalidSource.Error() {
		e.Msg = "the file is not valid Protocol Buffers source"
	}
	return e
}

// find is protocompile's resolver: an import path, looked up in the import
// roots of the entry file under the loader's rules.
func (r *reader) find(importPath string) (protocompile.SearchResult, error) {
	r.mu.Lock()
	f, seen := r.files[importPath]
	count := len(r.order)
	r.mu.Unlock()
	if seen {
		if f == nil {
			return protocompile.SearchResult{}, notFound(importPath)
		}
		return protocompile.SearchResult{ParseResult: f.res}, nil
	}
	if count >= maxImports {
		return protocompile.SearchResult{}, fmt.Errorf("more than %d imported files; refusing to read %s", maxImports, importPath)
	}
	if clean := path.Clean(importPath); clean != importPath || path.IsAbs(importPath) || strings.HasPrefix(clean, "../") {
		return protocompile.SearchResult{}, fmt.Errorf("import path %q must be relative to an import root, without . or .. segments", importPath)
	}
	var refused error
	for _, root := range r.src.ImportRoots() {
		key, name, data, err := r.src.ReadRelated(r.ctx, filepath.Join(root, filepath.FromSlash(importPath)))
		if errors.Is(err, spec.ErrNotFound) {
			continue
		}
		if err != nil {
			if refused == nil {
				refused = err
			}
			continue
		}
		f := &source{path: importPath, key: key, name: name, data: data, lines: srctree.NewLines(data)}
		r.mu.Lock()
		if old := r.files[importPath]; old != nil {
			r.mu.Unlock()
			return protocompile.SearchResult{ParseResult: old.res}, nil
		}
		r.files[importPath] = f
		r.order = append(r.order, f)
		r.mu.Unlock()
		node, err := parser.Parse(importPath, bytes.NewReader(data), r.handler())
		if err != nil {
			return protocompile.SearchResult{}, errors.New("it does not parse")
		}
		f.res, err = parser.ResultFromAST(node, true, r.handler())
		if f.res == nil {
			return protocompile.SearchResult{}, err
		}
		return protocompile.SearchResult{ParseResult: f.res}, nil
	}
	r.mu.Lock()
	r.files[importPath] = nil
	r.mu.Unlock()
	if refused != nil {
		var se *spec.Error
		if errors.As(refused, &se) {
			return protocompile.SearchResult{}, errors.New(se.Msg)
		}
		return protocompile.SearchResult{}, refused
	}
	return protocompile.SearchResult{}, notFound(importPath)
}

func notFound(importPath string) error {
	return fmt.Errorf("import %q not found in the import roots (the entry file's folder and its parents up to the ref root; pass --ref-root DIR for a wider tree)", importPath)
}

// document builds the model and the node trees of the files that parsed.
func (r *reader) document() (*spec.Document, error) {
	s := &Schema{messages: map[string]*Message{}, enums: map[string]*Enum{}}
	var entryTree *spec.Node
	var others []*spec.File
	for _, f := range r.order {
		if f.res == nil {
			continue
		}
		b := &builder{f: f, s: s}
		file, tree := b.build()
		s.Files = append(s.Files, file)
		if f == r.entry {
			s.Entry, entryTree = file, tree
		} else {
			others = append(others, r.src.File(f.name, f.key, tree, len(f.data)))
		}
	}
	s.resolve()
	s.Problems = r.problems
	slices.SortFunc(s.Problems, func(a, b Problem) int {
		if a.File != b.File {
			return strings.Compare(a.File, b.File)
		}
		if a.Range.Start.Line != b.Range.Start.Line {
			return int(a.Range.Start.Line - b.Range.Start.Line)
		}
		if a.Range.Start.Col != b.Range.Start.Col {
			return int(a.Range.Start.Col - b.Range.Start.Col)
		}
		return strings.Compare(a.Message, b.Message)
	})
	s.Problems = slices.Compact(s.Problems)
	version := s.Entry.Syntax
	if s.Entry.Syntax == "editions" {
		version = "edition " + s.Entry.Edition
	}
	return r.src.Document(spec.Proto, version, entryTree, others, s), nil
}
