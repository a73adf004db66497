package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/internal/atomicfile"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/mock"
	"github.com/specgate/specgate/spec"
)

func mockCommand(env Env) *cli.Command {
	d := mock.Defaults()
	return &cli.Command{
		Name:      "mock",
		Usage:     "serve specifications as a mock server that answers from their examples",
		ArgsUsage: "SPEC…",
		Description: "Serves OpenAPI 2.0, 3.0, 3.1 and 3.2 specs on one port, each under its servers' path\n" +
			"prefix (or --prefix). A request that matches an operation is answered from the example whose\n" +
			"request matches it (external example files and inline examples paired by name), else from\n" +
			"the lowest declared 2xx response, its example or a value generated from its schema\n" +
			"(deterministic for --seed). `Prefer: code=404`, `Prefer: example=NAME`, `Prefer: dynamic=true`\n" +
			"(and the query parameters __code, __example, __dynamic) choose the answer.\n\n" +
			"Requests that break the contract get what a real service would send: 404 no route, 405 method\n" +
			"not declared (with Allow), 401 missing credentials, 415 Content-Type not declared, 406 Accept\n" +
			"not satisfiable, 400 (or the operation's declared 422) invalid parameters or body, 413 body\n" +
			"over --max-body-size; each as the response the operation declares for that status (its\n" +
			"example, or a body generated from its schema that says why), else as application/problem+json\n" +
			"naming the JSON path of each problem. The X-Specgate-Problem header and the log say why.\n" +
			"--lenient answers them anyway. HEAD is answered wherever GET is declared. CORS preflights\n" +
			"are answered and every origin may call the mock from a browser (--cors=false turns it off).\n\n" +
			"Spec and example files are watched: a change is loaded aside and swapped in (requests in\n" +
			"flight finish on the old version; a spec that no longer loads leaves the last good one\n" +
			"serving). The mock's own endpoints are under /_specgate/: GET health, GET usage, and\n" +
			"expectations (POST an example to add it, GET to list, DELETE to clear).\n\n" +
			"Once it listens, one line per spec is printed on standard output:\n" +
			"  serving SPEC at URL\n" +
			"and --ready-file FILE receives the base URL of each server (written whole, at once).\n" +
			"Without SPEC, the mocks of specgate.yaml (--config, or found upward) are started.\n\n" +
			"--stateful (type: stateful-mock in specgate.yaml) keeps what requests do: POST /c creates,\n" +
			"GET /c lists (filtered and paged), GET/PUT/PATCH/DELETE /c/{id} read, replace, merge and\n" +
			"remove, in a store per spec seeded from the examples; GET /_specgate/state dumps it and\n" +
			"DELETE /_specgate/state resets it. --state-file FILE keeps it across restarts (a folder it\n" +
			"could not be written to is an error at start). What the store refuses (an id it does not hold,\n" +
			"a key taken) is answered as the operation declares: the status, else the closest client error\n" +
			"it declares, else its success answer with nothing stored; X-Specgate-Problem says why.\n" +
			"SIGINT or SIGTERM stops it gracefully and writes the stub-usage report to --report-dir.\n" +
			"Exit codes: 0 after a clean shutdown, 2 when a spec, example or configuration cannot be\n" +
			"loaded or the port cannot be opened, 1 when requests were still in flight at the shutdown\n" +
			"timeout.",
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "port", Value: config.DefaultMockPort, Usage: "TCP port to listen on (0 picks a free one)"},
			&cli.StringFlag{Name: "host", Value: httpx.DefaultHost, Usage: "address to listen on (0.0.0.0 for every interface)"},
			&cli.StringSliceFlag{Name: "examples", Usage: "folder of external example files, searched recursively (repeatable; each spec's <name>_examples folder is always read)"},
			&cli.StringSliceFlag{Name: "prefix", Usage: "path prefix to serve a spec under instead of its servers': `SPEC=PATH`, or PATH alone with one spec (repeatable)"},
			&cli.StringFlag{Name: "config", Usage: "the specgate.yaml `FILE` whose mocks to start (default: found from the working directory upward, when no SPEC is given)"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed of generated values: the same seed gives the same answers"},
			&cli.BoolFlag{Name: "lenient", Usage: "answer requests that break the contract as if they did not (the problems are logged)"},
			&cli.BoolFlag{Name: "cors", Value: true, Usage: "answer CORS preflights and allow every origin, method and header, so that a page of another origin can call the mock (--cors=false turns it off)"},
			&cli.DurationFlag{Name: "delay", Usage: "added before every answer"},
			&cli.StringFlag{Name: "report-dir", Usage: "`DIR` to write the stub-usage report to (JSON and CTRF) on shutdown"},
			&cli.Int64Flag{Name: "max-body-size", Value: d.MaxBodySize >> 20, Usage: "largest request body, in MiB (413 above)"},
			&cli.DurationFlag{Name: "watch-interval", Value: d.WatchInterval, Usage: "how often spec and example files are checked for changes (0: never)"},
			&cli.DurationFlag{Name: "shutdown-timeout", Value: d.ShutdownTimeout, Usage: "how long to wait for requests in flight on SIGINT/SIGTERM"},
			&cli.StringFlag{Name: "log-format", Value: "text", Usage: "log format on standard error: text or json"},
			&cli.StringFlag{Name: "ref-root", Usage: "folder `DIR` whose tree $refs may read (default: each spec's own folder)", TakesFile: true},
			&cli.BoolFlag{Name: "allow-external-refs", Usage: "let $refs read local files outside the ref root"},
			&cli.BoolFlag{Name: "stateful", Usage: "keep what requests create, update and delete, in a store seeded from the examples"},
			&cli.StringFlag{Name: "state-file", Usage: "with --stateful: `FILE` the store is read from at start and written to on shutdown and on POST /_specgate/state/save", TakesFile: true},
			&cli.StringFlag{Name: "ready-file", Usage: "`FILE` to write the base URL of each mock server to (one line each) once it serves, for scripts that start it with --port 0"},
		}, ciFlags()...),
		Action: func(c *cli.Context) error { return runMock(c, env) },
	}
}

