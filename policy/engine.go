package policy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
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
	queries []rego.PreparedEvalQuery // one per shard, evaluated in parallel
	timeout time.Duration
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
// compiled program, with one prepared query per shard of the rules (see
// shard) gathering their violations; each rule is guarded by the formats
// it declares so that the queries serve every document.
// With a cache, a rule set compiled before is read back instead of being
// parsed and compiled again.
func Compile(ctx context.Context, rules []*Rule, libs []*Source, timeout time.Duration, cache *Cache) (*Engine, error) {
	sources := make([]*Source, 0, len(libs)+len(rules)+1)
	sources = append(sources, libs...)
	for _, r := range rules {
		sources = append(sources, r.Source)
	}
	shards := shard(rules)
	sources = append(sources, &Source{File: "specgate/run.rego", Text: aggregator(shards)})

	caps := Capabilities()
	var key string
	var compiler *ast.Compiler
	if cache != nil {
		key = cache.key("rules", sources)
		compiler = cache.loadProgram(key, caps)
	}
	if compiler == nil {
		modules, err := parseSources(sources)
		if err != nil {
			return nil, err
		}
		compiler = newCompiler(caps)
		compiler.Compile(modules)
		if compiler.Failed() {
			return nil, compileError(compiler.Errors)
		}
		cache.storeProgram(key, compiler.Modules)
	}
	e := &Engine{rules: rules, timeout: timeout}
	for k := range len(shards) {
		q, err := rego.New(
			rego.Compiler(compiler),
			rego.Query(fmt.Sprintf("data.specgate.run.shard_%d", k)),
			rego.Capabilities(caps),
		).PrepareForEval(ctx)
		if err != nil {
			return nil, err
		}
		e.queries = append(e.queries, q)
	}
	return e, nil
}

// maxShards bounds the number of queries a rule set is split into.
const maxShards = 8

// shard splits the rules into one group per core (at most maxShards),
// dealt in turn, so that a document's rules run on every core. Each
// group is one query: rules of a group share the values their libraries
// compute, which groups compute each for themselves.
func shard(rules []*Rule) [][]*Rule {
	n := min(runtime.GOMAXPROCS(0), maxShards, max(len(rules), 1))
	out := make([][]*Rule, n)
	for i, r := range rules {
		out[i%n] = append(out[i%n], r)
	}
	return out
}

func newCompiler(caps *ast.Capabilities) *ast.Compiler {
	return ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(false)
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

// aggregator generates the module that collects, for each shard, the
// [rule id, violation] pairs of its rules that apply to the input's
// formats.
func aggregator(shards [][]*Rule) string {
	var b strings.Builder
	b.WriteString("package specgate.run\n\n")
	for k, rules := range shards {
		if len(rules) == 0 {
			fmt.Fprintf(&b, "shard_%d := set()\n\n", k)
		}
		for _, r := range rules {
			fmt.Fprintf(&b, "shard_%d contains [%q, v] if {\n", k, r.ID)
			if len(r.Formats) > 0 {
				b.WriteString("\tsome f in input.formats\n\tf in {")
				for i, f := range r.Formats {
					if i > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, "%q", f)
				}
				b.WriteString("}\n")
			}
			fmt.Fprintf(&b, "\tsome v in data.specgate.rules[%q].violations\n}\n\n", r.ID)
		}
	}
	return b.String()
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

// Eval runs every rule over one input value and returns the violations,
// ordered by rule then path. The shards run in parallel.
func (e *Engine) Eval(ctx context.Context, input ast.Value) ([]Violation, error) {
	if e.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.timeout)
		defer cancel()
	}
	results := make([][]Violation, len(e.queries))
	errs := make([]error, len(e.queries))
	schemas := schemaCache(ctx) // shared: shards often validate against the same schemas
	ctx = context.WithValue(ctx, stateKey{}, newEvalState())
	var wg sync.WaitGroup
	for k := range e.queries {
		wg.Go(func() { results[k], errs[k] = e.evalShard(ctx, k, input, schemas) })
	}
	wg.Wait()
	var out []Violation
	for k := range results {
		if errs[k] != nil {
			var te *topdown.Error
			if errors.Is(ctx.Err(), context.DeadlineExceeded) || (errors.As(errs[k], &te) && te.Code == topdown.CancelErr) {
				return nil, fmt.Errorf("%w (%s)", ErrTimeout, e.timeout)
			}
			return nil, errs[k]
		}
		out = append(out, results[k]...)
	}
	// Each rule is in one shard, in OPA's order there (by path): ordering
	// by rule gives the order of a single query.
	slices.SortStableFunc(out, func(a, b Violation) int { return strings.Compare(a.Rule, b.Rule) })
	return out, nil
}

func (e *Engine) evalShard(ctx context.Context, k int, input ast.Value, schemas cache.InterQueryValueCache) ([]Violation, error) {
	rs, err := e.queries[k].Eval(ctx, rego.EvalParsedInput(input), rego.EvalInterQueryBuiltinValueCache(schemas))
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 || len(rs[0].Expressions) == 0 {
		return nil, nil
	}
	set, ok := rs[0].Expressions[0].Value.([]any)
	if !ok {
		return nil, fmt.Errorf("internal error: unexpected result %T", rs[0].Expressions[0].Value)
	}
	out := make([]Violation, 0, len(set))
	for _, item := range set {
		pair, ok := item.([]any)
		if !ok || len(pair) != 2 {
			continue
		}
		id, _ := pair[0].(string)
		out = append(out, decodeViolation(id, pair[1]))
	}
	return out, nil
}

// decodeViolation reads {"path": [...], "message": "...", "file"?: "..."}.
// A malformed violation is kept, with a message saying what is wrong with
// it, rather than dropped.
func decodeViolation(id string, v any) Violation {
	out := Violation{Rule: id}
	obj, ok := v.(map[string]any)
	if !ok {
		out.Message = fmt.Sprintf("rule %s returned a violation that is not an object: %v", id, v)
		return out
	}
	out.Message, _ = obj["message"].(string)
	if out.Message == "" {
		out.Message = fmt.Sprintf("rule %s returned a violation without a message", id)
	}
	out.File, _ = obj["file"].(string)
	raw, _ := obj["path"].([]any)
	out.Path = make([]any, 0, len(raw))
	for _, seg := range raw {
		switch s := seg.(type) {
		case string:
			out.Path = append(out.Path, s)
		case json.Number:
			if i, err := strconv.Atoi(string(s)); err == nil {
				out.Path = append(out.Path, i)
			}
		case float64:
			out.Path = append(out.Path, int(s))
		}
	}
	return out
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
