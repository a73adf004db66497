// Package linter is the lint pipeline: it loads documents, evaluates the
// enabled rules over each, resolves every violation's path to a file, line
// and column, applies inline ignores, and returns diagnostics.
package linter

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/validate"
)

// Rule ids of diagnostics that come from the pipeline rather than a rule.
const (
	LoadErrorRule = "load-error"   // the file could not be read or parsed
	TimeoutRule   = "eval-timeout" // rule evaluation exceeded its time limit
	// StructureRule reports what validate finds unreadable (a value of the
	// wrong kind, a misplaced $ref), at error whatever the ruleset: rules
	// read the document through views that skip such values.
	StructureRule = "invalid-structure"
)

// DocsURL is where each rule's documentation page lives; the rule id is
// appended.
const DocsURL = "https://github.com/specgate/specgate/blob/main/docs/rules/"

// RulePage is the page under DocsURL of the rule with this id, "" for the
// pipeline's own findings (load errors, timeouts, unreadable structure).
func RulePage(id string) string {
	if id == LoadErrorRule || id == TimeoutRule || id == StructureRule {
		return ""
	}
	return DocsURL + id + ".md"
}

// RuleDocURL is where a rule is documented: a built-in rule's page under
// DocsURL, a custom rule's first related_resources URL in its METADATA,
// else "" (a custom rule has no page under docs/rules).
func RuleDocURL(r *policy.Rule) string {
	if r.Builtin {
		return DocsURL + r.ID + ".md"
	}
	if r.Source == nil {
		return ""
	}
	m, err := r.Source.Module()
	if err != nil {
		return ""
	}
	for _, a := range m.Annotations {
		if a.Scope != "package" {
			continue
		}
		for _, rr := range a.RelatedResources {
			if rr != nil && rr.Ref.String() != "" {
				return rr.Ref.String()
			}
		}
	}
	return ""
}

// Result is the outcome for one input.
type Result struct {
	File   string // as named by the user
	Format string // e.g. "OpenAPI 3.1.0"; empty when the file did not load
	// Findings are sorted; their DocURL is left for the report to set,
	// a page per rule.
	Findings []reports.Finding
	// Err is set when the file could not be loaded or linted at all; it is
	// also reported as a finding so that reports show it.
	Err error
	// Timings say what the rules took on this input, when the Linter was
	// asked for them (Options.Timings) and the rules ran.
	Timings *Timings
	// Warnings are notes about the input that change no finding and no
	// exit code, each file:line:col: message (an x-lint-ignore naming a
	// rule that does not exist).
	Warnings []string
}

// Timings are what evaluating the rules took on one input.
type Timings struct {
	Eval  time.Duration     // every rule, on every core at once
	Rules []policy.RuleTime // each rule that ran, slowest first
	Cores int               // the cores the rules ran on
}

// Linter lints documents with a fixed set of rules and severities. It is
// safe for concurrent use.
type Linter struct {
	reg        *policy.Registry
	severities rulesets.Severities
	overrides  []rulesets.FileOverride
	engine     *policy.Engine
	loader     *spec.Loader
	timings    bool
}

// Options configure a Linter.
type Options struct {
	Registry   *policy.Registry
	Severities rulesets.Severities
	// Overrides change severities for some files (ruleset `overrides`);
	// a rule enabled only there still runs, and is kept only there.
	Overrides []rulesets.FileOverride
	Loader    *spec.Loader
	Timeout   time.Duration // per document; 0 means no limit
	// Cache keeps compiled rule sets between runs; nil compiles every time.
	Cache *policy.Cache
	// Timings asks for the time each rule takes on each input
	// (Result.Timings); measuring costs next to nothing.
	Timings bool
}

