package policy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/cache"
)

// Violation is one finding of a rule: a path into the document (object
// keys and array indices) and a message. File is empty for the entry file,
// or names another file of the document when the path starts there.
type Violation struct {
	Rule    string
	Path    []any
	File    string
	Message string
}

// Engine evaluates a fixed set of rules. It is compiled once and safe for
// concurrent use.
type Engine struct {
	rules   []*Rule
	queries []ast.Body // queries[i] gathers the violations of rules[i] (see ruleQuery)
	libs    []*Source
	store   storage.Store // empty: rules read the input only
	timeout time.Duration
	cache   *Cache
	key     string // of the whole rule set's cache entry

	// full is the program of every rule: compiled by Compile, or read
	// from the cache when an input needs it.
	full func() (*ast.Compiler, error)

	mu       sync.Mutex
	programs map[string]func() (*ast.Compiler, error) // by the rules an input runs (see program)
}

// ErrTimeout is returned (wrapped) when an evaluation exceeds its time
// limit; the violations found so far are not returned, since they would be
// incomplete without saying so.
var ErrTimeout = errors.New("rule evaluation exceeded its time limit")

// deniedBuiltins are the builtins user-authored Rego must not reach, besides
// every builtin OPA marks nondeterministic (see Capabilities): rules must be
// pure functions of the document. These are named even when OPA marks them,
// so that a change of OPA's marks cannot let them back in.
var deniedBuiltins = map[string]string{
	"http.send":          "the network",
	"net.lookup_ip_addr": "the network (DNS)",
	"opa.runtime":        "the environment and configuration of the process",
	"time.now_ns":        "the clock",
	"rand.intn":          "randomness",
	"uuid.rfc4122":       "randomness",
	// A JSON Schema $ref such as file:///etc/passwd is read from the file
	// system, whatever allow_net says.
	"json.match_schema":  "the file system",
	"json.verify_schema": "the file system",
	// Token checks read the clock when no time is given; signing draws
	// random numbers.
	"io.jwt.decode_verify":   "the clock",
	"io.jwt.encode_sign":     "randomness",
	"io.jwt.encode_sign_raw": "randomness",
	// Certificate chains are verified at the current time.
	"crypto.x509.parse_and_verify_certificates":              "the clock",
	"crypto.x509.parse_and_verify_certificates_with_options": "the clock",
}

// Capabilities are the sandboxed capabilities every rule is compiled with:
// OPA's builtins without the denied and nondeterministic ones, and no
// network host.
func Capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	kept := caps.Builtins[:0]
	for _, b := range caps.Builtins {
		if _, denied := deniedBuiltins[b.Name]; !denied && !b.Nondeterministic && !strings.HasPrefix(b.Name, "net.lookup") {
			kept = append(kept, b)
		}
	}
	caps.Builtins = kept
	caps.AllowNet = []string{}
	return caps
}

// Compile builds an engine for rules (with the registry's libraries): one
// compiled program, with one query per rule gathering its violations.
//
// With a cache, a rule set compiled before is not compiled again, nor
// read back yet: each input runs the rules of its formats only (an
// OpenAPI 3.0 description none of the AsyncAPI, Swagger-only or 3.1-only
// rules), and the program of those rules alone, cached under that smaller
// rule set, is what a run on inputs of one format reads (see program). A
// fifth of the built-in rules never apply to an OpenAPI description,
// three quarters to an AsyncAPI one; reading and indexing them was a
// sixth of a small OpenAPI description's lint.
func Compile(ctx context.Context, rules []*Rule, libs []*Source, timeout time.Duration, cache *Cache) (*Engine, error) {
	e := &Engine{rules: rules, libs: libs, store: inmem.New(), timeout: timeout, cache: cache,
		queries: make([]ast.Body, len(rules)), programs: map[string]func() (*ast.Compiler, error){}}
	for i, r := range rules {
		e.queries[i] = ruleQuery(r.ID)
	}
	if cache != nil {
		e.key = cache.key("rules", e.sources(rules))
		if cache.has(e.key) {
			e.full = sync.OnceValues(e.loadFull)
			return e, nil
		}
	}
	compiler, err := compileSources(e.sources(rules))
	if err != nil {
		return nil, err
	}
	cache.storeProgram(e.key, compiler, compiler.Modules)
	e.full = func() (*ast.Compiler, error) { return compiler, nil }
	return e, nil
}

