// Package httpx is what every specgate server shares: RFC 9457 problem
// documents, request ids and one structured access log line per request,
// recovery from panics, request body limits, loopback-by-default
// listening and graceful shutdown on SIGINT and SIGTERM; and what their
// clients share: the contract tests' client with proxies, mutual TLS and
// retries, and the guarded fetch of URLs a request names (GuardedClient,
// FetchSpec), which refuses private addresses. The lint server,
// the mock server and the front ends over them (studio, MCP over HTTP)
// build on it, so that they answer, log and stop alike.
package httpx

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// DefaultHost is where servers listen unless told otherwise: a mock or a
// studio on a laptop is not for the network it sits on.
const DefaultHost = "127.0.0.1"

// Listen opens a TCP listener on host and port; an empty host is
// DefaultHost and port 0 picks a free port (the listener's Addr says
// which).
func Listen(host string, port int) (net.Listener, error) {
	if port < 0 || port > 65535 {
		return nil, fmt.Errorf("port must be between 0 and 65535, found %d", port)
	}
	if host == "" {
		host = DefaultHost
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("cannot listen: %w", err)
	}
	return ln, nil
}

// BaseURL is the http URL that reaches a listener: its address, with an
// unspecified host (0.0.0.0, ::) written as the loopback address that
// reaches it from the same machine.
func BaseURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}

// SignalContext is parent, canceled on SIGINT or SIGTERM: a server given
// it shuts down gracefully on either. stop releases the signals.
func SignalContext(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

// NewServer is an http.Server for h with the limits every specgate server
// keeps: headers read within 10 s and at most 64 KiB of them, idle
// connections closed after 2 minutes, and net/http's own errors logged at
// Warn through logger. Callers set ReadTimeout and WriteTimeout to what
// their requests take.
func NewServer(h http.Handler, logger *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
}

// Shutdown configures the end of Serve.
type Shutdown struct {
	// Timeout is how long requests in flight may take to finish once ctx
	// ends; the connections still open then are closed.
	Timeout time.Duration
	// Flag names the setting of Timeout in the error of a shutdown that
	// ran out of time.
	Flag string
	// Draining, when not nil, is called as the shutdown starts (a health
	// check may then fail, so that a load balancer stops sending).
	Draining func()
	Logger   *slog.Logger
}

// Serve serves hs on ln until ctx ends or serving fails, then stops
// accepting connections and waits up to sd.Timeout for the requests in
// flight. It returns nil after a clean shutdown, and an error when
// serving failed or requests were still in flight at the deadline.
//
// Connections that carry no request are closed at once as the shutdown
// begins: idle keep-alive ones by http.Server.Shutdown, and those opened
// and never used (a browser's preconnect, a client's spare) once they
// have stayed silent for newConnGrace, where net/http would wait 5 s for
// them. A request in flight finishes, and its connection is closed after
// it.
func Serve(ctx context.Context, hs *http.Server, ln net.Listener, sd Shutdown) error {
	logger := sd.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	fresh := trackNewConns(hs)
	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()
	logger.Info("listening", slog.String("addr", ln.Addr().String()))

	var err error
	select {
	case err = <-serveErr:
	case <-ctx.Done():
		if sd.Draining != nil {
			sd.Draining()
		}
		logger.Info("shutting down: finishing requests in flight", slog.Duration("timeout", sd.Timeout))
		hs.SetKeepAlivesEnabled(false)
		closeFresh := time.AfterFunc(newConnGrace, fresh.closeAll)
		shutdownCtx, cancel := context.WithTimeout(context.Background(), sd.Timeout)
		err = hs.Shutdown(shutdownCtx)
		cancel()
		closeFresh.Stop()
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("requests still in flight after %s (%s): %w", sd.Timeout, sd.Flag, err)
			_ = hs.Close()
		}
		<-serveErr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// newConnGrace is how long a connection opened before the shutdown may
// stay silent before it is closed: long enough for a request already on
// its way to arrive, short enough that nobody waits for it.
const newConnGrace = 250 * time.Millisecond

// newConns are a server's connections that have not yet sent a request
// (http.StateNew).
type newConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// trackNewConns follows hs's connections through its ConnState hook (the
// caller's own hook still runs).
func trackNewConns(hs *http.Server) *newConns {
	n := &newConns{conns: map[net.Conn]struct{}{}}
	prev := hs.ConnState
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		n.mu.Lock()
		if st == http.StateNew {
			n.conns[c] = struct{}{}
		} else {
			delete(n.conns, c)
		}
		n.mu.Unlock()
		if prev != nil {
			prev(c, st)
		}
	}
	return n
}

// closeAll closes the connections that still have not sent a request.
func (n *newConns) closeAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for c := range n.conns {
		_ = c.Close()
		delete(n.conns, c)
	}
}
