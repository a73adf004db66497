package policy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/cache"

	"github.com/specgate/specgate/policy/builtins"
	"github.com/specgate/specgate/spec"
)

// resultVar is the variable a rule's query binds its violations to.
var resultVar = ast.Var("violations")

// ruleQuery is `violations = data.specgate.rules[id].violations`: a query
// evaluated by topdown directly. Every rule would otherwise be a prepared
// query of OPA's rego package, which compiles each query (a few
// milliseconds for the rule set at every start) and converts every result
// to Go values.
func ruleQuery(id string) ast.Body {
	return ast.NewBody(ast.Equality.Expr(ast.NewTerm(resultVar), ast.NewTerm(violationsRef(id))))
}

// violationsRef is data.specgate.rules[id].violations.
func violationsRef(id string) ast.Ref {
	return ast.Ref{ast.DefaultRootDocument, ast.StringTerm("specgate"), ast.StringTerm("rules"), ast.StringTerm(id), ast.StringTerm("violations")}
}

// maxWorkers bounds the number of rules evaluated at once.
const maxWorkers = 8

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
	release, _ := ctx.Value(releaseKey{}).(func())
	phases := [][]int{todo}
	if release != nil {
		// The rules that read the document run first; the rest run once
		// it is let go. Both share the library values.
		readers, rest := e.readersFirst(compiler, todo)
		phases = [][]int{readers, rest}
	}
	ctx = builtins.WithEvaluation(ctx)
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	// Queries check their Cancel, not the context: cancel them all when
	// the context ends (the time limit, or a rule's error).
	cancel := topdown.NewCancel()
	context.AfterFunc(ctx, cancel.Cancel)
	workers := e.Workers(len(todo))
	running := make([]int, workers) // 1 + the rule each worker evaluates; 0 between rules
	for p, phase := range phases {
		if p > 0 && ctx.Err() == nil {
			builtins.ForgetDocument(ctx)
			release()
		}
		if ctx.Err() != nil {
			break
		}
		var wg sync.WaitGroup
		queue := newRuleQueue(len(phase), workers)
		for w := range min(workers, len(phase)) {
			wg.Go(func() {
				txn, err := e.store.NewTransaction(ctx)
				if err != nil {
					stop(err)
					return
				}
				defer e.store.Abort(ctx, txn)
				run := &ruleRun{engine: e, compiler: compiler, input: ast.NewTerm(input), txn: txn, cancel: cancel, schemas: schemas, values: newWorkerValues(values, clock), segments: map[*ast.Term]any{}}
				defer run.release()
				for {
					n, ok := queue.take(w)
					if !ok || ctx.Err() != nil {
						return
					}
					i := phase[n]
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
	}
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
	// Within a rule, violations keep OPA's order (by value); across rules,
	// the order is by id, whatever order the rules were given in: the
	// rules' lists are joined in that order, which sorts a few hundred ids
	// instead of a large spec's hundred thousand violations. One allocation
	// of the whole size: grown by doubling, the list's old copies would
	// stay in the heap until the next collection, on top of a large spec's
	// peak.
	byID := slices.Clone(todo)
	slices.SortStableFunc(byID, func(a, b int) int { return strings.Compare(e.rules[a].ID, e.rules[b].ID) })
	ordered := make([][]Violation, len(byID))
	for n, i := range byID {
		ordered[n] = results[i]
	}
	out := slices.Concat(ordered...)
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

// releaseKey is the context key of WithDocumentReleased's release.
type releaseKey struct{}

// WithDocumentReleased is WithDocument for an evaluation that lets the
// document go part-way, so that a large document's node tree is not live
// beside the input while most rules run. The rules that may call a
// builtin that reads the document (builtins.DocumentReaders, directly or
// through the rules and functions they read) run first; then the
// evaluation forgets the document and calls release, where the caller
// lets go of its own references to it, and the other rules run. release
// is not called when the evaluation fails before that.
func WithDocumentReleased(ctx context.Context, doc *spec.Document, release func()) context.Context {
	return context.WithValue(WithDocument(ctx, doc), releaseKey{}, release)
}

// readersFirst splits the rules todo (indices into e.rules, in order)
// into those that may call a document-reading builtin and the others,
// each in order. What reads the document is found in the compiled
// program (see documentReaders), once per program.
func (e *Engine) readersFirst(compiler *ast.Compiler, todo []int) (readers, rest []int) {
	e.mu.Lock()
	reads, ok := e.readers[compiler]
	if !ok {
		reads = make([]bool, len(e.rules))
		reaches := documentReaders(compiler)
		for i, r := range e.rules {
			for _, rule := range compiler.GetRulesDynamicWithOpts(violationsRef(r.ID), ast.RulesOptions{}) {
				reads[i] = reads[i] || reaches(rule)
			}
		}
		if e.readers == nil {
			e.readers = map[*ast.Compiler][]bool{}
		}
		e.readers[compiler] = reads
	}
	e.mu.Unlock()
	for _, i := range todo {
		if reads[i] {
			readers = append(readers, i)
		} else {
			rest = append(rest, i)
		}
	}
	return readers, rest
}

// documentReaders tells, of a rule of the compiled program, whether its
// evaluation may call a builtin of builtins.DocumentReaders: its own body
// (or head, or else branches) calls one, or a rule or function it refers
// to may. A reference chosen at evaluation (data.x[y]) reaches every rule
// it could name.
func documentReaders(compiler *ast.Compiler) func(*ast.Rule) bool {
	calls := make([]ast.Ref, len(builtins.DocumentReaders))
	for i, name := range builtins.DocumentReaders {
		calls[i] = ast.MustParseRef(name)
	}
	memo := map[*ast.Rule]bool{}
	var reaches func(r *ast.Rule) bool
	reaches = func(r *ast.Rule) bool {
		if v, ok := memo[r]; ok {
			return v
		}
		memo[r] = false // Rego has no recursion; this ends a cycle all the same
		found := false
		ast.WalkRefs(r, func(ref ast.Ref) bool {
			if found {
				return true
			}
			for _, c := range calls {
				if ref.Equal(c) {
					found = true
					return true
				}
			}
			if ref[0].Equal(ast.DefaultRootDocument) {
				for _, dep := range compiler.GetRulesDynamicWithOpts(ref, ast.RulesOptions{}) {
					if dep != r && reaches(dep) {
						found = true
						return true
					}
				}
			}
			return false
		})
		memo[r] = found
		return found
	}
	return reaches
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
// shares. Worker by worker, a family is mostly one worker's, and its
// values are computed once.
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
	paths    segmentsSlab      // where the findings' paths are cut from
}

// release lets go of the input and the library values once the worker's
// rules have run. OPA's pools keep objects of the last queries (with
// their input and caches) until the second collection after, so without
// it a large spec's input outlived the evaluation by a collection: the
// memory the findings are located and reported in came on top of it.
func (r *ruleRun) release() {
	r.input.Value = ast.Null{} // the term is this worker's own, and no query reads it now
	r.values.own, r.values.shared = topdown.NewVirtualCache(), &sharedValues{cache: topdown.NewVirtualCache()}
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
	add := func(v *ast.Term) { out = append(out, decodeViolation(id, v.Value, r.segments, &r.paths)) }
	switch vs := rs[0][resultVar].Value.(type) {
	case ast.Set:
		out = make([]Violation, 0, vs.Len())
		vs.Foreach(add)
	case *ast.Array: // violations := [...]
		out = make([]Violation, 0, vs.Len())
		vs.Foreach(add)
	default:
		return []Violation{{Rule: id, Message: fmt.Sprintf("rule %s: violations is not a set but %s", id, ast.ValueName(vs))}}, nil
	}
	return out, nil
}

// pathSlab is the size, in segments, of the blocks findings' paths are cut
// from: a rule with ten thousand findings allocates a few blocks, not a
// path each.
const pathSlab = 4096

// segmentsSlab hands out the segments of findings' paths from blocks of
// pathSlab (a longer path gets one of its own).
type segmentsSlab []any

// take is an empty path of capacity n, which cannot grow into the next.
func (s *segmentsSlab) take(n int) []any {
	if n > pathSlab/4 {
		return make([]any, 0, n)
	}
	if cap(*s)-len(*s) < n {
		*s = make([]any, 0, pathSlab)
	}
	start := len(*s)
	*s = (*s)[:start+n]
	return (*s)[start : start : start+n]
}

// The keys of a finding's object.
var messageKey, fileKey, findingPathKey = ast.StringTerm("message"), ast.StringTerm("file"), ast.StringTerm("path")

// decodeViolation reads {"path": [...], "message": "...", "file"?: "..."}.
// A malformed violation is kept, with a message saying what is wrong with
// it, rather than dropped.
//
// The segments of paths are mostly the same few terms, the input's keys
// and the rules' constants, in finding after finding: boxed is where each
// string term is boxed once, by the term. The path is cut from paths.
func decodeViolation(id string, v ast.Value, boxed map[*ast.Term]any, paths *segmentsSlab) Violation {
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
	out.Path = paths.take(raw.Len())
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

// valueOf is obj[key], or nil.
func valueOf(obj ast.Object, key *ast.Term) ast.Value {
	if t := obj.Get(key); t != nil {
		return t.Value
	}
	return nil
}
