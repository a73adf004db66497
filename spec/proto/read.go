package proto

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

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

	// moduleRoot is the folder the entry file's imports are written from
	// (see entryPath), searched first; "" when none was found.
	moduleRoot string

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
	node, err := parse(entry.path, src.Data, reporter.NewHandler(nil))
	if err != nil {
		return nil, r.loadError(entry, err)
	}
	if path := r.entryPath(node); path != entry.path {
		entry.path, node = path, nil // parsed again under its import path
	}
	r.files[entry.path] = entry
	r.order = append(r.order, entry)
	if entry.res, err = r.parse(entry.path, src.Data, node); entry.res == nil {
		return nil, r.loadError(entry, err)
	}

	c := protocompile.Compiler{
		Resolver:       builtInFirst(protocompile.ResolverFunc(r.find)),
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
// module root, else its base name. The module root is the folder the
// file's own imports are written from, as protoc's --proto_path and buf's
// module roots are: first where the folders that spell the file's package
// start (google/api/ for package google.api, or google/actions/sdk/v2/
// within google/actions/sdk/v2/conversation/ for package
// google.actions.sdk.v2), then the file's folder and each of its parents
// (googleapis' google/maps/fleetengine/v1/trips.proto is of package
// maps.fleetengine.v1 and imports google/api/field_behavior.proto from the
// tree's root). The first where every import exists wins, else the one
// where most do. Source.SetModuleRoot keeps the safety rule: without
// --ref-root, a root outside the tree the document may read must lie
// inside the working directory.
func (r *reader) entryPath(node *ast.FileNode) string {
	base := filepath.Base(r.src.Name)
	pkg := ""
	var imports []string
	for _, d := range node.Decls {
		switch d := d.(type) {
		case *ast.PackageNode:
			pkg = string(d.Name.AsIdentifier())
		case *ast.ImportNode:
			if name := d.Name.AsString(); !isStandard(name) {
				imports = append(imports, name)
			}
		}
	}
	key := r.src.Key()
	if key == "-" || strings.Contains(key, "://") {
		return base
	}
	found := map[string]int{} // imports found below a candidate root
	fitsAll := func(root string) bool {
		n := 0
		for _, name := range imports {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err == nil {
				n++
			}
		}
		found[root] = n
		return n == len(imports)
	}
	candidates := moduleRoots(filepath.Dir(key), pkg)
	root := ""
	for _, c := range candidates {
		if r.src.SetModuleRoot(c, fitsAll) {
			root = c
			break
		}
	}
	if root == "" {
		best := 0
		for _, c := range candidates {
			if abs, err := filepath.Abs(c); err == nil && found[abs] > best {
				root, best = c, found[abs]
			}
		}
		if root == "" || !r.src.SetModuleRoot(root, func(string) bool { return true }) {
			return base
		}
	}
	r.moduleRoot, _ = filepath.Abs(root)
	rel, err := filepath.Rel(root, key)
	if err != nil {
		return base
	}
	return filepath.ToSlash(rel)
}

// moduleRoots are the folders a file in dir may be imported from, most
// likely first: where folders spelling its package start, then dir and
// each of its parents.
func moduleRoots(dir, pkg string) []string {
	var roots []string
	slash := filepath.ToSlash(dir)
	if pkg != "" {
		want := "/" + strings.ReplaceAll(pkg, ".", "/")
		if strings.HasSuffix(slash, want) {
			roots = append(roots, filepath.FromSlash(strings.TrimSuffix(slash, want)))
		} else if i := strings.LastIndex(slash+"/", want+"/"); i >= 0 {
			roots = append(roots, filepath.FromSlash(slash[:i]))
		}
	}
	for {
		if !slices.Contains(roots, dir) {
			roots = append(roots, dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return roots
		}
		dir = parent
	}
}

// parse parses a file under its import path (node, when not nil, is
// its syntax tree parsed under that path already), or takes the result of
// an earlier document's parse of the same bytes. The errors the parse
// reported are the document's problems, each time the file is read; a
// file that does not parse has no result.
func (r *reader) parse(path string, data []byte, node *ast.FileNode) (parser.Result, error) {
	key := parseKey{path: path, sum: sha256.Sum256(data)}
	if p := parses.get(key); p != nil {
		for _, e := range p.errs {
			r.collect(e)
		}
		return p.res, nil
	}
	p := &parsed{key: key, size: len(data)}
	h := reporter.NewHandler(reporter.NewReporter(func(e reporter.ErrorWithPos) error {
		p.errs = append(p.errs, e)
		return r.collect(e)
	}, nil))
	if node == nil {
		var err error
		if node, err = parse(path, data, h); err != nil {
			return nil, errors.New("it does not parse")
		}
	}
	res, err := parser.ResultFromAST(node, true, h)
	if res == nil {
		return nil, err
	}
	p.res = res
	parses.put(p)
	return res, nil
}

// parse parses one file with protocompile, turning a panic of its lexer
// into an error (v0.14.1 indexes position -1 for a bad escape at the end
// of a file that is not UTF-8), placed on the first byte that is not
// UTF-8 if there is one: a proto source file is UTF-8.
func parse(path string, data []byte, h *reporter.Handler) (node *ast.FileNode, err error) {
	defer func() {
		if v := recover(); v != nil {
			node, err = nil, parsePanic(data, v)
		}
	}()
	return parser.Parse(path, bytes.NewReader(data), h)
}

// parseFailure is the error of a parse that panicked, at a byte offset.
type parseFailure struct {
	offset int
	msg    string
}

func (e *parseFailure) Error() string { return e.msg }

func parsePanic(data []byte, v any) error {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return &parseFailure{offset: i, msg: fmt.Sprintf("the file is not UTF-8: byte 0x%02X here does not start a character", data[i])}
		}
		i += n
	}
	return &parseFailure{msg: fmt.Sprintf("the Protocol Buffers parser failed on this file: %v", v)}
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
	var pf *parseFailure
	if errors.As(err, &pf) {
		e.Pos = f.lines.Pos(pf.offset)
	}
	if errors.Is(err, reporter.ErrInvalidSource) && e.Msg == reporter.ErrInvalidSource.Error() {
		e.Msg = "the file is not valid Protocol Buffers source"
	}
	return e
}

