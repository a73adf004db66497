// Package server is specgate's lint server: an HTTP service that lints the
// specs posted to it with a central configuration kept in a git
// repository. It clones the repository at startup, compiles every profile
// once, and refreshes in the background when the branch gets a new commit,
// swapping configurations atomically so that requests in flight finish on
// the one they started with. Spec URLs are fetched only from public
// addresses (checked when connecting), with size and time limits; errors
// are RFC 9457 problem documents. docs/lint-server.md describes the API.
package server

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// Options configure a Server. Zero values take the defaults of Defaults.
type Options struct {
	// ConfigRepo is the configuration repository: an https, ssh or file URL,
	// or a local folder.
	ConfigRepo   string
	ConfigBranch string // "" for the repository's default branch
	ConfigPath   string // the configuration file inside the repository
	// Ruleset is the built-in ruleset of requests that name no profile
	// when there is no ConfigRepo (each built-in ruleset is a profile).
	Ruleset string
	// RefreshInterval is how often the branch is fetched; zero or less
	// refreshes only on request.
	RefreshInterval time.Duration
	// Token is sent to an https ConfigRepo as basic credentials, with
	// TokenUser (default x-access-token) as the user name.
	Token, TokenUser string

	// AllowPrivateURLs lets specUrl (and the $refs it leads to) reach
	// loopback, private, link-local and other non-public addresses.
	AllowPrivateURLs bool
	MaxConcurrent    int // lint requests handled at once
	// MaxMemory is the memory the lint requests in flight may take
	// together, by their estimated cost (see memoryCost); 0 takes what
	// GOMEMLIMIT leaves beyond the loaded configuration, or
	// DefaultMaxMemory without GOMEMLIMIT.
	MaxMemory int64
	// RateLimit is the requests each client may make per minute (health
	// checks excepted); 0 does not limit them.
	RateLimit       int
	QueueTimeout    time.Duration // how long a lint request waits for a slot; negative: not at all
	MaxBodySize     int64         // bytes of a request body
	MaxSpecSize     int64         // bytes of a fetched spec or $ref
	FetchTimeout    time.Duration // per fetch
	RequestTimeout  time.Duration // fetching, loading and linting one request
	RuleTimeout     time.Duration // evaluating the rules on one spec
	ShutdownTimeout time.Duration // how long Serve waits for requests in flight when stopping

	Version string // reported as tool.version and in /health/info
	Logger  *slog.Logger

	// allowDial admits addresses the connect-time check would refuse; tests
	// use it to let their own loopback server act as a public one.
	allowDial func(netip.AddrPort) bool
}

// Defaults are the options' defaults.
func Defaults() Options {
	return Options{
		ConfigPath:      rulesets.ConfigName,
		Ruleset:         rulesets.Default,
		RefreshInterval: time.Minute,
		MaxConcurrent:   2 * runtime.GOMAXPROCS(0),
		QueueTimeout:    5 * time.Second,
		MaxBodySize:     32 << 20,
		MaxSpecSize:     32 << 20,
		FetchTimeout:    30 * time.Second,
		RequestTimeout:  2 * time.Minute,
		RuleTimeout:     time.Minute,
		ShutdownTimeout: 30 * time.Second,
		Version:         "dev",
	}
}