// New compiles the enabled rules once.
func New(ctx context.Context, opts Options) (*Linter, error) {
	var rules []*policy.Rule
	enabled := map[string]bool{}
	for _, id := range opts.Severities.Enabled() {
		enabled[id] = true
	}
	for _, o := range opts.Overrides {
		for _, id := range o.Severities.Enabled() {
			enabled[id] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(enabled)) {
		if r := opts.Registry.Rule(id); r != nil {
			rules = append(rules, r)
		}
	}
	engine, err := policy.Compile(ctx, rules, opts.Registry.Libs, opts.Timeout, opts.Cache)
	if err != nil {
		return nil, err
	}
	if opts.Loader == nil {
		opts.Loader = spec.NewLoader(spec.Options{})
	}
	return &Linter{reg: opts.Registry, severities: opts.Severities, overrides: opts.Overrides, engine: engine, loader: opts.Loader, timings: opts.Timings}, nil
}

// severitiesFor applies the overrides that match a linted file.
func (l *Linter) severitiesFor(file string) rulesets.Severities {
	var sevs rulesets.Severities
	for _, o := range l.overrides {
		if o.Matches(file) {
			if sevs == nil {
				sevs = maps.Clone(l.severities)
			}
			maps.Copy(sevs, o.Severities)
		}
	}
	if sevs == nil {
		return l.severities
	}
	return sevs
}

// Prepare gets ready to lint inputs of these formats
// (spec.Document.FormatTags), which linting would otherwise do on first
// use: a caller that knows the formats early can do it while other work
// is under way.
func (l *Linter) Prepare(formats []string) error { return l.engine.Prepare(formats) }

// members are the input members that the rules for an input of these
// formats may read (policy.Engine.InputMembers), so that the others are
// not built; every member when that cannot be told (the error then shows
// when the rules are evaluated).
func (l *Linter) members(formats []string) input.Members {
	m, err := l.engine.InputMembers(formats)
	if err != nil {
		return nil
	}
	return m
}

// buildInput builds doc's input with the members its rules may read.
func (l *Linter) buildInput(doc *spec.Document) ast.Value {
	return input.BuildMembers(doc, l.members(doc.FormatTags()))
}

// RuleCount is the number of rules that run.
func (l *Linter) RuleCount() int { return len(l.engine.Rules()) }

// DocURL is where the rule with this id is documented (RuleDocURL): ""
// for a custom rule without a related_resources URL and for the pipeline's
// own findings.
func (l *Linter) DocURL(rule string) string {
	for _, r := range l.engine.Rules() {
		if r.ID == rule {
			return RuleDocURL(r)
		}
	}
	return RulePage(rule)
}

// LintFiles lints inputs in parallel, one result per input, in input
// order. One bad input never stops the others.
func (l *Linter) LintFiles(ctx context.Context, names []string) []Result {
	results := make([]Result, len(names))
	workers := min(runtime.GOMAXPROCS(0), len(names))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = l.LintFile(ctx, names[i])
			}
		}()
	}
	for i := range names {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// LintFile loads and lints one input.
func (l *Linter) LintFile(ctx context.Context, name string) Result {
	doc, err := l.loader.Load(ctx, name)
	if err != nil {
		return LoadFailed(name, err)
	}
	return l.LintDocument(ctx, doc)
}

// LoadFailed is the result of an input that could not be loaded: one
// load-error diagnostic, at the place the error names.
func LoadFailed(name string, err error) Result {
	d := reports.Finding{Rule: LoadErrorRule, Severity: level.Error, Message: err.Error(), File: name}
	var se *spec.Error
	if errors.As(err, &se) {
		d.File, d.Message, d.Pointer = se.File, se.Msg, se.Pointer
		d.Range = spec.Range{Start: se.Pos, End: se.Pos}
	}
	return Result{File: name, Findings: []reports.Finding{d}, Err: err}
}

// LintDocument lints a loaded document.
func (l *Linter) LintDocument(ctx context.Context, doc *spec.Document) Result {
	// The structure is checked on another core while the rules run.
	return l.lintInput(ctx, doc, l.buildInput(doc), checkStructure(doc))
}

// LintPreloaded lints the input name as LintFile does, with its document
// and input from pre when pre preloaded it (see Preload; a nil pre
// preloads nothing). With keep, it returns the document as well (nil when
// it did not load), for a caller that reports more of it; standard input
// ("-") is read once, and not kept.
func (l *Linter) LintPreloaded(ctx context.Context, pre *Preloaded, name string, keep bool) (Result, *spec.Document) {
	if formats, ok := pre.Formats(); ok && pre.name == name {
		pre.build(l.members(formats))
	}
	doc, in, ok, err := pre.take(name)
	if !ok {
		if !keep || name == "-" {
			return l.LintFile(ctx, name), nil
		}
		doc, err = l.loader.Load(ctx, name)
	}
	if err != nil {
		return LoadFailed(name, err), nil
	}
	if in == nil {
		return l.lintInput(ctx, doc, l.buildInput(doc), checkStructure(doc)), doc
	}
	structure := make(chan []reports.Finding, 1)
	structure <- pre.structure
	data := pre.handOver(keep)
	if !keep {
		// Preloaded, the input is built and the structure checked: no
		// one reads the views again, and the rules run without them
		// (a large API's views are a tenth of its heap).
		doc.DropViews()
		if data != nil {
			return l.lintLean(ctx, name, doc, data, in, structure), nil
		}
	}
	return l.lintInput(ctx, doc, in, structure), doc
}

// onRelease, when set (by tests), is called once lintLean has let the
// node tree go and collected; onLocate, when lintLean locates the
// findings, with whether it does so in the bytes (without loading the
// document again).
var (
	onRelease func()
	onLocate  func(inBytes bool)
)

// lintLean is lintInput for a large spec of one file (see lean) whose
// node tree goes while most of its rules run: the rules that read the
// document run first (policy.WithDocumentReleased), then the tree is let
// go and collected. The findings are then located in data, the file's
// bytes as first read: through a spec.JSONLocator when the file is JSON
// without an x-lint-ignore (see mayIgnore), else in the document loaded
// again from them. The tree is a fifth of such a spec's heap as its rules
// start; without it, the evaluation's collections mark and keep less.
func (l *Linter) lintLean(ctx context.Context, name string, doc *spec.Document, data []byte, in ast.Value, structure <-chan []reports.Finding) Result {
	if len(data) >= SweptSpec {
		runtime.GC()
	}
	res := Result{File: doc.Root.Name, Format: doc.String()}
	json := doc.Root.JSON
	released := policy.WithDocumentReleased(ctx, doc, func() {
		doc = nil
		runtime.GC()
		if onRelease != nil {
			onRelease()
		}
	})
	violations, broken, ok := l.evaluate(released, &res, in, structure)
	if !ok {
		return res
	}
	if json && !mayIgnore(data) {
		if at, err := spec.NewJSONLocator(res.File, data); err == nil {
			if onLocate != nil {
				onLocate(true)
			}
			return l.place(res, func(v policy.Violation, _ func(*spec.Node)) spec.Location { return at.Locate(v.Path) },
				false, violations, broken)
		}
	}
	if onLocate != nil {
		onLocate(false)
	}
	doc, err := l.loader.LoadBytes(ctx, name, data)
	if err != nil {
		return LoadFailed(name, err)
	}
	return l.locate(res, doc, violations, broken)
}

// mayIgnore reports whether JSON text may have an x-lint-ignore key: it
// holds the key's text, or a \u escape of one of its characters, which
// could spell it.
func mayIgnore(data []byte) bool {
	if bytes.Contains(data, []byte(IgnoreKey)) {
		return true
	}
	for rest := data; ; {
		i := bytes.Index(rest, []byte(`\u00`))
		if i < 0 || i+6 > len(rest) {
			return false
		}
		if c, err := strconv.ParseUint(string(rest[i+4:i+6]), 16, 8); err == nil && strings.IndexByte(IgnoreKey, byte(c)) >= 0 {
			return true
		}
		rest = rest[i+4:]
	}
}

// checkStructure checks the structure of doc (unreadable) on another
// core; the channel gets its problems.
func checkStructure(doc *spec.Document) <-chan []reports.Finding {
	structure := make(chan []reports.Finding, 1)
	go func() { structure <- unreadable(doc) }()
	return structure
}

// lintInput is LintDocument with the document's OPA input already built
// and the check of its structure under way.
func (l *Linter) lintInput(ctx context.Context, doc *spec.Document, in ast.Value, structure <-chan []reports.Finding) Result {
	res := Result{File: doc.Root.Name, Format: doc.String()}
	violations, broken, ok := l.evaluate(policy.WithDocument(ctx, doc), &res, in, structure)
	if !ok {
		return res
	}
	return l.locate(res, doc, violations, broken)
}

// evaluate runs the rules over the input of res's file (ctx carries its
// document) and waits for the check of its structure; false, with res
// holding the error as its diagnostic, when the rules did not run to
// their end.
func (l *Linter) evaluate(ctx context.Context, res *Result, in ast.Value, structure <-chan []reports.Finding) ([]policy.Violation, []reports.Finding, bool) {
	var violations []policy.Violation
	var err error
	if l.timings {
		start := time.Now()
		var times []policy.RuleTime
		violations, times, err = l.engine.EvalTimed(ctx, in)
		if err == nil {
			res.Timings = &Timings{Eval: time.Since(start), Rules: times, Cores: l.engine.Workers(len(times))}
		}
	} else {
		violations, err = l.engine.Eval(ctx, in)
	}
	broken := <-structure
	evaluated()
	if err != nil {
		rule := LoadErrorRule
		if errors.Is(err, policy.ErrTimeout) {
			rule = TimeoutRule
			err = fmt.Errorf("%w: no results are reported for this file, raise --timeout to lint it fully", err)
		}
		res.Err = err
		res.Findings = []reports.Finding{{Rule: rule, Severity: level.Error, Message: err.Error(), File: res.File,
			Range: spec.Range{Start: spec.Pos{Line: 1, Col: 1}, End: spec.Pos{Line: 1, Col: 1}}}}
		return nil, nil, false
	}
	return violations, broken, true
}

// locate makes res's diagnostics of the rules' violations, located in
// doc, and of the structure's problems (broken).
func (l *Linter) locate(res Result, doc *spec.Document, violations []policy.Violation, broken []reports.Finding) Result {
	// Most specs have no x-lint-ignore: locating a diagnostic then need
	// not look for one at every node on its way (a scan of the fields of
	// every object on the path, such as the thousand schemas of a large
	// API's components).
	ignorable := doc.AnyField(func(f spec.Field) bool { return f.Key == IgnoreKey })
	if ignorable {
		res.Warnings = l.unknownIgnores(doc)
	}
	at := func(v policy.Violation, visit func(*spec.Node)) spec.Location {
		start := doc.Root
		if v.File != "" {
			if f := doc.FileNamed(v.File); f != nil {
				start = f
			}
		}
		return doc.LocateIn(start, v.Path, visit)
	}
	return l.place(res, at, ignorable, violations, broken)
}

// place is locate with the violations located by at, which shows visit
// every node on a violation's way when the document is ignorable (it has
// an x-lint-ignore somewhere).
func (l *Linter) place(res Result, at func(policy.Violation, func(*spec.Node)) spec.Location, ignorable bool, violations []policy.Violation, broken []reports.Finding) Result {
	sevs := l.severities
	if len(l.overrides) > 0 {
		sevs = l.severitiesFor(res.File)
	}
	// Violations are located on every core (a large API's ten thousand
	// walk paths through objects of hundreds of fields).
	located := make([]reports.Finding, len(violations))
	kept := make([]bool, len(violations))
	workers := min(runtime.GOMAXPROCS(0), 1+len(violations)/1024)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(violations); i += workers {
				if v := violations[i]; sevs[v.Rule] != level.Off {
					located[i], kept[i] = l.diagnostic(at, v, sevs, ignorable)
				}
			}
		})
	}
	wg.Wait()
	// The kept ones are moved to the front of located, not copied: a
	// large API has ten thousand.
	n := 0
	for i := range located {
		if kept[i] {
			located[n] = located[i]
			n++
		}
	}
	if n > 0 {
		res.Findings = located[:n]
	}
	res.Findings = append(res.Findings, broken...)
	Sort(res.Findings)
	// Violations that locate alike are one diagnostic: sorted, they are
	// neighbours.
	res.Findings = slices.Compact(res.Findings)
	return res
}

