package spec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Formats whose text is not a YAML or JSON object with a version key. Their
// readers live beside this package (spec/proto, spec/graphql, spec/wsdl)
// and register with RegisterReader, so that this package keeps no
// dependency on their parsers; the loader hands them the files they claim.
const (
	Proto   Format = "proto"   // Protocol Buffers (proto2, proto3, editions): gRPC services
	GraphQL Format = "graphql" // GraphQL SDL or introspection JSON
	WSDL    Format = "wsdl"    // WSDL 1.1 and 2.0, with their XSD types
)

// A Reader reads one format that a package other than spec parses. The
// loader offers it every entry file (not the files a $ref names): by
// extension, then by content.
type Reader struct {
	Format Format
	// Name is how messages and reports name the format ("Protocol
	// Buffers").
	Name string
	// Extensions are the file extensions (lower case, with the dot) whose
	// files the reader takes whatever their content.
	Extensions []string
	// Sniff tells whether data of a file with another extension (standard
	// input, a URL, a .json or .xml file) is of the format. It sees at most
	// the first 64 KiB.
	Sniff func(data []byte) bool
	// Tags are the format tags of a document (see Document.FormatTags),
	// from the most general to the most precise.
	Tags func(d *Document) []string
	// Read builds the document of an entry file. Its error is an *Error
	// naming the file and, when there is one, the position.
	Read func(ctx context.Context, src *Source) (*Document, error)
}

var (
	readersMu sync.RWMutex
	readers   []*Reader
)

// RegisterReader makes the loader read a format. It is meant to be called
// from the init function of the format's package; registering a format
// twice panics.
func RegisterReader(r *Reader) {
	readersMu.Lock()
	defer readersMu.Unlock()
	for _, o := range readers {
		if o.Format == r.Format {
			panic("spec: reader for " + string(r.Format) + " registered twice")
		}
	}
	readers = append(readers, r)
}

func readerOf(f Format) *Reader {
	readersMu.RLock()
	defer readersMu.RUnlock()
	for _, r := range readers {
		if r.Format == f {
			return r
		}
	}
	return nil
}

// sniffLimit is how much of a file a reader's Sniff sees.
const sniffLimit = 64 << 10

// claim returns the reader that takes an entry file, or nil when the file
// is left to the YAML and JSON parsers.
func claim(name string, data []byte) *Reader {
	readersMu.RLock()
	defer readersMu.RUnlock()
	if r := byExtension(name); r != nil {
		return r
	}
	head := data[:min(len(data), sniffLimit)]
	for _, r := range readers {
		if r.Sniff != nil && r.Sniff(head) {
			return r
		}
	}
	return nil
}

// ReaderExtension reports whether files with the extension of name are
// read by a registered reader (a .proto, .graphql or .wsdl file), for
// callers that pick specifications among files by name.
func ReaderExtension(name string) bool {
	readersMu.RLock()
	defer readersMu.RUnlock()
	return byExtension(name) != nil
}

// byExtension returns the reader registered for the extension of name, or
// nil; the caller holds readersMu.
func byExtension(name string) *Reader {
	ext := strings.ToLower(filepath.Ext(name))
	for _, r := range readers {
		if slices.Contains(r.Extensions, ext) {
			return r
		}
	}
	return nil
}

// FormatName is how messages name a format ("OpenAPI", "Protocol
// Buffers").
func FormatName(f Format) string {
	switch f {
	case Swagger:
		return "Swagger"
	case OpenAPI:
		return "OpenAPI"
	case AsyncAPI:
		return "AsyncAPI"
	case Arazzo:
		return "Arazzo"
	}
	if r := readerOf(f); r != nil {
		return r.Name
	}
	return string(f)
}

// readerTags are the format tags of a document a reader built.
func readerTags(d *Document) []string {
	if r := readerOf(d.Format); r != nil && r.Tags != nil {
		return r.Tags(d)
	}
	return []string{string(d.Format)}
}

// Source is an entry file handed to a Reader, with the loader's rules for
// reading the files it names (imports, includes).
type Source struct {
	Name string // as shown to users
	Data []byte // the file's bytes, a leading UTF-8 byte order mark removed
	key  string
	l    *Loader
	root refRoot
}

// Key is the file's identity: an absolute path, a URL, or "-".
func (s *Source) Key() string { return s.key }

// Limits are the loader's limits.
func (s *Source) Limits() Limits { return s.l.opts.Limits }

// ImportPaths are the folders that hold imported files, searched in order
// before the entry file's folder and its parents (Options.ImportPaths).
func (s *Source) ImportPaths() []string { return s.l.opts.ImportPaths }

