package studio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/validate"
)

// Documentation pages the diagnostics of each source link to.
const (
	docsBase       = "https://github.com/specgate/specgate/blob/main/"
	validateDocURL = docsBase + "README.md#validating"
	examplesDocURL = docsBase + "docs/examples.md"
	compatDocURL   = docsBase + "docs/compat.md#rules"
	configDocURL   = docsBase + "docs/config.md#errors-and-warnings"
)

// Diagnostic is one problem of a file, as the editor shows it: a marker at
// its range and a row of the problems panel.
type Diagnostic struct {
	// Source is what found it: parse, validate, lint, examples, compat or
	// config.
	Source   string `json:"source"`
	Severity string `json:"severity"` // error, warning or info
	Rule     string `json:"rule,omitempty"`
	Message  string `json:"message"`
	// File is where the problem is written, relative to the folder: the
	// file checked, or another one (a $ref'd file, an example file).
	File      string `json:"file"`
	Line      int    `json:"line"` // 1-based; 0 when there is no position
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine,omitempty"`
	EndColumn int    `json:"endColumn,omitempty"`
	URL       string `json:"url,omitempty"` // the rule's documentation
}

// Stage is one line of the answer to POST /api/check: the diagnostics of
// one source, sent as soon as that source is done.
type Stage struct {
	Stage       string       `json:"stage"` // parse, validate, examples, compat, lint, config, done
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Note says what the stage did or why it did not run ("compared with
	// main at 1a2b3c4", "not a git repository").
	Note string `json:"note,omitempty"`
	Kind string `json:"kind,omitempty"` // done: spec, example, config, lint-config or file
	MS   int64  `json:"ms"`             // the time the stage took
}

// CheckRequest is POST /api/check: the text of a file as the editor holds
// it, saved or not. The page sends the text as the body (text/plain) with
// path and client in the query; a JSON body of this shape is read too.
type CheckRequest struct {
	Path string `json:"path"`
	Text string `json:"text"`
	// Client names the tab: a check supersedes the one the same tab asked
	// for the same file, which is cancelled.
	Client string `json:"client,omitempty"`
}

// checker computes diagnostics and keeps what is costly to rebuild between
// checks: the compiled lint rules, the base branch's files, the specs that
// example files are checked against.
type checker struct {
	s *Server

	mu       sync.Mutex
	inflight map[string]*flight
	lint     *lintState
	cfg      *configState
	specs    map[string]*loadedSpec // by absolute path
	lints    map[string]lintHit     // the last lint of each file
	git      *gitBase
}
type flight struct{ cancel context.CancelFunc }
type lintState struct {
	key string // the configuration file and its version, and the ruleset
	l   *linter.Linter
	err error
}
type configState struct {
	key string
	cfg *config.Config
}
type loadedSpec struct {
	version string
	doc     *spec.Document
	checker *examples.Checker
	err     error
}

func newChecker(s *Server) *checker {
	return &checker{s: s, inflight: map[string]*flight{}, specs: map[string]*loadedSpec{}, lints: map[string]lintHit{}, git: &gitBase{ws: s.ws, branch: s.opts.BaseBranch}}
}
func (c *checker) warm(ctx context.Context) {
	_, _ = c.linter(ctx)
	c.git.refresh(ctx)
}

// forget drops what the checker keeps of a file that was written.
func (c *checker) forget(abs string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.specs, abs)
}

// supersede registers a check and cancels the one it replaces; the
// returned function unregisters it.
func (c *checker) supersede(key string, cancel context.CancelFunc) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.inflight[key]; old != nil {
		old.cancel()
	}
	me := &flight{cancel: cancel}
	c.inflight[key] = me
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.inflight[key] == me {
			delete(c.inflight, key)
		}
	}
}
func (s *Server) handleCheck(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	var req CheckRequest
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		if err := decode(w, r, maxFileSize+4096, &req); err != nil {
			s.fail(w, r, err)
			return
		}
	} else {
		// The page sends the text as it is, with the path and the tab in
		// the query: a 4 MB spec escaped into JSON and decoded again cost
		// more than parsing it.
		data, err := httpx.ReadBody(w, r, maxFileSize)
		if errors.Is(err, httpx.ErrTooLarge) {
			s.fail(w, r, &problemError{problems.TooLarge(maxFileSize, "")})
			return
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		q := r.URL.Query()
		req = CheckRequest{Path: q.Get("path"), Client: q.Get("client"), Text: string(data)}
	}
	abs, err := s.ws.Resolve(req.Path)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	done := s.checker.supersede(req.Client+"\x00"+abs, cancel)
	defer done()

	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	var wmu sync.Mutex
	// Each stage goes out as soon as it is written (through the access
	// log's writer, which http.ResponseController unwraps).
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	emit := func(st Stage) {
		if ctx.Err() != nil {
			return
		}
		if st.Diagnostics == nil {
			st.Diagnostics = []Diagnostic{}
		}
		data, _ := json.Marshal(st)
		wmu.Lock()
		defer wmu.Unlock()
		w.Write(append(data, '\n'))
		_ = rc.Flush()
	}
	start := time.Now()
	kind := s.checker.check(ctx, abs, []byte(req.Text), emit)
	emit(Stage{Stage: "done", Kind: kind, MS: time.Since(start).Milliseconds(), Note: fmt.Sprintf("read in %d ms", start.Sub(received).Milliseconds())})
}