// diagnostic resolves a violation to a located diagnostic (at locates
// it); false when an inline x-lint-ignore on the way suppresses it
// (looked for only when the document is ignorable).
func (l *Linter) diagnostic(at func(policy.Violation, func(*spec.Node)) spec.Location, v policy.Violation, sevs rulesets.Severities, ignorable bool) (reports.Finding, bool) {
	rule := l.reg.Rule(v.Rule)
	ignored := false
	var visit func(*spec.Node)
	if ignorable {
		visit = func(n *spec.Node) {
			if !ignored && ignores(n, v.Rule) {
				ignored = true
			}
		}
	}
	loc := at(v, visit)
	if ignored {
		return reports.Finding{}, false
	}
	return reports.Finding{
		Rule:     v.Rule,
		Severity: sevs[v.Rule],
		Message:  v.Message,
		Category: rule.Category,
		Maturity: rule.Maturity,
		File:     loc.File.Name,
		Pointer:  loc.Pointer,
		Range:    loc.Range,
	}, true
}

// IgnoreKey is the extension that silences rules on a node and everything
// under it: `x-lint-ignore: [rule-id, …]` (or a single id).
const IgnoreKey = "x-lint-ignore"

// unknownIgnores warns of each id in an x-lint-ignore of doc that names
// no rule (a misspelt id silences nothing), where the id is written, with
// the nearest rule id.
func (l *Linter) unknownIgnores(doc *spec.Document) []string {
	var out []string
	check := func(file string, id *spec.Node) {
		if id.Kind != spec.String {
			return
		}
		name := strings.TrimPrefix(id.Value, rulesets.BuiltinPrefix)
		if l.reg.Rule(name) != nil {
			return
		}
		out = append(out, fmt.Sprintf("%s:%d:%d: %s names no rule %q, and silences nothing%s", file, id.Range.Start.Line, id.Range.Start.Col,
			IgnoreKey, id.Value, rulesets.Suggest(name, l.reg.IDs())))
	}
	var walk func(file string, n *spec.Node)
	walk = func(file string, n *spec.Node) {
		for i := range n.Fields {
			f := &n.Fields[i]
			if f.Key == IgnoreKey {
				check(file, f.Value)
				for _, it := range f.Value.Items {
					check(file, it)
				}
				continue
			}
			walk(file, f.Value)
		}
		for _, it := range n.Items {
			walk(file, it)
		}
	}
	for _, f := range doc.Files() {
		walk(f.Name, f.Root)
	}
	return out
}

