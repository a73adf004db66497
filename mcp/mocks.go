package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/mock"
)

// MockInput is the input of manage_mock_server.
type MockInput struct {
	Command  string   `json:"command" jsonschema:"start a mock, stop one (or all), or list those running"`
	Specs    []string `json:"specs,omitempty" jsonschema:"start: the OpenAPI 2.0/3.x specifications to serve on one port, relative to the root; each one's <name>_examples folder is read too"`
	Port     int      `json:"port,omitempty" jsonschema:"start: the TCP port on 127.0.0.1; 0 or absent picks a free one"`
	Examples []string `json:"examples,omitempty" jsonschema:"start: further folders of external example files, relative to the root"`
	Stateful bool     `json:"stateful,omitempty" jsonschema:"start: a stateful mock, which keeps what requests create, update and delete, in a store seeded from the examples"`
	ID       string   `json:"id,omitempty" jsonschema:"stop: the id start gave, or all"`
}

// MockOutput is the answer of manage_mock_server.
type MockOutput struct {
	ID      string     `json:"id,omitempty" jsonschema:"start: the new mock's id; stop: the id stopped"`
	Address string     `json:"address,omitempty" jsonschema:"start: the mock server's base URL"`
	Specs   []MockSpec `json:"specs,omitempty" jsonschema:"start: where each specification is served (the address and its servers' path prefix)"`
	Mocks   []MockInfo `json:"mocks" jsonschema:"the mocks running once the command is done"`
}

// MockSpec is where one specification is served.
type MockSpec struct {
	Spec string `json:"spec"`
	URL  string `json:"url"`
}

// MockInfo is a running mock.
type MockInfo struct {
	ID       string     `json:"id"`
	Address  string     `json:"address"`
	Specs    []MockSpec `json:"specs"`
	Stateful bool       `json:"stateful,omitempty"`
	Started  string     `json:"started" jsonschema:"when it started, RFC 3339"`
}

// mocks are the mock servers an agent started. They serve in the server's
// process under its life: stop ends one, Close all of them.
type mocks struct {
	s    *Server
	mu   sync.Mutex
	next int
	run  map[string]*runningMock
}

type runningMock struct {
	info   MockInfo
	cancel context.CancelFunc
	done   chan error // receives Serve's error, then is closed
}

// mockShutdown is how long a stopped mock lets its requests in flight
// finish.
const mockShutdown = 3 * time.Second

func newMocks(s *Server) *mocks { return &mocks{s: s, run: map[string]*runningMock{}} }