// mockRun is one mock server to start: its options and where it listens.
type mockRun struct {
	opts mock.Options
	host string
	port int
	tls  *tls.Config // nil: plain HTTP
}

func runMock(c *cli.Context, env Env) error {
	linter.ResumePace()
	// One write per batch of log lines rather than per request: under load
	// the writes would cost more than the answers.
	logs := httpx.NewLogBuffer(env.Stderr, 64<<10, 200*time.Millisecond)
	defer logs.Close()
	logger, err := commandLogger(c, logs)
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	if c.Int64("max-body-size") <= 0 {
		return exitf(ExitUsage, "--max-body-size must be at least 1 (MiB), found %d", c.Int64("max-body-size"))
	}
	watch := c.Duration("watch-interval")
	if watch == 0 {
		watch = -1 // Options reads 0 as the default
	}
	base := mock.Options{
		Load:            spec.Options{RefRoot: c.String("ref-root"), AllowExternalRefs: c.Bool("allow-external-refs")},
		Examples:        c.StringSlice("examples"),
		Seed:            c.Uint64("seed"),
		Lenient:         c.Bool("lenient"),
		DisableCORS:     !c.Bool("cors"),
		Delay:           c.Duration("delay"),
		MaxBodySize:     c.Int64("max-body-size") << 20,
		WatchInterval:   watch,
		ShutdownTimeout: c.Duration("shutdown-timeout"),
		Logger:          logger,
		Stateful:        c.Bool("stateful"),
		StateFile:       c.String("state-file"),
	}
	if base.StateFile != "" && !base.Stateful && c.NArg() > 0 {
		return exitf(ExitUsage, "--state-file is for the stateful mock: add --stateful")
	}
	var runs []mockRun
	if c.NArg() > 0 {
		if c.IsSet("config") {
			return exitf(ExitUsage, "give the specs either as arguments or through --config, not both")
		}
		specs, err := mockSpecs(c.Args().Slice(), c.StringSlice("prefix"))
		if err != nil {
			return exitf(ExitUsage, "%v", err)
		}
		base.Specs = specs
		runs = []mockRun{{opts: base, host: c.String("host"), port: c.Int("port")}}
	} else {
		if runs, err = configMocks(c, env, base); err != nil {
			return err
		}
	}
	ctx, stop := httpx.SignalContext(c.Context)
	defer stop()
	reportDir := ciReportDir(c, c.String("report-dir"), filepath.Join(DefaultTestReportDir, "mock"))
	err = serveMocks(ctx, runs, mockOutputs{reportDir: reportDir, readyFile: c.String("ready-file")}, env, logger)
	return submitReports(c.Context, c, env, mockCIRun(reportDir, err), err)
}