// Check runs every check that applies to the text of a file and returns
// the stages in the order they finished; the HTTP API streams them instead.
func (s *Server) Check(ctx context.Context, path string, text []byte) ([]Stage, error) {
	abs, err := s.ws.Resolve(path)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	var out []Stage
	s.checker.check(ctx, abs, text, func(st Stage) {
		mu.Lock()
		defer mu.Unlock()
		out = append(out, st)
	})
	return out, nil
}

// specSniff finds the top-level key that makes a file a spec: at the
// start of a line in YAML, or as a key with a string value in JSON (whose
// top-level keys may come last, as in kubernetes.json).
var specSniff = regexp.MustCompile(`(?m)^["']?(openapi|swagger|asyncapi|arazzo)["']?\s*:|"(openapi|swagger|asyncapi|arazzo)"\s*:\s*"`)
var exampleSniff = regexp.MustCompile(`(?m)^\s*["']?(http-request|http-response|partial)["']?\s*:`)

// kindOf tells what a file is by its name, its place and its first bytes.
func (c *checker) kindOf(abs string, data []byte) (kind, owner string) {
	base := filepath.Base(abs)
	switch {
	case slices.Contains(config.FileNames, base):
		return "config", ""
	case base == rulesets.ConfigName:
		return "lint-config", ""
	}
	head := data
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	// A file in a spec's examples folder is an example, whatever its body
	// holds.
	if owner := c.exampleOwner(abs); owner != "" {
		return "example", owner
	}
	if specSniff.Match(data) {
		return "spec", ""
	}
	if exampleSniff.Match(head) {
		return "example", ""
	}
	return "file", ""
}

// exampleOwner is the spec whose examples folder (its <name>_examples, or
// a folder specgate.yaml gives its tests or mocks) holds the file.
func (c *checker) exampleOwner(abs string) string {
	for dir := filepath.Dir(abs); strings.HasPrefix(dir, c.s.ws.Dir()); dir = filepath.Dir(dir) {
		if name, ok := strings.CutSuffix(filepath.Base(dir), "_examples"); ok {
			for _, ext := range []string{".yaml", ".yml", ".json"} {
				p := filepath.Join(filepath.Dir(dir), name+ext)
				if st, err := os.Stat(p); err == nil && !st.IsDir() {
					return p
				}
			}
		}
		if dir == c.s.ws.Dir() {
			break
		}
	}
	if cfg := c.config(); cfg != nil {
		for _, t := range cfg.Tests {
			if t.Spec != nil && t.Spec.Git == nil && under(abs, t.Examples) {
				return t.Spec.Path
			}
		}
		for _, m := range cfg.Mocks {
			if under(abs, m.Examples) && len(m.Specs) > 0 && m.Specs[0].Git == nil {
				return m.Specs[0].Path
			}
		}
	}
	return ""
}
func under(abs string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(abs, filepath.Clean(d)+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// check runs the checks of a file's text and emits each stage.
func (c *checker) check(ctx context.Context, abs string, data []byte, emit func(Stage)) string {
	kind, owner := c.kindOf(abs, data)
	switch kind {
	case "spec":
		c.checkSpec(ctx, abs, data, emit)
	case "example":
		c.checkExample(ctx, abs, owner, data, emit)
	case "config":
		c.checkConfig(abs, data, emit)
	default:
		start := time.Now()
		var ds []Diagnostic
		if _, err := spec.Parse(abs, data, spec.DefaultLimits()); err != nil {
			ds = append(ds, c.errDiag("parse", err))
		}
		emit(Stage{Stage: "parse", Diagnostics: ds, MS: since(start)})
	}
	return kind
}
func since(t time.Time) int64 { return time.Since(t).Milliseconds() }
func (c *checker) checkSpec(ctx context.Context, abs string, data []byte, emit func(Stage)) {
	start := time.Now()
	doc, err := c.s.loader.LoadBytes(ctx, abs, data)
	if err != nil {
		emit(Stage{Stage: "parse", Diagnostics: []Diagnostic{c.errDiag("parse", err)}, MS: since(start)})
		return
	}
	doc.Views()
	emit(Stage{Stage: "parse", Note: doc.String(), MS: since(start)})

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.Now()
		ds, note := c.lintCached(ctx, abs, data, doc)
		emit(Stage{Stage: "lint", Diagnostics: ds, Note: note, MS: since(t)})
	}()

	t := time.Now()
	var ds []Diagnostic
	for _, p := range validate.Validate(doc) {
		ds = append(ds, Diagnostic{Source: "validate", Severity: "error", Rule: "invalid", Message: p.Message,
			File: c.s.ws.Rel(p.File), URL: validateDocURL, Line: int(p.Range.Start.Line), Column: int(p.Range.Start.Col),
			EndLine: int(p.Range.End.Line), EndColumn: int(p.Range.End.Col)})
	}
	emit(Stage{Stage: "validate", Diagnostics: ds, MS: since(t)})

	if ctx.Err() == nil && (doc.Format == spec.OpenAPI || doc.Format == spec.Swagger) {
		t = time.Now()
		ds, note := c.specExamples(abs, doc)
		emit(Stage{Stage: "examples", Diagnostics: ds, Note: note, MS: since(t)})
	}
	if ctx.Err() == nil {
		t = time.Now()
		ds, note := c.compat(ctx, abs, doc)
		emit(Stage{Stage: "compat", Diagnostics: ds, Note: note, MS: since(t)})
	}
	wg.Wait()
}