// sources are the libraries' and rules' sources.
func (e *Engine) sources(rules []*Rule) []*Source {
	sources := make([]*Source, 0, len(e.libs)+len(rules))
	sources = append(sources, e.libs...)
	for _, r := range rules {
		sources = append(sources, r.Source)
	}
	return sources
}

// compileSources parses and compiles modules.
func compileSources(sources []*Source) (*ast.Compiler, error) {
	modules, err := parseSources(sources)
	if err != nil {
		return nil, err
	}
	compiler := newCompiler(Capabilities())
	compiler.Compile(modules)
	if compiler.Failed() {
		return nil, compileError(compiler.Errors)
	}
	return compiler, nil
}

// loadFull reads the whole rule set's program from the cache, or compiles
// it again when the entry is gone or damaged.
func (e *Engine) loadFull() (*ast.Compiler, error) {
	if c := e.cache.loadProgram(e.key, Capabilities()); c != nil {
		return c, nil
	}
	c, err := compileSources(e.sources(e.rules))
	if err == nil {
		e.cache.storeProgram(e.key, c, c.Modules)
	}
	return c, err
}

// program is the compiled program that runs the rules todo (indices into
// e.rules), computed once per set of rules. With a cache, the first set's
// is the program of those rules alone, read from the cache: a run on one
// spec reads no more. Once inputs of a second set come (a folder of
// OpenAPI 2.0 and 3.1 specs, say), every set is run by the whole rule
// set's program, read once, rather than by a program each, whose memory
// would add up. The first time a set is met, the program of its rules is
// derived from the whole one and stored for later runs.
func (e *Engine) program(todo []int) (*ast.Compiler, error) {
	if e.cache == nil || len(todo) == len(e.rules) {
		return e.full()
	}
	var sig strings.Builder
	for _, i := range todo {
		sig.WriteString(strconv.Itoa(i))
		sig.WriteByte(',')
	}
	e.mu.Lock()
	load, ok := e.programs[sig.String()]
	if !ok {
		if len(e.programs) == 0 {
			load = sync.OnceValues(func() (*ast.Compiler, error) { return e.loadSubset(todo) })
		} else {
			// The first set's own program is let go once its
			// evaluations end.
			for s := range e.programs {
				e.programs[s] = e.full
			}
			load = sync.OnceValues(func() (*ast.Compiler, error) { return e.fullFor(todo, e.subsetKey(todo), false) })
		}
		e.programs[sig.String()] = load
	}
	e.mu.Unlock()
	return load()
}

// loadSubset reads the program of the rules todo, a set smaller than the
// engine's, or runs them with the whole program (see fullFor).
func (e *Engine) loadSubset(todo []int) (*ast.Compiler, error) {
	key := e.subsetKey(todo)
	if c := e.cache.loadProgram(key, Capabilities()); c != nil {
		return c, nil
	}
	return e.fullFor(todo, key, true)
}

// fullFor is the whole program, which runs the rules todo; their own
// program (the cache entry key) is derived from it and stored for later
// runs when the cache does not have it, or has it damaged (rewrite).
func (e *Engine) fullFor(todo []int, key string, rewrite bool) (*ast.Compiler, error) {
	full, err := e.full()
	if err != nil {
		return nil, err
	}
	if rewrite || !e.cache.has(key) {
		if modules := subsetModules(full.Modules, e.libs, e.subset(todo)); modules != nil {
			e.cache.storeProgram(key, full, modules)
		}
	}
	return full, nil
}