// mockSpecs pairs the spec arguments with their --prefix flags.
func mockSpecs(args, prefixes []string) ([]mock.SpecSource, error) {
	specs := make([]mock.SpecSource, len(args))
	for i, a := range args {
		specs[i].Path = a
	}
	for _, p := range prefixes {
		name, path, ok := strings.Cut(p, "=")
		if !ok {
			if len(args) != 1 {
				return nil, fmt.Errorf("--prefix %q: with several specs, write SPEC=PATH", p)
			}
			name, path = args[0], p
		}
		if !strings.HasPrefix(path, "/") {
			return nil, fmt.Errorf("--prefix %q: the path must start with /", p)
		}
		found := false
		for i := range specs {
			if specs[i].Path == name {
				specs[i].Prefix, found = path, true
			}
		}
		if !found {
			return nil, fmt.Errorf("--prefix %q names no spec given (%s)", p, strings.Join(args, ", "))
		}
	}
	return specs, nil
}

// configMocks reads the mocks of specgate.yaml: each is a server of its
// own on its host and port.
func configMocks(c *cli.Context, env Env, base mock.Options) ([]mockRun, error) {
	path := c.String("config")
	if path == "" {
		found, ok := config.Find(".")
		if !ok {
			return nil, exitf(ExitUsage, "no spec given and no %s found from the working directory upward (see 'specgate mock --help')", config.FileNames[0])
		}
		path = found
	}
	cfg, err := loadConfig(env, path)
	if err != nil {
		return nil, err
	}
	var runs []mockRun
	for _, m := range cfg.Mocks {
		opts := base
		opts.Stateful = base.Stateful || m.Type == config.Stateful
		if !opts.Stateful {
			opts.StateFile = ""
		}
		opts.Specs = nil
		for _, s := range m.Specs {
			if s.Git != nil {
				return nil, exitf(ExitUsage, "%s:%d:%d: spec %s is in a git repository; the mock serves local files and URLs", s.File, s.At.Line, s.At.Col, s.ID)
			}
			opts.Specs = append(opts.Specs, mock.SpecSource{Path: s.Path, Prefix: m.Target.BasePath})
		}
		opts.Examples = append(append([]string(nil), m.Examples...), base.Examples...)
		if m.Settings.Delay > 0 && !c.IsSet("delay") {
			opts.Delay = m.Settings.Delay
		}
		opts.Dictionary = m.Dictionary
		opts.Strict = cfg.StrictMode
		opts.Generative = m.Settings.Generative
		opts.StrictExamples = !m.Settings.Lenient
		host, port := m.Target.Host, m.Target.Port
		if c.IsSet("host") {
			host = c.String("host")
		}
		if c.IsSet("port") {
			port = c.Int("port")
		}
		if host == "localhost" {
			host = httpx.DefaultHost
		}
		run := mockRun{opts: opts, host: host, port: port}
		if m.Target.Scheme == "https" || m.TLS.CertFile != "" {
			tc, err := serverTLS(m.TLS)
			if err != nil {
				return nil, exitf(ExitUsage, "%s: mock of %s: %v", cfg.File, m.Service, err)
			}
			run.tls = tc
		}
		runs = append(runs, run)
	}
	if len(runs) == 0 {
		return nil, exitf(ExitUsage, "%s declares no mock (runOptions of type: mock)", cfg.File)
	}
	stateful := 0
	for _, r := range runs {
		if r.opts.StateFile != "" {
			stateful++
		}
	}
	if stateful > 1 {
		return nil, exitf(ExitUsage, "%s starts %d stateful mocks: --state-file would hold the state of one only; start them one by one", cfg.File, stateful)
	}
	return runs, nil
}

