package studio

import (
	"context"
	"crypto/sha256"
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

	"github.com/specgate/specgate/compat"
	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/schema"
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

// lintCached lints a document, or answers with the diagnostics of the last
// lint of the same text with the same rules: moving between files, saving,
// or undoing an edit checks a text that was linted already, and lint is
// most of a large spec's check.
func (c *checker) lintCached(ctx context.Context, abs string, data []byte, doc *spec.Document) ([]Diagnostic, string) {
	l, err := c.linter(ctx)
	if err != nil {
		return c.lintDoc(ctx, doc)
	}
	h := sha256.New()
	h.Write(data)
	for _, f := range doc.Files()[1:] {
		// The $ref'd files, as they are on disk now.
		var mod int64
		if st, err := os.Stat(f.Name); err == nil {
			mod = st.ModTime().UnixNano()
		}
		fmt.Fprintf(h, "\x00%s\x00%d\x00%d", f.Name, f.Size, mod)
	}
	key := lintKey{l: l, sum: string(h.Sum(nil))}
	c.mu.Lock()
	hit, ok := c.lints[abs]
	c.mu.Unlock()
	if ok && hit.key == key {
		return hit.ds, hit.note + ", unchanged"
	}
	ds, note := c.lintDoc(ctx, doc)
	if ctx.Err() == nil {
		c.mu.Lock()
		c.lints[abs] = lintHit{key: key, ds: ds, note: note}
		c.mu.Unlock()
	}
	return ds, note
}

type lintKey struct {
	l   *linter.Linter
	sum string
}

type lintHit struct {
	key  lintKey
	ds   []Diagnostic
	note string
}

// lintDoc lints a document with the workspace's rules.
func (c *checker) lintDoc(ctx context.Context, doc *spec.Document) ([]Diagnostic, string) {
	l, err := c.linter(ctx)
	if err != nil {
		return []Diagnostic{{Source: "lint", Severity: "error", Rule: "lint-config", Message: "the lint configuration does not load: " + err.Error(), File: c.s.ws.Rel(doc.Root.Name), Line: 1, Column: 1}}, ""
	}
	res := l.LintDocument(ctx, doc)
	var ds []Diagnostic
	for _, d := range res.Diagnostics {
		if d.RuleID == linter.LoadErrorRule || d.RuleID == linter.StructureRule {
			continue // the parse and validate stages report these
		}
		sev := "warning"
		switch d.Severity {
		case level.Error:
			sev = "error"
		case level.Off:
			sev = "info"
		}
		ds = append(ds, Diagnostic{Source: "lint", Severity: sev, Rule: d.RuleID, Message: d.Message, File: c.s.ws.Rel(d.File),
			Line: int(d.Range.Start.Line), Column: int(d.Range.Start.Col), EndLine: int(d.Range.End.Line), EndColumn: int(d.Range.End.Col), URL: d.DocURL()})
	}
	return ds, fmt.Sprintf("%d rules", l.RuleCount())
}

// linter returns the linter of the workspace's lint configuration (found
// from the folder upward) or of the chosen ruleset, compiled again when the
// configuration changes.
func (c *checker) linter(ctx context.Context) (*linter.Linter, error) {
	opts := rulesets.Options{Cache: policy.OpenCache(policy.DefaultCacheDir(c.getenv())), NoSearch: true}
	key := "ruleset=" + c.s.opts.Ruleset
	if found, ok := rulesets.FindConfig(c.s.ws.Dir()); ok {
		v, _ := currentVersion(found)
		opts.Config, key = found, key+" config="+found+"@"+v
	}
	if r := c.s.opts.Ruleset; r != "" {
		opts.Ruleset = r
		if !rulesets.IsBuiltin(r) {
			abs, err := c.s.ws.Resolve(r)
			if err != nil {
				return nil, err
			}
			v, _ := currentVersion(abs)
			opts.Ruleset, key = abs, key+"@"+v
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lint != nil && c.lint.key == key {
		return c.lint.l, c.lint.err
	}
	st := &lintState{key: key}
	p, err := linter.Open(ctx, linter.Config{Rules: opts, Loader: c.s.loader, Timeout: time.Minute})
	if err == nil {
		st.l = p.Linter
	}
	st.err = err
	if ctx.Err() == nil {
		c.lint = st
	}
	return st.l, st.err
}

func (c *checker) getenv() func(string) string {
	if c.s.opts.Getenv != nil {
		return c.s.opts.Getenv
	}
	return os.Getenv
}

// config is the workspace's specgate.yaml, read again when it changes; nil
// when there is none or it does not load.
func (c *checker) config() *config.Config {
	path, ok := config.Find(c.s.ws.Dir())
	if !ok || !c.s.ws.contains(path) {
		return nil
	}
	v, _ := currentVersion(path)
	key := path + "@" + v
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cfg != nil && c.cfg.key == key {
		return c.cfg.cfg
	}
	cfg, err := config.Load(path, config.Options{Getenv: c.getenv()})
	if err != nil {
		cfg = nil
	}
	c.cfg = &configState{key: key, cfg: cfg}
	return cfg
}

// exampleDirs are the configured example folders of a spec (besides its
// <name>_examples folder).
func (c *checker) exampleDirs(specAbs string) []string {
	cfg := c.config()
	if cfg == nil {
		return nil
	}
	var dirs []string
	for _, t := range cfg.Tests {
		if t.Spec != nil && t.Spec.Git == nil && t.Spec.Path == specAbs {
			dirs = append(dirs, t.Examples...)
		}
	}
	for _, m := range cfg.Mocks {
		for _, s := range m.Specs {
			if s.Git == nil && s.Path == specAbs {
				dirs = append(dirs, m.Examples...)
			}
		}
	}
	var out []string
	for _, d := range append(dirs, cfg.Data.Examples...) {
		if c.s.ws.contains(d) && !slices.Contains(out, d) {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				out = append(out, d)
			}
		}
	}
	return out
}

// specExamples checks the inline examples of a spec's text and its external
// example files.
func (c *checker) specExamples(abs string, doc *spec.Document) ([]Diagnostic, string) {
	schemas := schema.NewSet(doc)
	ct, err := contract.New(doc, schemas, contract.Options{})
	if err != nil {
		return nil, "examples not checked: " + err.Error()
	}
	k := examples.NewChecker(ct, schemas)
	in := examples.Inline(doc, examples.Options{})
	set := examples.Discover(abs, c.exampleDirs(abs), examples.Options{})
	var ds []Diagnostic
	for _, e := range append(in.Errors, set.Errors...) {
		ds = append(ds, c.errDiag("examples", e))
	}
	for _, f := range k.CheckAll(append(in.Examples, set.Examples...)) {
		ds = append(ds, c.findingDiag(f))
	}
	return ds, fmt.Sprintf("%d inline, %d in files", len(in.Examples), len(set.Examples))
}

func (c *checker) findingDiag(f examples.Finding) Diagnostic {
	msg := f.Message
	if f.Path != "" {
		msg += " (at " + f.Path + ")"
	}
	return Diagnostic{Source: "examples", Severity: "error", Rule: f.Code, Message: msg, File: c.s.ws.Rel(f.Loc.File),
		Line: int(f.Loc.Range.Start.Line), Column: int(f.Loc.Range.Start.Col), EndLine: int(f.Loc.Range.End.Line), EndColumn: int(f.Loc.Range.End.Col),
		URL: examplesDocURL}
}

// specFor loads a spec from disk for the example files it owns, kept while
// its entry file is unchanged.
func (c *checker) specFor(ctx context.Context, abs string) (*loadedSpec, error) {
	v, err := currentVersion(abs)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	ls := c.specs[abs]
	c.mu.Unlock()
	if ls != nil && ls.version == v {
		return ls, ls.err
	}
	ls = &loadedSpec{version: v}
	ls.doc, ls.err = c.s.loader.Load(ctx, abs)
	if ls.err == nil {
		ls.doc.Views()
		schemas := schema.NewSet(ls.doc)
		var ct *contract.Contract
		if ct, ls.err = contract.New(ls.doc, schemas, contract.Options{}); ls.err == nil {
			ls.checker = examples.NewChecker(ct, schemas)
		}
	}
	if ctx.Err() == nil {
		c.mu.Lock()
		c.specs[abs] = ls
		c.mu.Unlock()
	}
	return ls, ls.err
}

func (c *checker) checkExample(ctx context.Context, abs, owner string, data []byte, emit func(Stage)) {
	start := time.Now()
	ex, err := examples.Parse(abs, data, examples.Options{})
	if err != nil {
		var ds []Diagnostic
		var es examples.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				ds = append(ds, c.errDiag("parse", e))
			}
		} else {
			ds = append(ds, c.errDiag("parse", err))
		}
		emit(Stage{Stage: "parse", Diagnostics: ds, MS: since(start)})
		return
	}
	emit(Stage{Stage: "parse", MS: since(start)})
	t := time.Now()
	if owner == "" {
		emit(Stage{Stage: "examples", Note: "no spec owns this example: put it in a <spec>_examples folder or a folder specgate.yaml names", MS: since(t)})
		return
	}
	ls, err := c.specFor(ctx, owner)
	if err != nil {
		emit(Stage{Stage: "examples", Note: c.s.ws.Rel(owner) + " does not load: " + err.Error(), MS: since(t)})
		return
	}
	var ds []Diagnostic
	for _, f := range ls.checker.Check(ex) {
		ds = append(ds, c.findingDiag(f))
	}
	emit(Stage{Stage: "examples", Diagnostics: ds, Note: "checked against " + c.s.ws.Rel(owner), MS: since(t)})
}