func (e *Engine) subset(todo []int) []*Rule {
	rules := make([]*Rule, len(todo))
	for n, i := range todo {
		rules[n] = e.rules[i]
	}
	return rules
}

// subsetKey names the cache entry of the program of the rules todo.
func (e *Engine) subsetKey(todo []int) string {
	return e.cache.key("rules", e.sources(e.subset(todo)))
}

// subsetModules are the compiled modules of libs and rules, or nil when
// one of them refers to a rule outside the subset: a rule may read
// another's values, which must then be compiled in.
func subsetModules(compiled map[string]*ast.Module, libs []*Source, rules []*Rule) map[string]*ast.Module {
	kept := map[string]bool{}
	for _, r := range rules {
		kept[r.ID] = true
	}
	out := make(map[string]*ast.Module, len(libs)+len(rules))
	keep := func(file string) bool {
		m := compiled[file]
		out[file] = m
		return m != nil && !readsOtherRules(m, kept)
	}
	for _, s := range libs {
		if !keep(s.File) {
			return nil
		}
	}
	for _, r := range rules {
		if !keep(r.Source.File) {
			return nil
		}
	}
	return out
}

// rulesRoot is data.specgate.rules, under which every rule's package is.
var rulesRoot = ast.MustParseRef("data.specgate.rules")

// readsOtherRules tells whether m refers to the values of a rule not in
// kept, or may: data.specgate.rules[x], data.specgate[x] and the like
// choose a tree at evaluation, and data.specgate.rules holds every rule.
func readsOtherRules(m *ast.Module, kept map[string]bool) bool {
	found := false
	ast.WalkRefs(m, func(ref ast.Ref) bool {
		found = found || readsRules(ref, kept)
		return found
	})
	return found
}

func readsRules(ref ast.Ref, kept map[string]bool) bool {
	if !ref[0].Equal(ast.DefaultRootDocument) {
		return false
	}
	for i := 1; i < len(ref); i++ {
		s, ok := ref[i].Value.(ast.String)
		switch {
		case !ok:
			return true // a tree chosen at evaluation
		case i == len(rulesRoot):
			return !kept[string(s)]
		case rulesRoot[i].Value.Compare(s) != 0:
			return false // another tree
		}
	}
	return true // data, data.specgate or data.specgate.rules itself
}

// resultVar is the variable a rule's query binds its violations to.
var resultVar = ast.Var("violations")

// ruleQuery is `violations = data.specgate.rules[id].violations`: a query
// evaluated by topdown directly. Every rule would otherwise be a prepared
// query of OPA's rego package, which compiles each query (a few
// milliseconds for the rule set at every start) and converts every result
// to Go values.
func ruleQuery(id string) ast.Body {
	ref := ast.Ref{ast.DefaultRootDocument, ast.StringTerm("specgate"), ast.StringTerm("rules"), ast.StringTerm(id), ast.StringTerm("violations")}
	return ast.NewBody(ast.Equality.Expr(ast.NewTerm(resultVar), ast.NewTerm(ref)))
}

// maxWorkers bounds the number of rules evaluated at once.
const maxWorkers = 8

func newCompiler(caps *ast.Capabilities) *ast.Compiler {
	return ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(false).
		WithStageAfterID(ast.StageResolveRefs, inlineStage)
}

// parseSources parses modules on every core; the first error wins.
func parseSources(sources []*Source) (map[string]*ast.Module, error) {
	var wg sync.WaitGroup
	next := make(chan *Source)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for s := range next {
				s.Module() //nolint:errcheck // read below
			}
		})
	}
	for _, s := range sources {
		next <- s
	}
	close(next)
	wg.Wait()
	modules := make(map[string]*ast.Module, len(sources))
	for _, s := range sources {
		m, err := s.Module()
		if err != nil {
			return nil, err
		}
		modules[s.File] = m
	}
	return modules, nil
}

