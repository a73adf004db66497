package spec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Limits bound what loading one specification may cost. Every limit is
// reported as an error naming the file, never enforced silently.
type Limits struct {
	MaxFileSize    int64         // bytes per file
	MaxDepth       int           // nesting of objects and arrays
	MaxNodes       int           // values per file
	MaxAliasFactor int           // YAML alias expansion, as a multiple of the values written
	FetchTimeout   time.Duration // per http(s) fetch
}

// DefaultLimits are generous for real specifications (the largest public
// ones are tens of megabytes) and keep a hostile file within about 1 GiB.
func DefaultLimits() Limits {
	return Limits{
		MaxFileSize:    64 << 20,
		MaxDepth:       1000,
		MaxNodes:       16_000_000,
		MaxAliasFactor: 10,
		FetchTimeout:   30 * time.Second,
	}
}

// Or returns l with each limit that is zero or less taken from def.
func (l Limits) Or(def Limits) Limits {
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = def.MaxFileSize
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = def.MaxDepth
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = def.MaxNodes
	}
	if l.MaxAliasFactor <= 0 {
		l.MaxAliasFactor = def.MaxAliasFactor
	}
	if l.FetchTimeout <= 0 {
		l.FetchTimeout = def.FetchTimeout
	}
	return l
}

// Options configure a Loader.
type Options struct {
	Limits Limits
	// AllowRemoteRefs lets $refs in local files point to http(s) URLs.
	AllowRemoteRefs bool
	// RefRoot is the folder whose tree $refs may read local files from.
	// Empty means the folder of each entry file (the working directory for
	// standard input), so that a hostile specification cannot read
	// /etc/passwd or ~/.ssh through a $ref.
	RefRoot string
	// InputDirs are the folders named as inputs (on the command line):
	// without RefRoot, a document whose entry file lies in one of them may
	// read that folder's whole tree, so that the specs of a folder can
	// share files between its subfolders.
	InputDirs []string
	// AllowExternalRefs lets $refs read any local file, not only those
	// under the ref root.
	AllowExternalRefs bool
	// ImportPaths are folders searched for the files a Protocol Buffers
	// document imports, before the entry file's folder and its parents
	// (Source.ImportRoots); files under them may be read wherever they are.
	ImportPaths []string
	HTTPClient  *http.Client
	Stdin       io.Reader
}

// Loader loads specifications. It is safe to use a Loader from several
// goroutines; each Load is independent.
type Loader struct {
	opts Options
}

// NewLoader returns a Loader; zero limits take their defaults.
func NewLoader(opts Options) *Loader {
	opts.Limits = opts.Limits.Or(DefaultLimits())
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: opts.Limits.FetchTimeout}
	}
	if opts.Stdin == nil {
		opts.Stdin = os.Stdin
	}
	return &Loader{opts: opts}
}

// Error is a problem with an input, located as precisely as is known: a file
// always, a position and a JSON pointer when there is one.
type Error struct {
	File    string
	Pos     Pos // zero when the problem has no position (an unreadable file)
	Pointer string
	Msg     string
	Err     error // the underlying error, when there is one
}

