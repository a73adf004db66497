// Package suite runs a test suite (specgate run-suite): everything a
// specgate.yaml declares, in one process. The dependencies are mocked
// first (type: mock, on their ports), the system under test's OpenAPI specs
// are contract-tested (package apitest), its Arazzo documents' workflows
// run (package arazzo) against the services the configuration names, the
// mocks included, and one report set covers every spec and workflow. Specs
// in git sources are cloned into a cache first. A shard runs a stable part
// of the specs and workflows.
package suite

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/apitest/testreport"
	"github.com/specgate/specgate/arazzo"
	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/mock"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// Options configure a suite run.
type Options struct {
	Config *config.Config
	// Extra are Arazzo documents (or OpenAPI specs) given on the command
	// line besides the configuration's; BaseURL is where they call when the
	// configuration does not say.
	Extra   []string
	BaseURL string
	// Inputs are workflow inputs by workflowId (--inputs); the
	// configuration's dictionary gives the others. InputsFrom names them in
	// messages (the --inputs file), InputsAt gives where it writes each
	// workflowId, when known, and InputsHelp says how to give inputs (a
	// sentence added to the message of a workflow whose inputs do not fit).
	Inputs     map[string]map[string]any
	InputsFrom string
	InputsAt   map[string]spec.Pos
	InputsHelp string
	// Notice receives what the run says before it starts: where a source
	// description's requests go when nothing names its address (nil: not
	// said).
	Notice func(string)
	// Warning receives each warning of the contract tests' plan before the
	// run (a security scheme without a credential, whose placeholder is
	// sent); nil: they go to Notice as "warning: …".
	Warning func(string)
	Shard   apitest.Shard
	Seed    uint64
	// Parallel is the number of contract tests in flight.
	Parallel int
	Retry    httpx.RetryPolicy
	Timeout  time.Duration
	Loader   *spec.Loader
	Getenv   func(string) string
	// GitCache is where git sources are cloned (a folder per repository
	// and branch).
	GitCache string
	Logger   *slog.Logger
	// Progress receives each test as it ends, contract tests and workflow
	// steps as the reports have them, with the count of those done and the
	// run's total: the contract tests, counted before they run, and the
	// steps of the workflows to run (a total that grows when workflows call
	// others or actions run further steps); nil: none.
	Progress func(done, total int, t *reports.Test)
}

// Summary is a finished suite.
type Summary struct {
	reports.TestSummary
	Specs     int // OpenAPI specs contract-tested
	Workflows int // workflows run
	Mocks     int // mock servers started
}