// isStandard reports whether an import path names a file protoc ships
// with, which is built in.
func isStandard(path string) bool {
	_, err := standard.FindFileByPath(path)
	return err == nil
}

// standard resolves the files protoc ships with (the well-known types,
// descriptor.proto, the feature sets of editions) from their compiled-in
// descriptors, and nothing else.
var standard = protocompile.WithStandardImports(protocompile.ResolverFunc(func(string) (protocompile.SearchResult, error) {
	return protocompile.SearchResult{}, os.ErrNotExist
}))

// builtInFirst resolves the files protoc ships with as built in, as buf
// does, before r: a tree's own copy of google/protobuf/descriptor.proto
// (googleapis has one, in an edition protocompile does not read) is
// neither read nor parsed for every document, and options are
// interpreted against the descriptors the compiler knows.
func builtInFirst(r protocompile.Resolver) protocompile.Resolver {
	return protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
		if res, err := standard.FindFileByPath(path); err == nil {
			return res, nil
		}
		return r.FindFileByPath(path)
	})
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
	for _, root := range r.importRoots() {
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
		if f.res, err = r.parse(importPath, data, nil); f.res == nil {
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

// importRoots are the folders an import is looked up in: those the user
// named, the module root, then the entry file's folder and its parents.
func (r *reader) importRoots() []string {
	roots := r.src.ImportRoots()
	if r.moduleRoot == "" {
		return roots
	}
	n := len(r.src.ImportPaths())
	out := append(slices.Clone(roots[:n]), r.moduleRoot)
	for _, root := range roots[n:] {
		if root != r.moduleRoot {
			out = append(out, root)
		}
	}
	return out
}

func notFound(importPath string) error {
	return fmt.Errorf("import %q not found in the import roots (the entry file's folder and its parents inside the working directory or the ref root; pass --ref-root DIR for a wider tree)", importPath)
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
		b := &builder{f: f, s: s, elements: srctree.Elements{}}
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