func ignores(n *spec.Node, rule string) bool {
	ig := n.Get(IgnoreKey)
	if ig == nil {
		return false
	}
	if ig.Kind == spec.String {
		return ig.Value == rule || ig.Value == rulesets.BuiltinPrefix+rule
	}
	for _, it := range ig.Items {
		if it.Value == rule || it.Value == rulesets.BuiltinPrefix+rule {
			return true
		}
	}
	return false
}

// Sort orders diagnostics by file, position, rule, message, then pointer
// and end: a total order of distinct diagnostics, so the sort need not be
// stable (a stable sort of a large spec's ten thousand diagnostics took
// three times as long).
func Sort(ds []reports.Finding) {
	slices.SortFunc(ds, func(a, b reports.Finding) int {
		switch {
		case a.File != b.File:
			return strings.Compare(a.File, b.File)
		case a.Range.Start.Line != b.Range.Start.Line:
			return cmp.Compare(a.Range.Start.Line, b.Range.Start.Line)
		case a.Range.Start.Col != b.Range.Start.Col:
			return cmp.Compare(a.Range.Start.Col, b.Range.Start.Col)
		case a.Rule != b.Rule:
			return strings.Compare(a.Rule, b.Rule)
		case a.Message != b.Message:
			return strings.Compare(a.Message, b.Message)
		case a.Pointer != b.Pointer:
			return strings.Compare(a.Pointer, b.Pointer)
		case a.Range.End.Line != b.Range.End.Line:
			return cmp.Compare(a.Range.End.Line, b.Range.End.Line)
		}
		return cmp.Compare(a.Range.End.Col, b.Range.End.Col)
	})
}

// unreadable are the problems of the document's structure that leave it
// unreadable as written (validate.Problem.Unreadable), as diagnostics.
func unreadable(doc *spec.Document) []reports.Finding {
	var out []reports.Finding
	for _, p := range validate.Validate(doc) {
		if p.Unreadable {
			out = append(out, reports.Finding{Rule: StructureRule, Severity: level.Error, Message: p.Message,
				Category: "Structure", Maturity: level.Maturities[0], File: p.File, Pointer: p.Pointer, Range: p.Range})
		}
	}
	return out
}