// serverTLS is the TLS configuration of a mock served over https: its
// certificate, and with mutual TLS the roots client certificates must
// chain to.
func serverTLS(t config.TLS) (*tls.Config, error) {
	if t.CertFile == "" || t.KeyFile == "" {
		return nil, errors.New("an https mock needs a certificate and its key (cert: certFile and keyFile in its runOptions)")
	}
	cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("the certificate %s: %w", t.CertFile, err)
	}
	tc := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if t.MTLS {
		if t.CAFile == "" {
			return nil, errors.New("mtlsEnabled needs the certificates that client certificates chain to (cert: caFile)")
		}
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s holds no PEM certificate", t.CAFile)
		}
		tc.ClientCAs, tc.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	return tc, nil
}

// mockOutputs are the files a mock run writes besides its logs.
type mockOutputs struct {
	reportDir string // the stub-usage reports, on shutdown
	readyFile string // the base URL of each server, once all serve
}

// serveMocks loads every mock, opens their ports, prints the ready lines
// and serves until ctx ends.
func serveMocks(ctx context.Context, runs []mockRun, out mockOutputs, env Env, logger *slog.Logger) error {
	servers := make([]*mock.Server, len(runs))
	listeners := make([]net.Listener, len(runs))
	closeAll := func() {
		for _, ln := range listeners {
			if ln != nil {
				ln.Close()
			}
		}
	}
	for i, r := range runs {
		srv, err := mock.New(ctx, r.opts)
		if err != nil {
			closeAll()
			return exitf(ExitUsage, "mock: %v", err)
		}
		ln, err := httpx.Listen(r.host, r.port)
		if err != nil {
			closeAll()
			return exitf(ExitUsage, "mock: %v", err)
		}
		if r.tls != nil {
			ln = tls.NewListener(ln, r.tls)
		}
		servers[i], listeners[i] = srv, ln
	}
	var ready strings.Builder
	for i, srv := range servers {
		base := httpx.BaseURL(listeners[i].Addr())
		if runs[i].tls != nil {
			base = "https" + strings.TrimPrefix(base, "http")
		}
		for _, a := range srv.Addresses(base) {
			fmt.Fprintf(env.Stdout, "serving %s at %s\n", a.Spec, a.URL)
		}
		ready.WriteString(base + "\n")
	}
	if out.readyFile != "" {
		if err := atomicfile.Write(out.readyFile, []byte(ready.String())); err != nil {
			closeAll()
			return exitf(ExitUsage, "mock: --ready-file: %v", err)
		}
	}
	errs := make([]error, len(servers))
	var wg sync.WaitGroup
	for i, srv := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = srv.Serve(ctx, listeners[i])
		}()
	}
	wg.Wait()
	if out.reportDir != "" {
		for i, srv := range servers {
			dir := out.reportDir
			if len(servers) > 1 {
				dir = filepath.Join(out.reportDir, fmt.Sprintf("mock-%d", i+1))
			}
			files, err := srv.WriteUsage(dir, version())
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, f := range files {
				logger.Info("stub-usage report written", slog.String("file", f))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return exitf(ExitFindings, "%v", err)
	}
	return nil
}
