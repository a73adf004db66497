// Package mock is specgate's mock server: it serves one or more API
// specifications on one port and answers each request as the real service
// would, from the examples that match it or from values generated from the
// response's schema, and answers requests that break the contract with the
// status the contract calls for (404, 405, 401, 415, 406, 400 or 422) and
// an RFC 9457 problem naming the JSON path of each failure.
//
// A request goes through small steps that each return a value
// (pipeline.go). The loaded specs and examples are one immutable
// generation behind an atomic pointer, rebuilt aside and swapped in when
// their files change; beyond run-time expectations the mock keeps no
// state, so replicas answer alike. The stateful mock (Options.Stateful;
// stateful*.go, state.go, seed.go) plugs a store per spec, seeded from
// the examples, into the Responder seam.
package mock

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/spec"
)

// SpecSource is one spec to serve.
type SpecSource struct {
	// Path is the spec's file or http(s) URL.
	Path string
	// Prefix, when set, replaces the path prefixes of the spec's servers:
	// its operations are served under it ("/" for the root).
	Prefix string
}

// Options configure a Server. Zero values take the defaults of Defaults.
type Options struct {
	Specs []SpecSource
	// Load configures the loading of the specs: the folder tree their
	// $refs may read, remote $refs, limits.
	Load spec.Options
	// Examples are folders of external example files, searched
	// recursively, besides each spec's <name>_examples folder.
	Examples []string
	// Seed makes generated values deterministic: the same seed, operation,
	// status and media type give the same value.
	Seed uint64
	// Lenient answers requests that break the contract as if they did not
	// (the failures are logged).
	Lenient bool
	// Delay is added before every answer (an example's own delay adds to
	// it).
	Delay time.Duration
	// MaxBodySize bounds a request body; a larger one gets 413.
	MaxBodySize int64
	// WatchInterval is how often spec and example files are checked for
	// changes; zero takes the default, negative turns hot reload off.
	WatchInterval   time.Duration
	ShutdownTimeout time.Duration
	Logger          *slog.Logger
	// Responder, when set, answers valid requests before the examples do
	// (the stateful mock's store).
	Responder Responder

	// Dictionary gives values to the notations of examples that nothing
	// else resolves, by JSON path or field name (data.dictionary in
	// specgate.yaml).
	Dictionary map[string]any
	// Strict makes a notation naming an unset variable without a default
	// an error (strictMode) instead of a generated value; the example
	// then does not answer.
	Strict bool
	// Generative answers from values generated from the schemas rather
	// than from examples (generative: true).
	Generative bool
	// StrictExamples answers a valid request that no example matches with
	// 400 instead of a generated value (lenient: false in specgate.yaml).
	StrictExamples bool

	// DisableCORS turns off the answers to CORS preflights and the CORS
	// headers of other answers (--cors=false), which a browser needs to
	// call the mock from a page of another origin.
	DisableCORS bool

	// Stateful keeps what requests create, update and delete, in a store
	// per spec seeded from the examples (type: stateful-mock).
	Stateful bool
	// StateFile, with Stateful, is where the state is read at start and
	// written on shutdown and on POST /_specgate/state/save.
	StateFile string
}

// Defaults are the options' defaults.
func Defaults() Options {
	return Options{
		MaxBodySize:     16 << 20,
		WatchInterval:   500 * time.Millisecond,
		ShutdownTimeout: 10 * time.Second,
	}
}

func (o *Options) fillDefaults() {
	d := Defaults()
	if o.MaxBodySize <= 0 {
		o.MaxBodySize = d.MaxBodySize
	}
	if o.WatchInterval == 0 {
		o.WatchInterval = d.WatchInterval
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = d.ShutdownTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
}

// Server is a mock server. Create it with New, run it with Serve.
type Server struct {
	opts    Options
	current atomic.Pointer[generation]
	// expectations are the examples added at run time through
	// /_specgate/expectations; they survive reloads.
	expectations *expectations
	// transient records the transient examples already used.
	transient *usedSet
	usage     *usage
	// state is the stateful mock's store; nil for the stateless mock.
	state    *state
	reloads  reloadStatus
	draining atomic.Bool
	handler  http.Handler
	started  time.Time
}

// New loads the specs and their examples. It fails when any spec or
// example file fails to load: the server never starts on a partial
// configuration. The error is a *LoadError naming each file, line and
// column.
func New(ctx context.Context, opts Options) (*Server, error) {
	opts.fillDefaults()
	if len(opts.Specs) == 0 {
		return nil, errors.New("no spec to serve")
	}
	s := &Server{
		opts:         opts,
		expectations: &expectations{},
		transient:    &usedSet{},
		usage:        newUsage(),
		started:      time.Now(),
	}
	if opts.Stateful {
		s.state = newState(opts.Seed, opts.StateFile)
		if s.opts.Responder == nil {
			s.opts.Responder = s.respondState
		}
	} else if opts.StateFile != "" {
		return nil, errors.New("a state file is for the stateful mock (--stateful, or type: stateful-mock)")
	}
	gen, err := s.load(ctx)
	if err != nil {
		return nil, err
	}
	if s.state != nil {
		if err := s.initState(gen); err != nil {
			return nil, err
		}
	}
	s.usage.track(gen)
	s.current.Store(gen)
	h := s.routes()
	if !opts.DisableCORS {
		h = cors(h)
	}
	s.handler = httpx.Logged(opts.Logger, problems, h)
	return s, nil
}

// Handler is the server's HTTP handler, with its access log.
func (s *Server) Handler() http.Handler { return s.handler }

// Address is where one spec is served.
type Address struct {
	Spec string // the spec as given
	URL  string // its base URL: the server's address and the spec's prefix
}

// Addresses lists where each spec is served under base (the server's
// URL, as httpx.BaseURL gives it), one per spec and prefix.
func (s *Server) Addresses(base string) []Address {
	var out []Address
	for _, a := range s.current.Load().apis {
		for _, p := range a.prefixes {
			out = append(out, Address{Spec: a.name, URL: base + p})
		}
	}
	return out
}

// Serve serves HTTP on ln, reloading changed files, until ctx ends; then
// it stops accepting connections and lets requests in flight finish (up
// to ShutdownTimeout).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := httpx.NewServer(s.handler, s.opts.Logger)
	hs.WriteTimeout = 5 * time.Minute // long example delays are allowed
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		s.watch(watchCtx)
	}()
	err := httpx.Serve(ctx, hs, ln, httpx.Shutdown{
		Timeout:  s.opts.ShutdownTimeout,
		Flag:     "--shutdown-timeout",
		Draining: func() { s.draining.Store(true) },
		Logger:   s.opts.Logger,
	})
	stopWatch()
	<-watched
	if s.state != nil && s.state.file != "" {
		if serr := s.state.save(); serr != nil {
			err = errors.Join(err, serr)
		} else {
			s.opts.Logger.Info("state saved", slog.String("file", s.state.file))
		}
	}
	if err != nil {
		return fmt.Errorf("mock: %w", err)
	}
	return nil
}