// CompileError lists Rego compile errors with their file:line:col.
type CompileError struct{ Errors ast.Errors }

func (e *CompileError) Error() string {
	msgs := make([]string, len(e.Errors))
	for i, err := range e.Errors {
		if err.Location != nil {
			msgs[i] = fmt.Sprintf("%s:%d:%d: %s", err.Location.File, err.Location.Row, err.Location.Col, err.Message)
		} else {
			msgs[i] = err.Message
		}
	}
	return strings.Join(msgs, "\n")
}

// compileError explains the use of a denied builtin, which OPA reports as
// an undefined function.
func compileError(errs ast.Errors) error {
	for _, e := range errs {
		name, ok := strings.CutPrefix(e.Message, "undefined function ")
		if reason := deniedBuiltins[name]; ok && reason != "" {
			e.Message += ": rules run sandboxed and cannot reach " + reason
		}
	}
	return &CompileError{Errors: errs}
}

// Rules returns the rules the engine runs.
func (e *Engine) Rules() []*Rule { return e.rules }

// Eval runs the rules that apply to the input's formats over one input
// value and returns the violations, ordered by rule then path. Rules are
// evaluated in parallel, each core taking rules from a ruleQueue, and share
// the values of the library rules and functions they compute (see
// sharedValues).
func (e *Engine) Eval(ctx context.Context, input ast.Value) ([]Violation, error) {
	vs, _, err := e.eval(ctx, input, false)
	return vs, err
}

// RuleTime is what one rule's evaluation of one input took.
type RuleTime struct {
	Rule     string
	Time     time.Duration // the rule's query, on the core that ran it
	Findings int
	// Shared is the part of Time spent computing library values (rules
	// of the libraries under data.specgate.lib) that other rules read as
	// well: the first rule to need such a value computes it, and the
	// rules after it read it for free.
	Shared time.Duration
	// Values are the library values the rule computed, slowest first,
	// each with its time (a value's time includes the values it needed).
	Values []ValueTime
}

// ValueTime is the time a library value took to compute.
type ValueTime struct {
	Value string // its reference, such as data.specgate.lib.pagination._users
	Time  time.Duration
}

// EvalTimed is Eval that also reports what each rule that ran took,
// slowest first. The rules run as Eval runs them, in parallel and sharing
// library values; timing them costs two clock readings per rule, and one
// per library value computed.
func (e *Engine) EvalTimed(ctx context.Context, input ast.Value) ([]Violation, []RuleTime, error) {
	return e.eval(ctx, input, true)
}

// clockKey is the context key of WithClock's clock.
type clockKey struct{}

// WithClock makes EvalTimed read now instead of the wall clock, which
// measures time from any fixed moment. It is meant for measuring rules on
// a busy machine, where a rule's wall time is mostly time spent waiting
// for a core: with one core (GOMAXPROCS 1), the process's CPU time is the
// time of the rule that runs.
func WithClock(ctx context.Context, now func() time.Duration) context.Context {
	return context.WithValue(ctx, clockKey{}, now)
}

// clockOf is the clock of WithClock, else the wall clock.
func clockOf(ctx context.Context) func() time.Duration {
	if now, ok := ctx.Value(clockKey{}).(func() time.Duration); ok {
		return now
	}
	start := time.Now()
	return func() time.Duration { return time.Since(start) }
}