// Run runs the suite and writes every test to sink (Begin, Add, End).
// Its error is a problem of the configuration or of an input (exit 2);
// failed tests are in the summary.
func Run(ctx context.Context, opts Options, sink *reports.Sink, run *reports.Run) (*Summary, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Loader == nil {
		opts.Loader = spec.NewLoader(spec.Options{})
	}
	s := &suite{opts: opts, sum: &Summary{}}
	plan, err := s.plan(ctx)
	if err != nil {
		return nil, err
	}
	mockCtx, stopMocks := context.WithCancel(ctx)
	stopped, err := s.startMocks(mockCtx, plan)
	defer func() {
		stopMocks()
		stopped()
	}()
	if err != nil {
		return nil, err
	}
	// The workflows are checked before anything runs: a broken document,
	// inputs for a workflow the run does not have and inputs that do not
	// fit their workflow are input errors, as a spec that does not load is.
	var docs []*workflowDoc
	var errs []error
	for _, w := range plan.workflows {
		d, err := s.prepareWorkflows(ctx, w, plan)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		docs = append(docs, d)
	}
	if len(errs) == 0 {
		errs = append(errs, s.checkInputs(docs)...)
	}
	var testPlan *apitest.Plan
	if len(plan.tests) > 0 {
		aopts := apitest.Options{Specs: plan.tests, BaseURL: opts.BaseURL, Seed: opts.Seed, Parallel: opts.Parallel,
			Shard: opts.Shard, Retry: opts.Retry, Timeout: opts.Timeout, Getenv: opts.Getenv, Loader: opts.Loader,
			StrictMode: opts.Config != nil && opts.Config.StrictMode}
		if testPlan, err = apitest.NewPlan(ctx, aopts); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// The tests of each kind keep their type; a run of one kind names it,
	// a run of both names none, so that each test is filed by its own.
	var shardDocs []*workflowDoc
	for _, d := range docs {
		if opts.Shard.Has(&apitest.Test{Spec: d.name, Name: "arazzo"}) {
			shardDocs = append(shardDocs, d)
		}
	}
	switch {
	case testPlan != nil && len(shardDocs) == 0:
		run.Kind = reports.Contract
	case testPlan == nil:
		run.Kind = reports.Workflow
	default:
		run.Kind = ""
	}
	run.Start = time.Now()
	run.Shard = opts.Shard.String()
	if testPlan != nil {
		for _, w := range testPlan.Warnings() {
			switch {
			case opts.Warning != nil:
				opts.Warning(w)
			case opts.Notice != nil:
				opts.Notice("warning: " + w)
			}
		}
	}
	if opts.Notice != nil {
		for _, d := range shardDocs {
			for _, a := range d.runner.Addresses() {
				switch a.From {
				case arazzo.FromServers:
					opts.Notice(fmt.Sprintf("%s: source description %q: no base URL given: calling %s, its first absolute server (--testBaseURL, or an address for %s in specgate.yaml, calls elsewhere)",
						d.name, a.Source, a.URL, d.sources[a.Source]))
				case arazzo.FromNowhere:
					opts.Notice(fmt.Sprintf("%s: source description %q has no base URL (none given, none in specgate.yaml, no absolute server URL in %s): the steps that call it fail",
						d.name, a.Source, d.sources[a.Source]))
				}
			}
		}
	}
	if err := sink.Begin(run); err != nil {
		return nil, err
	}
	progress := s.progress(testPlan, shardDocs)
	var coverage []reports.Coverage
	if testPlan != nil {
		adapter := &contractSink{sink: sink, progress: progress}
		sum := testPlan.Run(ctx, adapter)
		if adapter.err != nil {
			sink.Close()
			return nil, adapter.err
		}
		coverage = testreport.Coverage(sum.Coverage)
		s.sum.Specs = len(plan.tests)
	}
	for _, d := range shardDocs {
		var addErr error
		results := d.runner.Run(ctx, nil, func(sr *arazzo.StepResult) {
			t := sr.Test(d.name)
			if err := sink.Add(&t); err != nil && addErr == nil {
				addErr = err
			}
			progress(&t)
		})
		if addErr != nil {
			sink.Close()
			return nil, addErr
		}
		s.sum.Workflows += len(results)
	}
	run.Elapsed = time.Since(run.Start)
	ts, err := sink.End(coverage)
	s.sum.TestSummary = ts
	return s.sum, err
}

type suite struct {
	opts Options
	sum  *Summary
}

// progress is what each test of the run is handed to when it ends:
// Options.Progress with the count and the total (a no-op without one).
func (s *suite) progress(tests *apitest.Plan, docs []*workflowDoc) func(*reports.Test) {
	if s.opts.Progress == nil {
		return func(*reports.Test) {}
	}
	total := 0
	if tests != nil {
		total = tests.Count()
	}
	for _, d := range docs {
		total += d.steps
	}
	var mu sync.Mutex
	done := 0
	return func(t *reports.Test) {
		mu.Lock()
		defer mu.Unlock()
		done++
		total = max(total, done)
		s.opts.Progress(done, total, t)
	}
}

// plan is what the configuration resolves to, specs on local paths.
type planned struct {
	tests     []apitest.SpecSource
	workflows []workflowSource
	mocks     []*config.Mock
	// addresses are the base URLs of specs by absolute path: the system
	// under test's targets, the mocks' addresses once they listen.
	mu        sync.Mutex
	addresses map[string]string
}

type workflowSource struct {
	path, name string
	baseURL    string
	dictionary map[string]any
}

func (s *suite) plan(ctx context.Context) (*planned, error) {
	p := &planned{addresses: map[string]string{}}
	cfg := s.opts.Config
	var errs []error
	classify := func(path, name, base string, dict map[string]any, src *apitest.SpecSource) {
		doc, err := s.opts.Loader.Open(ctx, path)
		if err != nil {
			errs = append(errs, err)
			return
		}
		if doc.Format == spec.Arazzo {
			p.workflows = append(p.workflows, workflowSource{path: path, name: name, baseURL: base, dictionary: dict})
			return
		}
		if src != nil {
			p.tests = append(p.tests, *src)
		}
		if base != "" {
			p.addresses[abs(path)] = base
		}
	}
	if cfg != nil {
		for _, t := range cfg.Tests {
			path, err := s.specPath(ctx, t.Spec)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			src := apitest.SpecSource{Path: path, Name: t.Spec.ID, BaseURL: t.Target.URL(), Examples: t.Examples, Filter: t.Spec.Filter}
			if len(t.Spec.Security) > 0 {
				src.Credentials = map[string]string{}
				for _, cr := range t.Spec.Security {
					src.Credentials[cr.Scheme] = cr.Token
				}
			}
			classify(path, t.Spec.ID, t.Target.URL(), t.Dictionary, &src)
		}
		for _, m := range cfg.Mocks {
			for _, sp := range m.Specs {
				path, err := s.specPath(ctx, sp)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				sp.Path = path
			}
			p.mocks = append(p.mocks, m)
		}
	}
	for _, e := range s.opts.Extra {
		classify(e, e, "", nil, &apitest.SpecSource{Path: e})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(p.tests) == 0 && len(p.workflows) == 0 {
		return nil, errors.New("the suite has nothing to run: no spec of the system under test and no Arazzo document")
	}
	return p, nil
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// specPath is a spec's local path: its file, or its file in the clone of
// its git source.
func (s *suite) specPath(ctx context.Context, sp *config.Spec) (string, error) {
	if sp.Git == nil {
		return sp.Path, nil
	}
	dir, err := clone(ctx, s.opts.GitCache, sp.Git, s.opts.Getenv)
	if err != nil {
		return "", fmt.Errorf("%s:%d:%d: spec %s: %w", sp.File, sp.At.Line, sp.At.Col, sp.ID, err)
	}
	return filepath.Join(dir, filepath.FromSlash(sp.Path)), nil
}

// startMocks starts every mock on its address; the function it returns
// waits until they have stopped (after ctx ends).
func (s *suite) startMocks(ctx context.Context, p *planned) (func(), error) {
	var wg sync.WaitGroup
	wait := func() { wg.Wait() }
	for _, m := range p.mocks {
		// A stateful mock keeps what the workflows create, update and
		// delete for the run's length: its store starts from the examples
		// and is dropped with the mock (no state file).
		opts := mock.Options{Examples: m.Examples, Seed: s.opts.Seed, Delay: m.Settings.Delay, Dictionary: m.Dictionary,
			Generative: m.Settings.Generative, StrictExamples: !m.Settings.Lenient, WatchInterval: -1, Logger: s.opts.Logger,
			Stateful: m.Type == config.Stateful}
		if s.opts.Config != nil {
			opts.Strict = s.opts.Config.StrictMode
		}
		for _, sp := range m.Specs {
			opts.Specs = append(opts.Specs, mock.SpecSource{Path: sp.Path, Prefix: m.Target.BasePath})
		}
		srv, err := mock.New(ctx, opts)
		if err != nil {
			return wait, fmt.Errorf("mock of %s: %w", m.Service, err)
		}
		host := m.Target.Host
		if host == "localhost" || host == "" {
			host = httpx.DefaultHost
		}
		ln, err := httpx.Listen(host, m.Target.Port)
		if err != nil {
			return wait, fmt.Errorf("mock of %s: %w", m.Service, err)
		}
		base := httpx.BaseURL(ln.Addr())
		for _, sp := range m.Specs {
			p.addresses[abs(sp.Path)] = base + m.Target.BasePath
		}
		s.opts.Logger.Info("mock started", slog.String("service", m.Service), slog.String("type", string(m.Type)), slog.String("url", base))
		wg.Add(1)
		go func(ln net.Listener) {
			defer wg.Done()
			srv.Serve(ctx, ln)
		}(ln)
		s.sum.Mocks++
	}
	return wait, nil
}

// workflowDoc is an Arazzo document checked and ready to run.
type workflowDoc struct {
	name      string
	runner    *arazzo.Runner
	workflows []string          // ids, in document order
	sources   map[string]string // the source descriptions' URLs, by name
	steps     int               // of all its workflows
}

// checkInputs checks the inputs given for workflows: each names a workflow
// of the run (by workflowId, in any of its documents), and the inputs of
// each workflow fit its inputs schema.
func (s *suite) checkInputs(docs []*workflowDoc) []error {
	var errs []error
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.workflows...)
	}
	var unknown []string
	for id := range s.opts.Inputs {
		if !slices.Contains(ids, id) {
			unknown = append(unknown, id)
		}
	}
	slices.SortFunc(unknown, func(a, b string) int {
		pa, pb := s.opts.InputsAt[a], s.opts.InputsAt[b]
		return cmp.Or(cmp.Compare(pa.Line, pb.Line), cmp.Compare(a, b))
	})
	from := cmp.Or(s.opts.InputsFrom, "inputs")
	for _, id := range unknown {
		where := from
		if p, ok := s.opts.InputsAt[id]; ok && p.Line > 0 {
			where = fmt.Sprintf("%s:%d:%d", from, p.Line, p.Col)
		}
		errs = append(errs, fmt.Errorf("%s: inputs of workflow %q, which no Arazzo document of the run has%s", where, id, suggest.Hint(id, ids)))
	}
	for _, d := range docs {
		for _, err := range d.runner.CheckInputs() {
			errs = append(errs, fmt.Errorf("%s: %w%s", d.name, err, s.opts.InputsHelp))
		}
	}
	return errs
}

// prepareWorkflows checks an Arazzo document and points each of its
// source descriptions at the service the suite knows for it: a mock, the
// system under test's address, else the document's own base URL.
func (s *suite) prepareWorkflows(ctx context.Context, w workflowSource, p *planned) (*workflowDoc, error) {
	doc, err := s.opts.Loader.Load(ctx, w.path)
	if err != nil {
		return nil, err
	}
	c, problems := arazzo.Check(ctx, doc)
	if len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, pr := range problems {
			msgs[i] = pr.Error()
		}
		return nil, fmt.Errorf("%s is not a valid Arazzo document:\n%s", w.name, strings.Join(msgs, "\n"))
	}
	opts := arazzo.Options{BaseURL: w.baseURL, BaseURLs: map[string]string{}, Retry: s.opts.Retry,
		Inputs: Inputs(c.Description, w.dictionary, s.opts.Inputs)}
	if opts.BaseURL == "" {
		opts.BaseURL = s.opts.BaseURL
	}
	for name, ls := range c.Loaded {
		if ls.Doc == nil {
			continue
		}
		key := ls.Doc.Root.Name
		if !strings.HasPrefix(key, "http://") && !strings.HasPrefix(key, "https://") {
			key = abs(key)
		}
		if u := p.addresses[key]; u != "" {
			opts.BaseURLs[name] = u
		}
	}
	cl, err := httpx.NewClient(httpx.ClientOptions{Timeout: s.opts.Timeout, Getenv: s.opts.Getenv})
	if err != nil {
		return nil, err
	}
	opts.Client = cl
	r, err := arazzo.NewRunner(c, opts)
	if err != nil {
		return nil, err
	}
	d := &workflowDoc{name: w.name, runner: r, sources: map[string]string{}}
	for _, wf := range c.Workflows {
		d.workflows = append(d.workflows, wf.ID)
		d.steps += len(wf.Steps)
	}
	for _, src := range c.Sources {
		d.sources[src.Name] = src.URL
	}
	return d, nil
}

// Inputs are the inputs of each workflow of a description: those given
// (--inputs) over those of the configuration's dictionary, where a key
// named after a workflowId holds that workflow's inputs.
func Inputs(d *arazzo.Description, dictionary map[string]any, given map[string]map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, w := range d.Workflows {
		in := map[string]any{}
		if m, ok := dictionary[w.ID].(map[string]any); ok {
			for k, v := range m {
				in[k] = v
			}
		}
		for k, v := range given[w.ID] {
			in[k] = v
		}
		if len(in) > 0 {
			out[w.ID] = in
		}
	}
	return out
}

// contractSink writes contract test results into the suite's report, and
// hands them to progress.
type contractSink struct {
	sink     *reports.Sink
	progress func(*reports.Test)
	err      error
}

func (c *contractSink) Begin(*apitest.RunInfo) {}
func (c *contractSink) Result(r *apitest.Result) {
	if c.err != nil {
		return
	}
	t := testreport.Test(r)
	c.err = c.sink.Add(&t)
	c.progress(&t)
}
func (c *contractSink) End(*apitest.Summary) {}
