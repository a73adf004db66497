package apitest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// Options configure a run.
type Options struct {
	// Specs are the specs to test, in order.
	Specs []SpecSource
	// BaseURL is where the service answers (--testBaseURL). A base URL
	// without a path gets each operation's server prefix (its first
	// server's path, Swagger's basePath) before the operation's path; one
	// with a path replaces it, as a gateway's route does, and "/" is a
	// path: http://svc/ tests a service mounted at the root.
	BaseURL string
	// Examples are folders of external examples, read for every spec.
	Examples []string
	// Seed makes generated values reproducible: the same seed, spec and
	// examples send the same requests.
	Seed uint64
	// Filter and FilterNot select tests (see Filter): a test runs when it
	// matches Filter and not FilterNot.
	Filter, FilterNot string
	// MaxTests bounds the number of tests run (after filters and shard);
	// zero runs them all.
	MaxTests int
	// Negative adds the requests that break the contract in one place.
	Negative bool
	// Variations adds, for each operation with optional parameters, a
	// valid request that sends every one of them (specgate.yaml's
	// resiliencyTests positiveOnly).
	Variations bool
	// Expect are the statuses negative tests expect.
	Expect Expectations
	// Checks names the checks to run (nil: the default ones; "all": every
	// one); ExcludeChecks removes some.
	Checks, ExcludeChecks []string
	// Parallel is the number of tests in flight at once (at least 1).
	Parallel int
	// Shard runs one part of the tests.
	Shard Shard
	// Retry says how 429s are retried.
	Retry httpx.RetryPolicy
	// Timeout bounds each request when Client is nil (httpx.DefaultTimeout
	// when zero).
	Timeout time.Duration
	// StrictMode fails a test whose example names a variable that is not
	// set, instead of generating a value for it.
	StrictMode bool
	// Client sends the requests; nil makes one from the environment
	// (proxies) with Timeout.
	Client *http.Client
	// Getenv reads environment variables (credentials named after security
	// schemes, templates); nil reads the process environment.
	Getenv func(string) string
	// Loader loads the specs; nil uses a default loader.
	Loader *spec.Loader
	// Count counts the tests before the run starts, so that RunInfo.Total
	// (a progress bar's end) is known. It costs a pass over the plan
	// without generating any value.
	Count bool
	// KeepGoing leaves out a spec that cannot be tested (it does not load,
	// it has no base URL) and keeps its error in Plan.Left, instead of
	// failing NewPlan: one spec of specgate.yaml without an address is
	// that spec's error, not the whole run's. NewPlan still fails when no
	// spec is left.
	KeepGoing bool
}

// SpecSource is one spec to test and what belongs to it alone.
type SpecSource struct {
	Path string // a file, or an http(s) URL
	// Name names the spec in reports; Path when empty.
	Name string
	// BaseURL replaces Options.BaseURL for this spec.
	BaseURL string
	// Examples are folders of external examples of this spec, read before
	// Options.Examples.
	Examples []string
	// Credentials are the raw credentials (a token without "Bearer", an
	// API key, base64 of user:password) by security scheme name, as
	// specgate.yaml gives them.
	Credentials map[string]string
	// Filter selects this spec's tests, on top of Options.Filter.
	Filter string
	// Client replaces Options.Client for this spec (its own TLS).
	Client *http.Client
	// Check, when set, judges the loaded spec before any test runs (that
	// the configuration's security schemes are the spec's).
	Check func(doc *spec.Document) error
}

// Expectations are the statuses that negative tests expect: a correct
// service answers a request that breaks the contract with one of them,
// whether or not the spec documents it.
type Expectations struct {
	// InvalidData answers a missing required parameter or property, a
	// value of the wrong type or out of range (default 400 and 422).
	InvalidData []int
	// MediaType answers a body of a content type the operation does not
	// accept (default 415).
	MediaType []int
	// Method answers a method the path does not declare (default 405).
	Method []int
}

func (e Expectations) withDefaults() Expectations {
	if len(e.InvalidData) == 0 {
		e.InvalidData = []int{400, 422}
	}
	if len(e.MediaType) == 0 {
		e.MediaType = []int{415}
	}
	if len(e.Method) == 0 {
		e.Method = []int{405}
	}
	return e
}