func (e *Engine) eval(ctx context.Context, input ast.Value, timed bool) ([]Violation, []RuleTime, error) {
	if e.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.timeout)
		defer cancel()
	}
	todo := e.applicable(inputFormats(input))
	compiler, err := e.program(todo)
	if err != nil {
		return nil, nil, err
	}
	results := make([][]Violation, len(e.rules))
	var times []RuleTime
	var clock func() time.Duration
	if timed {
		times = make([]RuleTime, len(e.rules))
		clock = clockOf(ctx)
	}
	schemas := schemaCache(ctx) // builtins' compiled patterns, shared by every rule
	values := &sharedValues{cache: topdown.NewVirtualCache()}
	ctx = context.WithValue(ctx, stateKey{}, newEvalState())
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	// Queries check their Cancel, not the context: cancel them all when
	// the context ends (the time limit, or a rule's error).
	cancel := topdown.NewCancel()
	context.AfterFunc(ctx, cancel.Cancel)
	var wg sync.WaitGroup
	workers := e.Workers(len(todo))
	queue := newRuleQueue(len(todo), workers)
	running := make([]int, workers) // 1 + the rule each worker evaluates; 0 between rules
	for w := range workers {
		wg.Go(func() {
			txn, err := e.store.NewTransaction(ctx)
			if err != nil {
				stop(err)
				return
			}
			defer e.store.Abort(ctx, txn)
			run := &ruleRun{engine: e, compiler: compiler, input: ast.NewTerm(input), txn: txn, cancel: cancel, schemas: schemas, values: newWorkerValues(values, clock), segments: map[*ast.Term]any{}}
			for {
				n, ok := queue.take(w)
				if !ok || ctx.Err() != nil {
					return
				}
				i := todo[n]
				running[w] = i + 1
				var began time.Duration
				if timed {
					began = run.values.clock()
				}
				if results[i], err = run.eval(ctx, i); err != nil {
					stop(err)
					return
				}
				if timed {
					times[i] = run.values.ruleTime(e.rules[i].ID, run.values.clock()-began, len(results[i]))
				}
				running[w] = 0
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		var te *topdown.Error
		if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &te) && te.Code == topdown.CancelErr) {
			// The rules a worker was still in when the time ran out.
			var stopped []string
			for _, r := range running {
				if r > 0 {
					stopped = append(stopped, e.rules[r-1].ID)
				}
			}
			slices.Sort(stopped)
			if len(stopped) == 0 {
				return nil, nil, fmt.Errorf("%w (%s)", ErrTimeout, e.timeout)
			}
			return nil, nil, fmt.Errorf("%w (%s) while running %s", ErrTimeout, e.timeout, strings.Join(stopped, ", "))
		}
		return nil, nil, err
	}
	var out []Violation
	for _, vs := range results {
		out = append(out, vs...)
	}
	// Within a rule, violations keep OPA's order (by value); across rules,
	// the order is by id, whatever order the rules were given in.
	slices.SortStableFunc(out, func(a, b Violation) int { return strings.Compare(a.Rule, b.Rule) })
	if !timed {
		return out, nil, nil
	}
	ran := make([]RuleTime, 0, len(todo))
	for _, i := range todo {
		ran = append(ran, times[i])
	}
	slices.SortStableFunc(ran, func(a, b RuleTime) int { return cmp.Compare(b.Time, a.Time) })
	return out, ran, nil
}

// Workers is the number of rules an evaluation of n rules runs at once:
// one per core, up to a bound.
func (e *Engine) Workers(n int) int { return min(runtime.GOMAXPROCS(0), maxWorkers, n) }

// Prepare reads or compiles, ahead of Eval, the program that evaluating
// an input of these formats (spec.Document.FormatTags) needs; Eval would
// do it on first use.
func (e *Engine) Prepare(formats []string) error {
	_, err := e.program(e.applicable(formats))
	return err
}

// applicable are the indices of the rules that apply to an input of
// these formats.
func (e *Engine) applicable(formats []string) []int {
	var todo []int
	for i, r := range e.rules {
		if len(r.Formats) == 0 || r.AppliesTo(formats) {
			todo = append(todo, i)
		}
	}
	return todo
}