func (s *Server) addMock() {
	add(s, &mcpsdk.Tool{
		Name:  ToolMock,
		Title: "Manage mock servers",
		Description: "Start, stop or list mock servers of OpenAPI 2.0/3.x specifications. A mock answers each request from the examples that match it, " +
			"else from the schemas, and answers requests that break the contract with 400, 401, 404, 405, 415 or 422 problems naming the JSON path. " +
			"start serves the specs on 127.0.0.1 (port, or a free one) and returns the address and an id; mocks run inside this MCP server until stopped or until it exits. Same mock as `specgate mock`.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	}, map[string][]any{"command": {"start", "stop", "list"}}, s.manageMock)
}

func (s *Server) manageMock(ctx context.Context, c *call, in MockInput) (MockOutput, error) {
	var out MockOutput
	var err error
	switch in.Command {
	case "start":
		out, err = s.mocks.start(ctx, in)
	case "stop":
		out.ID, err = s.mocks.stop(in.ID)
	case "list":
	default:
		return out, fmt.Errorf("command %q is not one of start, stop, list", in.Command)
	}
	if err != nil {
		return out, err
	}
	out.Mocks = s.mocks.list()
	return out, nil
}

func (m *mocks) start(ctx context.Context, in MockInput) (MockOutput, error) {
	var out MockOutput
	if len(in.Specs) == 0 {
		return out, errors.New("start needs specs: the specifications to serve")
	}
	if in.ID != "" {
		return out, errors.New("start gives the id; id is for stop")
	}
	if in.Port < 0 || in.Port > 65535 {
		return out, fmt.Errorf("port must be between 0 and 65535, found %d", in.Port)
	}
	opts := mock.Options{Logger: m.s.opts.Logger, ShutdownTimeout: mockShutdown, Stateful: in.Stateful}
	for _, p := range in.Specs {
		abs, err := m.s.root.File("spec", p)
		if err != nil {
			return out, err
		}
		opts.Specs = append(opts.Specs, mock.SpecSource{Path: abs})
	}
	var err error
	if opts.Examples, err = m.s.root.Folders("examples", in.Examples); err != nil {
		return out, err
	}
	m.mu.Lock()
	full := len(m.run) >= MaxMocks
	m.mu.Unlock()
	if full {
		return out, fmt.Errorf("%d mocks are running, the most this server runs at once; stop one first", MaxMocks)
	}
	srv, err := mock.New(ctx, opts)
	if err != nil {
		var paths []string
		for _, sp := range opts.Specs {
			paths = append(paths, sp.Path)
		}
		return out, m.s.toolError(ctx, ToolMock, err, paths...)
	}
	ln, err := httpx.Listen(httpx.DefaultHost, in.Port)
	if err != nil {
		return out, fmt.Errorf("port %d: %w", in.Port, err)
	}
	base := httpx.BaseURL(ln.Addr())
	mctx, cancel := context.WithCancel(m.s.life)
	rm := &runningMock{cancel: cancel, done: make(chan error, 1),
		info: MockInfo{Address: base, Stateful: in.Stateful, Started: time.Now().UTC().Format(time.RFC3339)}}
	for _, a := range srv.Addresses(base) {
		rm.info.Specs = append(rm.info.Specs, MockSpec{Spec: m.s.root.Show(a.Spec), URL: a.URL})
	}
	m.mu.Lock()
	if m.s.life.Err() != nil {
		m.mu.Unlock()
		cancel()
		ln.Close()
		return out, errors.New("the server is shutting down")
	}
	m.next++
	rm.info.ID = "mock-" + strconv.Itoa(m.next)
	m.run[rm.info.ID] = rm
	m.mu.Unlock()
	go func() {
		rm.done <- srv.Serve(mctx, ln)
		close(rm.done)
	}()
	m.s.opts.Logger.Info("mock started", "id", rm.info.ID, "address", base)
	out.ID, out.Address, out.Specs = rm.info.ID, base, rm.info.Specs
	return out, nil
}

// stop stops the mock id, or every mock for "all", and waits until its
// listener is closed.
func (m *mocks) stop(id string) (string, error) {
	if id == "" {
		return "", errors.New("stop needs the id of a mock (start gave it; list shows them), or all")
	}
	if id == "all" {
		return id, m.stopAll()
	}
	m.mu.Lock()
	rm := m.run[id]
	delete(m.run, id)
	ids := slices.Sorted(maps.Keys(m.run))
	m.mu.Unlock()
	if rm == nil {
		if len(ids) == 0 {
			return "", fmt.Errorf("no mock %q is running (none is)", id)
		}
		return "", fmt.Errorf("no mock %q is running (running: %v)", id, ids)
	}
	return id, rm.stop()
}

func (rm *runningMock) stop() error {
	rm.cancel()
	if err := <-rm.done; err != nil {
		return fmt.Errorf("%s: %w", rm.info.ID, err)
	}
	return nil
}

// stopAll stops every mock at once.
func (m *mocks) stopAll() error {
	m.mu.Lock()
	all := slices.Collect(maps.Values(m.run))
	clear(m.run)
	m.mu.Unlock()
	errs := make([]error, len(all))
	var wg sync.WaitGroup
	for i, rm := range all {
		wg.Go(func() { errs[i] = rm.stop() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (m *mocks) list() []MockInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]MockInfo, 0, len(m.run))
	for _, rm := range m.run {
		out = append(out, rm.info)
	}
	slices.SortFunc(out, func(a, b MockInfo) int {
		return cmp.Or(cmp.Compare(len(a.ID), len(b.ID)), cmp.Compare(a.ID, b.ID))
	})
	return out
}