// ImportRoots are the folders an import path is looked up in, in order:
// Options.ImportPaths, then the entry file's folder and each of its parents
// inside the tree the document may read (the ref root). Protocol Buffers
// imports name files relative to such a root ("google/api/http.proto").
func (s *Source) ImportRoots() []string {
	roots := slices.Clone(s.l.opts.ImportPaths)
	if isURL(s.key) || s.key == "-" {
		if s.key == "-" {
			if wd, err := os.Getwd(); err == nil {
				roots = append(roots, wd)
			}
		}
		return roots
	}
	dir := filepath.Dir(s.key)
	for {
		roots = append(roots, dir)
		if s.root.any || s.root.lexical == "" || dir == s.root.lexical || !within(s.root.lexical, dir) {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return roots
}

// SetModuleRoot makes dir, an ancestor of the entry file's folder, the
// tree the document may read and the last of its import roots, when fits
// accepts it, and reports whether it did. A Protocol Buffers file whose
// folders spell its package (google/api/http.proto for package
// google.api) belongs to the module rooted where those folders start, and
// imports its siblings from there. The user's choice wins (Options.RefRoot,
// AllowExternalRefs, a wider tree already), and a module root must lie
// inside the working directory: a file's package cannot open the file
// system above the folder the user works in. A dir inside the tree the
// document may already read is accepted as it is, whatever the user chose.
func (s *Source) SetModuleRoot(dir string, fits func(dir string) bool) bool {
	if isURL(s.key) || s.key == "-" {
		return false
	}
	abs, err := filepath.Abs(dir)
	if err != nil || !within(abs, filepath.Dir(s.key)) {
		return false
	}
	if s.root.any || s.root.lexical != "" && within(s.root.lexical, abs) {
		return fits(abs) // already readable
	}
	if s.l.opts.RefRoot != "" {
		return false
	}
	wd, err := os.Getwd()
	if err != nil || !within(wd, abs) || !fits(abs) {
		return false
	}
	s.root = refRoot{lexical: abs, resolved: abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		s.root.resolved = real
	}
	return true
}

// ErrNotFound is the error of ReadRelated for a file that does not exist,
// so that a reader searching several roots goes on to the next.
var ErrNotFound = errors.New("no such file")

// ReadRelated reads a file the entry file names, under the rules of $refs:
// path is absolute or relative to the entry file's folder, and a local file
// must lie inside the document's ref root unless it is under one of the
// ImportPaths, which the user named. It returns the file's key and the
// name to show.
func (s *Source) ReadRelated(ctx context.Context, path string) (key, name string, data []byte, err error) {
	key, err = resolveLocation(s.key, path)
	if err != nil {
		return "", path, nil, &Error{File: path, Msg: fmt.Sprintf("invalid location %q: %v", path, err)}
	}
	name = s.DisplayName(key)
	if isURL(key) {
		if !isURL(s.key) && !s.l.opts.AllowRemoteRefs {
			return key, name, nil, &Error{File: name, Msg: "a remote file, not fetched without --allow-remote-refs"}
		}
	} else {
		trusted := false
		for _, p := range s.l.opts.ImportPaths {
			if abs, err := filepath.Abs(p); err == nil && within(abs, key) {
				trusted = true
			}
		}
		if !trusted {
			if msg := s.root.check(s.key, key); msg != "" {
				return key, name, nil, &Error{File: name, Msg: strings.Replace(msg, "$refs", "imports", 1)}
			}
		}
		st, err := os.Stat(key)
		if errors.Is(err, os.ErrNotExist) {
			return key, name, nil, &Error{File: name, Msg: "no such file", Err: ErrNotFound}
		}
		if err == nil && !st.Mode().IsRegular() {
			return key, name, nil, &Error{File: name, Msg: "not a regular file"}
		}
	}
	var raw []byte
	if isURL(key) {
		raw, err = s.l.fetch(ctx, key)
	} else {
		raw, err = s.l.readLocal(key)
	}
	if err != nil {
		return key, name, nil, &Error{File: name, Msg: err.Error(), Err: err}
	}
	return key, name, trimBOM(raw), nil
}

// DisplayName names another file (by its key) relative to the entry
// file's folder, as users name files.
func (s *Source) DisplayName(key string) string {
	return displayName(&File{Name: s.Name, key: s.key}, key)
}

// File makes a file of the document from its tree; key is what
// ReadRelated returned for it (the entry file's is Source.Key).
func (s *Source) File(name, key string, root *Node, size int) *File {
	return &File{Name: name, Root: root, Size: size, key: key}
}

// Document makes the document a reader built: its entry file's tree, the
// files it reads besides (imports), and the format's own model (kept in
// Document.Model for the packages that read the format).
func (s *Source) Document(format Format, version string, entry *Node, others []*File, model any) *Document {
	f := &File{Name: s.Name, Root: entry, Size: len(s.Data), key: s.key}
	d := &Document{Root: f, Format: format, Version: version, files: map[string]*File{s.key: f}, loader: s.l,
		refRoot: s.root, Model: model}
	d.Major, d.Minor, _ = parseVersion(version + ".0")
	for _, o := range others {
		if _, dup := d.files[o.key]; !dup {
			d.files[o.key] = o
		}
	}
	return d
}

// readerDocument hands an entry file to its reader.
func (l *Loader) readerDocument(ctx context.Context, r *Reader, display, key string, data []byte) (*Document, error) {
	src := &Source{Name: display, Data: data, key: key, l: l, root: l.refRoot(key)}
	d, err := r.Read(ctx, src)
	if err != nil {
		var se *Error
		if errors.As(err, &se) {
			return nil, se
		}
		return nil, &Error{File: display, Msg: err.Error(), Err: err}
	}
	return d, nil
}

func trimBOM(data []byte) []byte {
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		return data[3:]
	}
	return data
}