// inputFormats reads the input's format tags.
func inputFormats(input ast.Value) []string {
	obj, ok := input.(ast.Object)
	if !ok {
		return nil
	}
	arr := arrayField(obj, "formats")
	if arr == nil {
		return nil
	}
	out := make([]string, 0, arr.Len())
	for i := range arr.Len() {
		if s, ok := arr.Elem(i).Value.(ast.String); ok {
			out = append(out, string(s))
		}
	}
	return out
}

// arrayField is obj[key] when it is an array, else nil.
func arrayField(obj ast.Object, key string) *ast.Array {
	if t := obj.Get(ast.InternedTerm(key)); t != nil {
		if arr, ok := t.Value.(*ast.Array); ok {
			return arr
		}
	}
	return nil
}

// ruleQueue hands out the rules of one evaluation (positions in its list,
// which the linter orders by id) to its workers. Worker w starts at the
// start of the w-th of as many equal parts of the list and takes the rules
// after it in turn, skipping those taken, and wrapping around at the end.
//
// Rules whose ids share a prefix mostly share library values too (the
// page-* rules the pagination library's, the response-* rules the
// responses'), and the first rule to need such a value computes it (see
// sharedValues). Had every worker taken the next rule of one list, two
// neighbours would start at once and both compute the value their family
// shares: on kubernetes.json five library values were computed twice in
// every run, the pagination's among them. Worker by worker, a family is
// mostly one worker's, and its values are computed once (in-process and
// without collections, kubernetes.json's evaluation is 7% and stripe.yaml's
// 12% faster on two cores; whole runs, 3–5%).
type ruleQueue struct {
	taken []atomic.Bool
	next  []int // per worker, the position it looks at next
}

func newRuleQueue(rules, workers int) *ruleQueue {
	q := &ruleQueue{taken: make([]atomic.Bool, rules), next: make([]int, workers)}
	for w := range workers {
		q.next[w] = w * rules / workers
	}
	return q
}

// take is the position of worker w's next rule; false when every rule
// has been taken. Each worker calls it for itself only.
func (q *ruleQueue) take(w int) (int, bool) {
	n := len(q.taken)
	for range n {
		i := q.next[w]
		q.next[w] = (i + 1) % n
		if q.taken[i].CompareAndSwap(false, true) {
			return i, true
		}
	}
	return 0, false
}

// ruleRun is what a worker evaluates its rules with.
type ruleRun struct {
	engine   *Engine
	compiler *ast.Compiler
	input    *ast.Term
	txn      storage.Transaction
	cancel   topdown.Cancel
	schemas  cache.InterQueryValueCache
	values   *workerValues
	segments map[*ast.Term]any // the boxed segments of findings' paths (see decodeViolation)
}

func (r *ruleRun) eval(ctx context.Context, i int) ([]Violation, error) {
	e := r.engine
	r.values.nextRule()
	rs, err := topdown.NewQuery(e.queries[i]).
		WithCompiler(r.compiler).
		WithStore(e.store).
		WithTransaction(r.txn).
		WithInput(r.input).
		WithCancel(r.cancel).
		WithInterQueryBuiltinValueCache(r.schemas).
		WithVirtualCache(r.values).
		Run(ctx)
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	id := e.rules[i].ID
	var out []Violation
	add := func(v *ast.Term) { out = append(out, decodeViolation(id, v.Value, r.segments)) }
	switch vs := rs[0][resultVar].Value.(type) {
	case ast.Set:
		vs.Foreach(add)
	case *ast.Array: // violations := [...]
		vs.Foreach(add)
	default:
		return []Violation{{Rule: id, Message: fmt.Sprintf("rule %s: violations is not a set but %s", id, ast.ValueName(vs))}}, nil
	}
	return out, nil
}

// The keys of a finding's object.
var messageKey, fileKey, findingPathKey = ast.StringTerm("message"), ast.StringTerm("file"), ast.StringTerm("path")