func (o *Options) fillDefaults() {
	d := Defaults()
	unsetOr(&o.ConfigPath, d.ConfigPath)
	unsetOr(&o.Ruleset, d.Ruleset)
	unsetOr(&o.MaxConcurrent, d.MaxConcurrent)
	// A negative queue timeout is meaningful (no waiting); only zero is unset.
	if o.QueueTimeout == 0 {
		o.QueueTimeout = d.QueueTimeout
	}
	unsetOr(&o.MaxBodySize, d.MaxBodySize)
	unsetOr(&o.MaxSpecSize, d.MaxSpecSize)
	unsetOr(&o.FetchTimeout, d.FetchTimeout)
	unsetOr(&o.RequestTimeout, d.RequestTimeout)
	unsetOr(&o.RuleTimeout, d.RuleTimeout)
	unsetOr(&o.ShutdownTimeout, d.ShutdownTimeout)
	unsetOr(&o.Version, d.Version)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// unsetOr sets *v to d where *v is unset: an empty string, or a number
// that is zero or negative.
func unsetOr[T cmp.Ordered](v *T, d T) {
	var zero T
	if *v <= zero {
		*v = d
	}
}

// Server is a lint server. Create it with New, run it with Serve.
type Server struct {
	opts    Options
	config  *configSource
	client  *http.Client // fetches specUrl and the $refs of fetched specs
	loader  *spec.Loader
	slots   *slots
	memory  *memoryBudget
	limiter *rateLimiter // nil without --rate-limit
	// bodyLimit and specLimit are --max-body-size and --max-spec-size,
	// lowered to the largest spec the memory budget admits.
	bodyLimit, specLimit sizeLimit
	baseline             int64 // memory in use once the configuration is loaded
	draining             atomic.Bool
	handler              http.Handler
	started              time.Time
}

// New clones the configuration repository and compiles its configuration.
// It fails when either fails: the server never starts without a good
// configuration.
func New(ctx context.Context, opts Options) (*Server, error) {
	opts.fillDefaults()
	if err := checkConfigPath(opts.ConfigPath); err != nil {
		return nil, err
	}
	repo, err := newConfigRepo(opts.ConfigRepo, opts.ConfigBranch, opts.Token, opts.TokenUser)
	if err != nil {
		return nil, err
	}
	client := newClient(opts.FetchTimeout, opts.AllowPrivateURLs, opts.allowDial)
	loader := spec.NewLoader(spec.Options{
		Limits:     spec.Limits{MaxFileSize: opts.MaxSpecSize, FetchTimeout: opts.FetchTimeout},
		HTTPClient: client,
		Stdin:      strings.NewReader(""),
	})
	// Ruleset URLs in the configuration come from its maintainers, not
	// from requests: they are fetched without the address check.
	configLoader := spec.NewLoader(spec.Options{Limits: spec.Limits{FetchTimeout: opts.FetchTimeout}})
	interval := opts.RefreshInterval
	if _, builtin := repo.(builtinRepo); builtin {
		interval = 0 // the built-in rulesets do not change: nothing to refresh
	}
	s := &Server{
		opts:   opts,
		client: client,
		loader: loader,
		slots:  &slots{ch: make(chan struct{}, opts.MaxConcurrent), wait: max(opts.QueueTimeout, 0)},
		config: &configSource{
			repo: repo, ruleset: opts.Ruleset, configPath: opts.ConfigPath, interval: interval, logger: opts.Logger,
			trigger: make(chan struct{}, 1),
			build: buildOptions{
				loader:  loader,
				fetch:   func(u string) ([]byte, error) { return configLoader.Fetch(context.Background(), u) },
				timeout: opts.RuleTimeout,
			},
		},
		started: time.Now(),
	}
	if err := s.config.start(ctx); err != nil {
		return nil, err
	}
	if err := s.budgetMemory(); err != nil {
		s.Close()
		return nil, err
	}
	if opts.RateLimit > 0 {
		s.limiter = newRateLimiter(opts.RateLimit)
	}
	s.handler = httpx.Logged(opts.Logger, problems, s.routes())
	return s, nil
}

// budgetMemory sets the lint requests' memory budget, and lowers the size
// limits to the largest spec it admits.
func (s *Server) budgetMemory() error {
	s.baseline = baselineMemory()
	budget, err := memoryBudgetFor(s.opts.MaxMemory, goMemLimit(), s.baseline)
	if err != nil {
		return err
	}
	s.memory = &memoryBudget{limit: budget}
	s.bodyLimit = fitMemory(s.opts.MaxBodySize, "--max-body-size", budget)
	s.specLimit = fitMemory(s.opts.MaxSpecSize, "--max-spec-size", budget)
	for _, l := range []sizeLimit{s.bodyLimit, s.specLimit} {
		if l.bytes < 1<<10 {
			return fmt.Errorf("--max-memory %s admits no spec larger than %s (%s)", httpx.FormatBytes(budget), httpx.FormatBytes(l.bytes), l.flag)
		}
	}
	s.opts.Logger.Info("memory budget", slog.Int64("maxMemory", budget), slog.Int64("baseline", s.baseline),
		slog.Int64("maxBodySize", s.bodyLimit.bytes), slog.Int64("maxSpecSize", s.specLimit.bytes))
	return nil
}

// memoryBudgetFor is the lint requests' memory budget: maxMemory when set,
// else what the Go runtime's memory limit (goLimit, 0 for none) leaves
// beyond the baseline, else DefaultMaxMemory.
func memoryBudgetFor(maxMemory, goLimit, baseline int64) (int64, error) {
	switch {
	case maxMemory > 0:
		if maxMemory < memoryCost(0) {
			return 0, fmt.Errorf("--max-memory %s is less than a lint request takes (%s at least)", httpx.FormatBytes(maxMemory), httpx.FormatBytes(memoryCost(0)))
		}
		return maxMemory, nil
	case goLimit > 0:
		if goLimit-baseline < memoryCost(0) {
			return 0, fmt.Errorf("GOMEMLIMIT=%s leaves no memory for lint requests: the server holds %s once its configuration is loaded; raise it or set --max-memory",
				httpx.FormatBytes(goLimit), httpx.FormatBytes(baseline))
		}
		return goLimit - baseline, nil
	}
	return DefaultMaxMemory, nil
}

// MemoryLimit is the soft memory limit for the Go runtime
// (debug.SetMemoryLimit) that matches the server's budget: what it held
// once its configuration was loaded, plus the lint requests' budget.
func (s *Server) MemoryLimit() int64 { return s.baseline + s.memory.limit }

// checkConfigPath refuses configuration paths that leave the repository.
func checkConfigPath(p string) error {
	clean := strings.TrimPrefix(p, "./")
	if p == "" || strings.HasPrefix(p, "/") || clean == ".." || strings.HasPrefix(clean, "../") || strings.Contains(clean, "/../") {
		return fmt.Errorf("--config-path %q must be a relative path inside the repository", p)
	}
	return nil
}

// Handler is the server's HTTP handler, with request logging, on the
// configuration loaded by New (Serve also refreshes it).
func (s *Server) Handler() http.Handler { return s.handler }

// Serve serves HTTP on ln and refreshes the configuration until ctx ends,
// then stops accepting connections, lets requests in flight finish (up to
// ShutdownTimeout) and removes the configuration clone.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	defer s.Close()
	hs := httpx.NewServer(s.handler, s.opts.Logger)
	hs.ReadTimeout = s.opts.RequestTimeout
	hs.WriteTimeout = s.opts.RequestTimeout + s.opts.QueueTimeout + 10*time.Second
	refreshCtx, stopRefresh := context.WithCancel(context.Background())
	refreshDone := make(chan struct{})
	go func() {
		defer close(refreshDone)
		s.config.run(refreshCtx)
	}()
	err := httpx.Serve(ctx, hs, ln, httpx.Shutdown{
		Timeout:  s.opts.ShutdownTimeout,
		Flag:     "--shutdown-timeout",
		Draining: func() { s.draining.Store(true) },
		Logger:   s.opts.Logger,
	})
	stopRefresh()
	<-refreshDone
	s.opts.Logger.Info("stopped")
	return err
}

// Close removes the configuration clone. Serve calls it when it returns.
func (s *Server) Close() { s.config.repo.remove() }
