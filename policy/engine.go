package policy

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/specgate/specgate/policy/input"
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
	// readers tells, per program, which rules may read the document (see
	// readersFirst).
	readers map[*ast.Compiler][]bool
	// members are, per program, the input members each rule may read
	// (see InputMembers).
	members map[*ast.Compiler][]input.Members
	// memberSets are the input members of the rule sets InputMembers
	// answered for, by their cache entry.
	memberSets map[string]input.Members
}

// ErrTimeout is returned (wrapped) when an evaluation exceeds its time
// limit; the violations found so far are not returned, since they would be
// incomplete without saying so.
var ErrTimeout = errors.New("rule evaluation exceeded its time limit")

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
	if c := e.cache.loadProgram(e.key); c != nil {
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
	if c := e.cache.loadProgram(key); c != nil {
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

// Rules returns the rules the engine runs.
func (e *Engine) Rules() []*Rule { return e.rules }