// decodeViolation reads {"path": [...], "message": "...", "file"?: "..."}.
// A malformed violation is kept, with a message saying what is wrong with
// it, rather than dropped.
//
// The segments of paths are mostly the same few terms, the input's keys
// and the rules' constants, in finding after finding (stripe.yaml has
// 13,000 findings of 10 segments): boxed is where each string term is
// boxed once, by the term.
func decodeViolation(id string, v ast.Value, boxed map[*ast.Term]any) Violation {
	out := Violation{Rule: id}
	obj, ok := v.(ast.Object)
	if !ok {
		out.Message = fmt.Sprintf("rule %s returned a violation that is not an object: %v", id, v)
		return out
	}
	str := func(key *ast.Term) string {
		s, _ := valueOf(obj, key).(ast.String)
		return string(s)
	}
	out.Message, out.File = str(messageKey), str(fileKey)
	if out.Message == "" {
		out.Message = fmt.Sprintf("rule %s returned a violation without a message", id)
	}
	out.Path = []any{}
	raw, ok := valueOf(obj, findingPathKey).(*ast.Array)
	if !ok {
		return out
	}
	out.Path = make([]any, 0, raw.Len())
	for i := range raw.Len() {
		t := raw.Elem(i)
		switch s := t.Value.(type) {
		case ast.String:
			seg, ok := boxed[t]
			if !ok {
				seg = string(s)
				boxed[t] = seg
			}
			out.Path = append(out.Path, seg)
		case ast.Number:
			if n, ok := s.Int(); ok {
				out.Path = append(out.Path, n)
			}
		}
	}
	return out
}

// sharedValues holds the values of rules and function calls that the
// rules of one evaluation compute, so that a library value many rules
// need (say, every schema the API receives) is computed once: by the
// first rule to reach it, or by two at once if they reach it at the same
// time. Values depend on the input and the rules only, which every rule's
// query shares. OPA caches a rule's first value as soon as one body yields
// it (a conflicting second value aborts the evaluation), so a value read
// from here is final.
type sharedValues struct {
	mu    sync.RWMutex
	cache topdown.VirtualCache
}

// workerValues is one worker's view of the shared values: a cache of its
// own in front of the shared one, so that a value is read under the lock
// once per rule. Only the values of libraries are shared: a rule's own
// values (its violations, its helpers) and the values of function calls
// are kept by the worker alone, and for one rule only. No other rule
// reads a rule's values, and most calls are of arguments no other rule
// passes (a finding's path and message, one rule's test of one schema):
// the lock would cost more than they do, and kept for the whole
// evaluation they would hold memory until its end (function values 5–10
// MiB of the peak of a large spec, rules' values as much again). Inside a
// `with` modifier, whose values hold only under it, the worker
// keeps frames of its own, as OPA's default cache does.
type workerValues struct {
	shared *sharedValues
	own    topdown.VirtualCache
	depth  int // of `with` frames

	// With timings (see EvalTimed), the clock, the library values the
	// current rule is computing, innermost last, and those it has
	// computed.
	clock     func() time.Duration
	computing []computing
	computed  []computed
}

// computing is a library value being computed: OPA looked for it in the
// cache at start, and puts it there once it is known.
type computing struct {
	key   string
	start time.Duration
}

type computed struct {
	key        string
	start, end time.Duration
}

// newWorkerValues makes a worker's view of shared; with a clock, it times
// the library values its rules compute.
func newWorkerValues(shared *sharedValues, clock func() time.Duration) *workerValues {
	return &workerValues{shared: shared, own: topdown.NewVirtualCache(), clock: clock}
}

// nextRule forgets what the previous rule computed: rule values are read
// again from the shared cache, function values computed again.
func (c *workerValues) nextRule() {
	c.own = topdown.NewVirtualCache()
	c.depth = 0
	c.computing, c.computed = c.computing[:0], nil
}