// Plan is a prepared run: its specs loaded, their examples read and its
// options checked. Its tests are made one operation at a time as the run
// reads them, so that a spec of thousands of operations is never held
// as tests in memory.
type Plan struct {
	opts      Options
	specs     []*specPlan
	left      []error
	filter    *Filter
	filterNot *Filter
	checks    checkSet
	getenv    func(string) string
	expect    Expectations
}

// specPlan is one spec of a plan.
type specPlan struct {
	name     string
	doc      *spec.Document
	contract *contract.Contract
	schemas  *schema.Set
	ops      []*operation
	baseURL  *url.URL
	// fromServers is set when the base URL is the spec's first absolute
	// server, no other being given.
	fromServers bool
	filter      *Filter
	sender      *httpx.Sender
	creds       *credentials
	schemes     map[string]*spec.SecurityScheme
	// examples are the examples of each operation, inline and external.
	examples map[*spec.Operation][]*examples.Example
}

// operation is one operation of a spec, as the plan reads it.
type operation struct {
	spec  *specPlan
	op    *spec.Operation
	index int    // in specPlan.ops
	where string // file:line:col of the operation
	// allow lists the methods its path declares, upper case.
	allow []string
}

// NewPlan loads the specs and examples of opts and checks the options.
// Its error lists every problem found (a spec that does not load, a bad
// filter, an unknown check), each naming its file, line and column where
// there is one.
func NewPlan(ctx context.Context, opts Options) (*Plan, error) {
	p := &Plan{opts: opts, getenv: opts.Getenv, expect: opts.Expect.withDefaults()}
	if p.getenv == nil {
		p.getenv = os.Getenv
	}
	var errs []error
	var err error
	if p.filter, err = ParseFilter(opts.Filter); err != nil {
		errs = append(errs, fmt.Errorf("--filter: %w", err))
	}
	if p.filterNot, err = ParseFilter(opts.FilterNot); err != nil {
		errs = append(errs, fmt.Errorf("--filter-not: %w", err))
	}
	if p.checks, err = selectChecks(opts.Checks, opts.ExcludeChecks); err != nil {
		errs = append(errs, err)
	}
	if opts.MaxTests < 0 {
		errs = append(errs, fmt.Errorf("--max-tests must not be negative, found %d", opts.MaxTests))
	}
	if len(opts.Specs) == 0 {
		errs = append(errs, errors.New("no spec to test"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	loader := opts.Loader
	if loader == nil {
		loader = spec.NewLoader(spec.Options{})
	}
	client := opts.Client
	if client == nil && needsDefaultClient(opts.Specs) {
		if client, err = httpx.NewClient(httpx.ClientOptions{Timeout: opts.Timeout, Getenv: p.getenv}); err != nil {
			return nil, err
		}
	}
	unrouted := map[string]int{}
	unroutedEx := map[string]*examples.Example{}
	for _, src := range opts.Specs {
		sp, err := p.loadSpec(ctx, loader, src, client)
		if err != nil && opts.KeepGoing {
			p.left = append(p.left, err)
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.specs = append(p.specs, sp)
		left, exErrs := p.loadExamples(sp, src)
		errs = append(errs, exErrs...)
		for _, ex := range left {
			key := ex.File + "\x00" + ex.Name
			unrouted[key]++
			unroutedEx[key] = ex
		}
	}
	// An example no spec takes is an error; one some spec took is not,
	// when several specs share a folder.
	var lost []*examples.Example
	for key, n := range unrouted {
		if n == len(p.specs) {
			lost = append(lost, unroutedEx[key])
		}
	}
	sort.Slice(lost, func(i, j int) bool { return lost[i].Loc.String() < lost[j].Loc.String() })
	for _, ex := range lost {
		errs = append(errs, fmt.Errorf("%s: example %q: no operation of %s matches %s %s", ex.Loc, ex.Name, specNames(p.specs), ex.Request.Method, ex.Request.RawPath))
	}
	if len(p.specs) == 0 && len(p.left) > 0 {
		errs = append(p.left, errs...)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := p.checkSelection(); err != nil {
		return nil, err
	}
	return p, nil
}

// checkSelection refuses filters that select nothing, which would pass a
// CI run that tests nothing: a value of --filter that matches no test of
// any spec (a misspelt path), and filters that together leave no test.
// A shard or --max-tests that leaves none is not refused.
func (p *Plan) checkSelection() error {
	filtered := !p.filter.Empty() || !p.filterNot.Empty()
	for _, sp := range p.specs {
		filtered = filtered || !sp.filter.Empty()
	}
	if !filtered {
		return nil
	}
	var all []*Test
	selected := 0
	for _, sp := range p.specs {
		for _, o := range sp.ops {
			for _, t := range p.opTests(o) {
				all = append(all, t)
				if p.selects(sp, t) {
					selected++
				}
			}
		}
	}
	if msgs := p.filter.unmatched(all, specNames(p.specs)); len(msgs) > 0 {
		return fmt.Errorf("--filter %q: %s", p.filter, strings.Join(msgs, "; "))
	}
	for _, sp := range p.specs {
		var own []*Test
		for _, t := range all {
			if t.op.spec == sp {
				own = append(own, t)
			}
		}
		if msgs := sp.filter.unmatched(own, sp.name); len(msgs) > 0 {
			return fmt.Errorf("the filter %q of %s: %s", sp.filter, sp.name, strings.Join(msgs, "; "))
		}
	}
	if selected > 0 {
		return nil
	}
	var given []string
	if !p.filter.Empty() {
		given = append(given, fmt.Sprintf("--filter %q", p.filter))
	}
	if !p.filterNot.Empty() {
		given = append(given, fmt.Sprintf("--filter-not %q", p.filterNot))
	}
	for _, sp := range p.specs {
		if !sp.filter.Empty() {
			given = append(given, fmt.Sprintf("the filter %q of %s", sp.filter, sp.name))
		}
	}
	verb := "selects"
	if len(given) > 1 {
		verb = "together select"
	}
	tests := "tests"
	if len(all) == 1 {
		tests = "test"
	}
	return fmt.Errorf("%s %s none of the %d %s of %s", strings.Join(given, " and "), verb, len(all), tests, specNames(p.specs))
}

// Warnings are what a user should know before the run: for each spec,
// the security schemes its operations require that have no credential
// (none configured, none in the environment), whose placeholder is sent.
func (p *Plan) Warnings() []string {
	var out []string
	for _, sp := range p.specs {
		names := sp.creds.missing(sp)
		if len(names) == 0 {
			continue
		}
		var list []string
		for _, n := range names {
			list = append(list, fmt.Sprintf("%s (sending %q)", n, examples.PlaceholderCredential(sp.schemes[n])))
		}
		out = append(out, fmt.Sprintf("%s: no credential for security %s %s: %s", sp.name, english.Noun(len(names), "scheme", "schemes"), strings.Join(list, ", "), howToGiveCredentials(names)))
	}
	return out
}

// Left lists why each spec left out of the run (Options.KeepGoing) could
// not be tested.
func (p *Plan) Left() []error { return p.left }

func specNames(specs []*specPlan) string {
	names := make([]string, len(specs))
	for i, sp := range specs {
		names[i] = sp.name
	}
	return strings.Join(names, " or ")
}

func needsDefaultClient(specs []SpecSource) bool {
	for _, s := range specs {
		if s.Client == nil {
			return true
		}
	}
	return false
}

// loadSpec loads one spec and prepares its contract.
func (p *Plan) loadSpec(ctx context.Context, loader *spec.Loader, src SpecSource, client *http.Client) (*specPlan, error) {
	name := src.Name
	if name == "" {
		name = src.Path
	}
	doc, err := loader.Load(ctx, src.Path)
	if err != nil {
		return nil, err
	}
	var broken []string
	for _, r := range doc.Refs {
		if r.Err != nil {
			broken = append(broken, r.Err.Error())
		}
	}
	if len(broken) > 0 {
		if len(broken) > 3 {
			broken = append(broken[:3], fmt.Sprintf("and %d more unresolved $refs", len(broken)-3))
		}
		return nil, fmt.Errorf("%s cannot be tested: %s", name, strings.Join(broken, "; "))
	}
	if src.Check != nil {
		if err := src.Check(doc); err != nil {
			return nil, err
		}
	}
	if doc.Format != spec.OpenAPI && doc.Format != spec.Swagger {
		return nil, &spec.Error{File: doc.Root.Name, Msg: fmt.Sprintf("%s is %s: contract tests read OpenAPI 2.0 and 3.x specs", name, doc)}
	}
	base := src.BaseURL
	if base == "" {
		base = p.opts.BaseURL
	}
	fromServers := false
	if base == "" {
		if base = contract.ServerURL(doc); base == "" {
			return nil, fmt.Errorf("%s: no base URL: give --testBaseURL, the spec's baseUrl in specgate.yaml, or an absolute URL among the spec's servers", name)
		}
		fromServers = true
	}
	u, ok := httpx.ParseHTTPURL(base)
	if !ok {
		return nil, fmt.Errorf("base URL %q of %s is not an http(s) URL with a host", base, name)
	}
	doc.Views()
	schemas := schema.NewSet(doc)
	c, err := contract.New(doc, schemas, contract.Options{})
	if err != nil {
		return nil, err
	}
	sp := &specPlan{name: name, doc: doc, contract: c, schemas: schemas, baseURL: u, fromServers: fromServers, schemes: map[string]*spec.SecurityScheme{}}
	if sp.filter, err = ParseFilter(src.Filter); err != nil {
		return nil, fmt.Errorf("filter of %s: %w", name, err)
	}
	for _, s := range doc.Views().SecuritySchemes {
		sp.schemes[s.Name] = s
	}
	if sp.creds, err = resolveCredentials(sp, src.Credentials, p.getenv); err != nil {
		return nil, err
	}
	cl := src.Client
	if cl == nil {
		cl = client
	}
	sp.sender = &httpx.Sender{Client: cl, Retry: p.opts.Retry}
	paths := map[string][]string{}
	for _, op := range c.Operations() {
		paths[op.Path] = append(paths[op.Path], strings.ToUpper(op.Method))
	}
	for i, op := range c.Operations() {
		loc := doc.Locate(op.Source, nil)
		o := &operation{spec: sp, op: op, index: i, allow: paths[op.Path]}
		if loc.File != nil {
			o.where = fmt.Sprintf("%s:%d:%d", loc.File.Name, loc.Range.Start.Line, loc.Range.Start.Col)
		}
		sp.ops = append(sp.ops, o)
	}
	return sp, nil
}

// Tests yields the plan's tests in order, spec by spec and operation by
// operation, after the filters and the shard, at most MaxTests of them.
// Each test's request is made only when the test runs.
func (p *Plan) Tests() iter.Seq[*Test] {
	return func(yield func(*Test) bool) {
		n := 0
		for _, sp := range p.specs {
			for _, o := range sp.ops {
				for _, t := range p.opTests(o) {
					if !p.selects(sp, t) || !p.opts.Shard.Has(t) {
						continue
					}
					if p.opts.MaxTests > 0 && n >= p.opts.MaxTests {
						return
					}
					n++
					if !yield(t) {
						return
					}
				}
			}
		}
	}
}

// selects applies the filters.
func (p *Plan) selects(sp *specPlan, t *Test) bool {
	return p.filter.Match(t) && (p.filterNot.Empty() || !p.filterNot.Match(t)) && sp.filter.Match(t)
}

// Count returns the number of tests the run will send.
func (p *Plan) Count() int {
	n := 0
	for range p.Tests() {
		n++
	}
	return n
}

// Info describes the plan's specs.
func (p *Plan) Info() []SpecInfo {
	out := make([]SpecInfo, len(p.specs))
	for i, sp := range p.specs {
		info := sp.doc.Root.Root.Get("info")
		out[i] = SpecInfo{Name: sp.name, Title: info.GetStr("title"), Version: info.GetStr("version"), Format: sp.doc.String(), Operations: len(sp.ops),
			BaseURL: sp.baseURL.String(), BaseURLFromServers: sp.fromServers}
	}
	return out
}

// Run runs the plan's tests and hands the results to the sinks as they
// come, in plan order. It returns when every test has run, or when ctx is
// cancelled and the tests in flight have finished.
func (p *Plan) Run(ctx context.Context, sinks ...Sink) *Summary {
	info := &RunInfo{Start: time.Now(), BaseURL: p.opts.BaseURL, Seed: p.opts.Seed, Shard: p.opts.Shard, Specs: p.Info(), Total: -1, Checks: p.checks.names()}
	if p.opts.Count {
		info.Total = p.Count()
	}
	for _, s := range sinks {
		s.Begin(info)
	}
	cov := newCoverageTracker(p)
	sum := &Summary{Start: info.Start}
	complete := runTests(ctx, p.Tests(), p.opts.Parallel, p.exec, func(r *Result) {
		sum.add(r)
		cov.add(r)
		for _, s := range sinks {
			s.Result(r)
		}
	})
	sum.Interrupted = !complete
	sum.Elapsed = time.Since(info.Start)
	sum.Coverage = cov.finish()
	for _, s := range sinks {
		s.End(sum)
	}
	return sum
}
