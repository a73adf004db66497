package policy

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/cache"
)

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
// evaluation they would hold memory until its end. Inside a
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