// ruleTime is the RuleTime of the rule that has just run in time t. Its
// shared time is the time covered by the computations of library values,
// which nest when one value needs another.
func (c *workerValues) ruleTime(rule string, t time.Duration, findings int) RuleTime {
	rt := RuleTime{Rule: rule, Time: t, Findings: findings}
	slices.SortFunc(c.computed, func(a, b computed) int { return cmp.Compare(a.start, b.start) })
	var end time.Duration
	for _, v := range c.computed {
		rt.Values = append(rt.Values, ValueTime{Value: v.key, Time: v.end - v.start})
		rt.Shared += max(v.end, end) - max(v.start, end)
		end = max(end, v.end)
	}
	slices.SortStableFunc(rt.Values, func(a, b ValueTime) int { return cmp.Compare(b.Time, a.Time) })
	return rt
}

// lookedUp notes that a library value was not in the cache. OPA computes
// it next, or only probed for it: a probe is never put, and is forgotten
// when the value is looked up again or a value looked up before it is put.
func (c *workerValues) lookedUp(ref ast.Ref) {
	key := ref.String()
	c.computing = slices.DeleteFunc(c.computing, func(v computing) bool { return v.key == key })
	c.computing = append(c.computing, computing{key: key, start: c.clock()})
}

// put notes that a library value is known.
func (c *workerValues) put(ref ast.Ref) {
	key := ref.String()
	for i := len(c.computing) - 1; i >= 0; i-- {
		if c.computing[i].key == key {
			c.computed = append(c.computed, computed{key: key, start: c.computing[i].start, end: c.clock()})
			c.computing = c.computing[:i]
			return
		}
	}
}

func (c *workerValues) Push() {
	c.own.Push()
	c.depth++
}

func (c *workerValues) Pop() {
	c.own.Pop()
	c.depth--
}

func (c *workerValues) Get(ref ast.Ref) (*ast.Term, bool) {
	if v, undefined := c.own.Get(ref); v != nil || undefined || c.depth > 0 || !isLibraryRef(ref) {
		return v, undefined
	}
	c.shared.mu.RLock()
	v, undefined := c.shared.cache.Get(ref)
	c.shared.mu.RUnlock()
	if v != nil || undefined {
		c.own.Put(ref, v)
	} else if c.clock != nil {
		c.lookedUp(ref)
	}
	return v, undefined
}

func (c *workerValues) Put(ref ast.Ref, value *ast.Term) {
	c.own.Put(ref, value)
	if c.depth == 0 && isLibraryRef(ref) {
		c.shared.mu.Lock()
		c.shared.cache.Put(ref, value)
		c.shared.mu.Unlock()
		if c.clock != nil {
			c.put(ref)
		}
	}
}

func (c *workerValues) Keys() []ast.Ref { return c.own.Keys() }

// isLibraryRef reports whether ref names the value of a rule of a library
// (data.specgate.lib.x.y), not of a rule's package (under
// data.specgate.rules) nor a function call's (data.a.f plus its arguments,
// most of them not strings).
func isLibraryRef(ref ast.Ref) bool {
	// A call's key is the function's ref as one term, then its arguments.
	if f, ok := ref[0].Value.(ast.Ref); ok && f.HasPrefix(rulesRoot) || ref.HasPrefix(rulesRoot) {
		return false
	}
	for _, t := range ref[1:] {
		if _, ok := t.Value.(ast.String); !ok {
			return false
		}
	}
	return true
}

// schemaCacheSize bounds the compiled patterns kept during one
// evaluation.
const schemaCacheSize = 512

// schemaCache is a cache for one evaluation in which OPA's builtins keep
// what they compile (regular expressions and glob patterns), so a pattern
// used on many values is compiled once. JSON schemas are compiled and
// cached by specgate's own schema builtins (policy/dsl).
func schemaCache(ctx context.Context) cache.InterQueryValueCache {
	n := schemaCacheSize
	return cache.NewInterQueryValueCache(ctx, &cache.Config{
		InterQueryBuiltinValueCache: cache.InterQueryBuiltinValueCacheConfig{MaxNumEntries: &n},
	})
}