func (c *checker) checkConfig(abs string, data []byte, emit func(Stage)) {
	start := time.Now()
	cfg, err := config.Parse(abs, data, config.Options{Getenv: c.getenv()})
	var ds []Diagnostic
	var es config.Errors
	switch {
	case errors.As(err, &es):
		for _, e := range es {
			ds = append(ds, c.errDiag("config", e))
		}
	case err != nil:
		ds = append(ds, c.errDiag("config", err))
	}
	note := ""
	if cfg != nil {
		for _, wn := range cfg.Warnings {
			d := c.errDiag("config", wn)
			d.Severity = "warning"
			ds = append(ds, d)
		}
		if cfg.Version == 2 {
			note = "version 2: the Upgrade action rewrites it as version 3 in place"
			ds = append(ds, Diagnostic{Source: "config", Severity: "info", Rule: "config-version-2", Message: "this is a version 2 configuration; Upgrade to V3 rewrites it in place (comments kept)",
				File: c.s.ws.Rel(abs), Line: 1, Column: 1, URL: docsBase + "docs/config.md#version-2-legacy"})
		}
	}
	emit(Stage{Stage: "config", Diagnostics: ds, Note: note, MS: since(start)})
}

// errDiag turns an error into a diagnostic at the position it names.
func (c *checker) errDiag(source string, err error) Diagnostic {
	d := Diagnostic{Source: source, Severity: "error", Rule: source + "-error", Message: err.Error()}
	if source == "config" {
		d.URL = configDocURL
	}
	var se *spec.Error
	if errors.As(err, &se) {
		d.File, d.Line, d.Column, d.Message = c.s.ws.Rel(se.File), int(se.Pos.Line), int(se.Pos.Col), se.Msg
		if d.Message == "" {
			d.Message = err.Error()
		}
		if d.Line > 0 && d.Column == 0 {
			d.Column = 1
		}
	}
	return d
}