func (e *Error) Error() string {
	if e.Pos.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Load reads, parses and resolves one specification. name is a file path,
// "-" for standard input, or an http(s) URL. The returned error, if any, is
// an *Error; a document whose $refs are broken still loads, with the
// problems in Document.Refs.
func (l *Loader) Load(ctx context.Context, name string) (*Document, error) {
	d, err := l.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	d.Resolve(ctx)
	return d, nil
}

// Open reads and parses one specification and detects its format, as Load
// does, but leaves its $refs unresolved: Resolve completes the document.
// A caller with work that needs only the format (the rules that apply to
// it) does it while the references are followed, on one core.
func (l *Loader) Open(ctx context.Context, name string) (*Document, error) {
	display, data, err := l.readData(ctx, name)
	if err != nil {
		return nil, err
	}
	return l.entry(ctx, display, l.keyFor(name), data)
}

// OpenData is Open that also returns the entry file's bytes as read: a
// caller that lets the document go can load the same document again from
// them (LoadBytes with the same name), whatever happens to the file
// meanwhile.
func (l *Loader) OpenData(ctx context.Context, name string) (*Document, []byte, error) {
	display, data, err := l.readData(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	d, err := l.entry(ctx, display, l.keyFor(name), data)
	if err != nil {
		return nil, nil, err
	}
	return d, data, nil
}

// entry makes the document of an entry file: through the registered
// reader that claims it (RegisterReader), else parsed as YAML or JSON.
func (l *Loader) entry(ctx context.Context, display, key string, data []byte) (*Document, error) {
	if r := claim(display, data); r != nil {
		if err := checkText(display, data); err != nil {
			return nil, err
		}
		return l.readerDocument(ctx, r, display, key, trimBOM(data))
	}
	f, err := l.parseFile(display, key, data)
	if err != nil {
		return nil, err
	}
	return l.document(f)
}

// document detects the format of a parsed entry file.
func (l *Loader) document(f *File) (*Document, error) {
	d := &Document{Root: f, files: map[string]*File{f.key: f}, loader: l}
	d.refRoot = l.refRoot(f.key)
	if err := d.detect(); err != nil {
		return nil, err
	}
	return d, nil
}

// LoadBytes parses data as a specification named name (used in messages and
// to resolve relative $refs).
func (l *Loader) LoadBytes(ctx context.Context, name string, data []byte) (*Document, error) {
	d, err := l.entry(ctx, name, l.keyFor(name), data)
	if err != nil {
		return nil, err
	}
	d.Resolve(ctx)
	return d, nil
}

// LoadBytesIn parses data as a specification named name that lies in the
// folder dir: its relative $refs resolve against dir, and messages call it
// name and the files it reaches by their paths relative to dir.
func (l *Loader) LoadBytesIn(ctx context.Context, dir, name string, data []byte) (*Document, error) {
	d, err := l.entry(ctx, name, l.keyFor(filepath.Join(dir, name)), data)
	if err != nil {
		return nil, err
	}
	d.Resolve(ctx)
	return d, nil
}

func isURL(name string) bool {
	return strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://")
}

// keyFor is the identity of a file: an absolute path or a URL.
func (l *Loader) keyFor(name string) string {
	if name == "-" || isURL(name) {
		return name
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return name
}

func (l *Loader) readFile(ctx context.Context, name string) (*File, error) {
	display, data, err := l.readData(ctx, name)
	if err != nil {
		return nil, err
	}
	return l.parseFile(display, l.keyFor(name), data)
}

// readData reads a file, standard input or a URL, and names it as users
// see it.
func (l *Loader) readData(ctx context.Context, name string) (string, []byte, error) {
	display := name
	var data []byte
	var err error
	switch {
	case name == "-":
		display = "<stdin>"
		data, err = readLimited(l.opts.Stdin, l.opts.Limits.MaxFileSize, 0)
	case isURL(name):
		data, err = l.fetch(ctx, name)
	default:
		data, err = l.readLocal(name)
	}
	if err != nil {
		var le *Error
		if errors.As(err, &le) {
			return display, nil, le
		}
		return display, nil, &Error{File: display, Msg: err.Error(), Err: err}
	}
	return display, data, nil
}

// readLimited reads r up to max bytes. size is what r is expected to hold
// (0 when unknown): a file is read into one buffer of that size. Otherwise
// it is read in chunks joined at the end, so that reading costs twice what
// it reads, and refusing an endless input costs the limit (io.ReadAll,
// growing its buffer by a quarter, costs five times).
func readLimited(r io.Reader, max, size int64) ([]byte, error) {
	r = io.LimitReader(r, max+1)
	var data []byte
	if size > 0 && size <= max {
		buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
		if _, err := buf.ReadFrom(r); err != nil {
			return nil, err
		}
		data = buf.Bytes()
	} else {
		var chunks [][]byte
		total := 0
		for chunkSize := 64 << 10; ; chunkSize = min(2*chunkSize, 4<<20) {
			chunk := make([]byte, chunkSize)
			n, err := io.ReadFull(r, chunk)
			chunks = append(chunks, chunk[:n])
			total += n
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if int64(total) > max {
				break
			}
		}
		if int64(total) > max {
			return nil, fmt.Errorf("file is larger than the %s limit (--max-file-size)", formatSize(max))
		}
		data = bytes.Join(chunks, nil)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("file is larger than the %s limit (--max-file-size)", formatSize(max))
	}
	return data, nil
}

// formatSize writes a size in MiB, rounded down, from 1 MiB on and in bytes
// below, so that a small limit is not reported as "0 MiB".
func formatSize(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

func (l *Loader) readLocal(name string) ([]byte, error) {
	st, err := os.Stat(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errors.New("no such file")
		}
		return nil, err
	}
	if st.IsDir() {
		return nil, errors.New("is a directory, not a file")
	}
	if st.Size() > l.opts.Limits.MaxFileSize {
		return nil, fmt.Errorf("file is %s, larger than the %s limit (--max-file-size)", formatSize(st.Size()), formatSize(l.opts.Limits.MaxFileSize))
	}
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return readLimited(fh, l.opts.Limits.MaxFileSize, st.Size())
}

// Fetch reads an http(s) URL with the loader's time and size limits; the
// lint configuration uses it for ruleset URLs.
func (l *Loader) Fetch(ctx context.Context, u string) ([]byte, error) { return l.fetch(ctx, u) }

func (l *Loader) fetch(ctx context.Context, u string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, l.opts.Limits.FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/yaml, application/json;q=0.9, */*;q=0.5")
	resp, err := l.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch failed: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch failed: HTTP %s", resp.Status)
	}
	return readLimited(resp.Body, l.opts.Limits.MaxFileSize, resp.ContentLength)
}

// parseFile parses data as JSON when it starts with '{' or '[' and as YAML
// otherwise (JSON is YAML, but the JSON parser is several times faster).
func (l *Loader) parseFile(display, key string, data []byte) (*File, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	f := &File{Name: display, key: key, Size: len(data)}
	if err := checkText(display, data); err != nil {
		return nil, err
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	var root *Node
	var err error
	if trimmed[0] == '{' || trimmed[0] == '[' {
		f.JSON = true
		root, err = parseJSON(data, l.opts.Limits)
		if err != nil && !strings.HasSuffix(strings.ToLower(display), ".json") {
			// YAML in flow style also starts with '{' or '['.
			if yroot, yerr := parseYAML(data, l.opts.Limits); yerr == nil {
				f.JSON, root, err = false, yroot, nil
			}
		}
	} else {
		root, err = parseYAML(data, l.opts.Limits)
	}
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return nil, &Error{File: display, Pos: se.Pos, Msg: se.Msg, Err: err}
		}
		return nil, &Error{File: display, Msg: err.Error(), Err: err}
	}
	f.Root = root
	return f, nil
}

// checkText refuses an empty file and binary data.
func checkText(display string, data []byte) error {
	if len(bytes.TrimLeft(trimBOM(data), " \t\r\n")) == 0 {
		return &Error{File: display, Msg: "file is empty"}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return &Error{File: display, Msg: fmt.Sprintf("binary data (NUL byte at offset %d), not a text specification", i)}
	}
	return nil
}

// resolveLocation joins a $ref's file part to the key of the file holding
// the $ref.
func resolveLocation(base, ref string) (string, error) {
	if isURL(ref) {
		return ref, nil
	}
	if isURL(base) {
		bu, err := url.Parse(base)
		if err != nil {
			return "", err
		}
		ru, err := url.Parse(ref)
		if err != nil {
			return "", err
		}
		return bu.ResolveReference(ru).String(), nil
	}
	if strings.HasPrefix(ref, "file://") {
		u, err := url.Parse(ref)
		if err != nil {
			return "", err
		}
		return filepath.Clean(u.Path), nil
	}
	p, err := url.PathUnescape(ref)
	if err != nil {
		p = ref
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	dir := "."
	if base != "-" {
		dir = filepath.Dir(base)
	}
	return filepath.Join(dir, filepath.FromSlash(p)), nil
}

// Parse parses YAML or JSON text with positions, for files that are not
// specifications (configuration, rulesets). Errors are *Error.
func Parse(name string, data []byte, lim Limits) (*Node, error) {
	l := NewLoader(Options{Limits: lim})
	f, err := l.parseFile(name, name, data)
	if err != nil {
		return nil, err
	}
	return f.Root, nil
}