// compat compares a spec's text with its version on the base branch.
func (c *checker) compat(ctx context.Context, abs string, doc *spec.Document) ([]Diagnostic, string) {
	base, note := c.git.doc(ctx, abs)
	if base == nil {
		return nil, note
	}
	if why := compat.Comparable(base, doc); why != "" {
		return nil, why
	}
	var ds []Diagnostic
	for _, ch := range compat.Compare(base, doc) {
		d := Diagnostic{Source: "compat", Rule: ch.RuleID, Message: ch.Message, URL: compatDocURL}
		switch ch.Level {
		case compat.Breaking:
			d.Severity = "error"
		case compat.Warning:
			d.Severity = "warning"
		default:
			d.Severity = "info"
		}
		if len(ch.Operations) > 0 {
			d.Message += " (" + strings.Join(ch.Operations, ", ") + ")"
		}
		// What the revision no longer has is shown where the revision
		// writes the nearest part of it (compat places every change on both
		// sides), with its line on the base.
		r := ch.Revision
		if r.File == "" {
			// Formats whose changes name their own side only: the file's
			// start.
			r = compat.Location{File: doc.Root.Name, Line: 1, Column: 1}
		}
		d.File, d.Line, d.Column, d.EndLine, d.EndColumn = c.s.ws.Rel(r.File), r.Line, r.Column, r.EndLine, r.EndColumn
		if d.Line > 0 && d.Column == 0 {
			d.Column = 1
		}
		if ch.Location.Side == compat.Base {
			d.Message += fmt.Sprintf(" [on %s: line %d]", c.git.branchName(), ch.Location.Line)
		}
		ds = append(ds, d)
	}
	return ds, note
}
