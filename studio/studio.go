// Package studio is specgate studio: a web page, served from the binary on
// 127.0.0.1, to edit the specifications, example files and specgate.yaml of
// one folder with live diagnostics (parse errors, structural validation,
// lint, example validation and backward-compatibility changes against a git
// base branch, computed server-side on the unsaved text and cancelled when
// superseded) and actions that rewrite files (rename, import and export
// examples, generate and fix examples, add a response a failed contract test
// met, upgrade specgate.yaml), each shown as a diff before it writes.
//
// It owns the HTTP API of the page, the confinement of every path to the
// folder, the per-run token and Origin checks that keep other sites from
// driving it, atomic saves that refuse to overwrite a file changed on disk,
// and the text edits that keep a file's formatting. The page is assets/;
// its script, app.js, is bundled by go generate from the sources in web/.
package studio

//go:generate sh web/build.sh

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/specgate/specgate/internal/fsroot"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/spec"
)

//go:embed assets
var assets embed.FS

// TokenHeader carries the per-run token on every API request.
const TokenHeader = "X-Specgate-Token"

// problems are the studio's problem kinds, documented in docs/studio.md.
var problems = &httpx.Catalog{
	Base: "https://github.com/specgate/specgate/blob/main/docs/studio.md#",
	Titles: map[string]string{
		httpx.KindBadRequest:       "Bad request",
		httpx.KindNotFound:         "Not found",
		httpx.KindMethodNotAllowed: "Method not allowed",
		httpx.KindTooLarge:         "Request too large",
		httpx.KindInternal:         "Internal error",
		kindForbidden:              "Forbidden",
		kindConflict:               "Changed on disk",
		kindOutside:                "Outside the studio's folder",
	},
}

const (
	kindForbidden = "forbidden"
	kindConflict  = "conflict"
	kindOutside   = "outside-folder"
)

// Options configure a studio.
type Options struct {
	// Dir is the folder the studio edits; "" is the working directory.
	Dir string
	// Ruleset replaces the lint configuration's extends (a built-in
	// ruleset or a ruleset file under Dir); "" uses specgate-lint.yaml
	// found in Dir or above, else lenient.
	Ruleset string
	// BaseBranch is the git branch backward-compatibility diagnostics
	// compare with; "" is the remote's default branch, else main.
	BaseBranch string
	// Token is the per-run secret; "" makes a random one.
	Token string
	// Logger receives the access log and warnings; nil discards them.
	Logger *slog.Logger
	// Getenv reads the environment (specgate.yaml templates); nil is
	// os.Getenv.
	Getenv func(string) string
}

// Server is a studio: its workspace, its checker and its HTTP API.
type Server struct {
	ws      *Workspace
	token   string
	opts    Options
	logger  *slog.Logger
	checker *checker
	loader  *spec.Loader

	// allowedHosts are the Host header values the server answers (its own
	// address by IP and as localhost), against DNS rebinding.
	mu           sync.Mutex
	allowedHosts map[string]bool
}

// New returns a studio for opts.Dir.
func New(opts Options) (*Server, error) {
	if opts.Dir == "" {
		opts.Dir = "."
	}
	ws, err := NewWorkspace(opts.Dir)
	if err != nil {
		return nil, err
	}
	token := opts.Token
	if token == "" {
		b := make([]byte, 24)
		if _, err := rand.Read(b); err != nil {
			return nil, err
		}
		token = hex.EncodeToString(b)
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{ws: ws, token: token, opts: opts, logger: logger, allowedHosts: map[string]bool{}}
	s.loader = spec.NewLoader(spec.Options{RefRoot: ws.Dir()})
	s.checker = newChecker(s)
	return s, nil
}

// Workspace is the folder the studio edits.
func (s *Server) Workspace() *Workspace { return s.ws }

// Token is the per-run token that API requests carry.
func (s *Server) Token() string { return s.token }

// URL is the address a person opens: the server's base URL with the token,
// which the page keeps and removes from the address bar.
func (s *Server) URL(addr net.Addr) string {
	return httpx.BaseURL(addr) + "/?token=" + url.QueryEscape(s.token)
}

// Listening tells the server the address it answers on, so that requests
// naming another host (DNS rebinding) are refused.
func (s *Server) Listening(addr net.Addr) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ta, ok := addr.(*net.TCPAddr); ok {
		port := ta.Port
		for _, h := range []string{ta.IP.String(), "localhost", "127.0.0.1", "[::1]"} {
			s.allowedHosts[net.JoinHostPort(strings.Trim(h, "[]"), strconv.Itoa(port))] = true
		}
	}
}

// Warm compiles the lint rules and reads the git base in the background,
// so that the first diagnostics come as fast as the later ones.
func (s *Server) Warm(ctx context.Context) {
	go s.checker.warm(ctx)
}

// Handler is the studio's HTTP handler: the page and its assets, and the
// API under /api/.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	files := http.FileServerFS(static)
	mux.Handle("GET /", noStore(files))
	mux.HandleFunc("GET /api/tree", s.handleTree)
	mux.HandleFunc("GET /api/file", s.handleRead)
	mux.HandleFunc("GET /api/version", s.handleVersion)
	mux.HandleFunc("PUT /api/file", s.handleSave)
	mux.HandleFunc("POST /api/check", s.handleCheck)
	mux.HandleFunc("GET /api/operations", s.handleOperations)
	mux.HandleFunc("GET /api/report", s.handleReport)
	mux.HandleFunc("POST /api/actions/{action}", s.handleAction)
	return httpx.Logged(s.logger, problems, s.guard(mux))
}

// guard refuses requests that another site could have made: a Host that is
// not the server's own (DNS rebinding), an Origin that is not the page's,
// and an API request without the per-run token.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		hostOK := len(s.allowedHosts) == 0 || s.allowedHosts[r.Host]
		s.mu.Unlock()
		if !hostOK {
			httpx.WriteProblem(w, r, problems.New(http.StatusForbidden, kindForbidden, "host "+r.Host+" is not this studio's address; open the URL it printed"))
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.sameOrigin(o, r.Host) {
			httpx.WriteProblem(w, r, problems.New(http.StatusForbidden, kindForbidden, "origin "+o+" is not allowed: only the studio's own page may call it"))
			return
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" {
			httpx.WriteProblem(w, r, problems.New(http.StatusForbidden, kindForbidden, "cross-site requests are refused"))
			return
		}
		if strings.HasPrefix(r.URL.Path, "/api/") {
			got := r.Header.Get(TokenHeader)
			if subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
				httpx.WriteProblem(w, r, problems.New(http.StatusForbidden, kindForbidden, "missing or wrong "+TokenHeader+": open the URL the studio printed, which carries its token"))
				return
			}
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether an Origin header names the server itself.
func (s *Server) sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.Host != host {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.allowedHosts) == 0 || s.allowedHosts[u.Host]
}

func noStore(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

// writeJSON sends v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// fail sends an error as a problem: a path outside the folder is 403, a
// missing file 404, anything else 400.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	var pe *problemError
	var p *httpx.Problem
	switch {
	case errors.As(err, &pe):
		p = pe.p
	case errors.Is(err, errOutside):
		p = problems.New(http.StatusForbidden, kindOutside, err.Error())
	case errors.Is(err, fs.ErrNotExist):
		p = problems.New(http.StatusNotFound, httpx.KindNotFound, fsroot.UnwrapPath(err).Error())
	default:
		p = problems.New(http.StatusBadRequest, httpx.KindBadRequest, err.Error())
	}
	var se *spec.Error
	if errors.As(err, &se) {
		p.File, p.Line, p.Column = s.ws.Rel(se.File), int(se.Pos.Line), int(se.Pos.Col)
	}
	httpx.WriteProblem(w, r, p)
}

// decode reads a JSON request body of at most limit bytes into v.
func decode(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	data, err := httpx.ReadBody(w, r, limit)
	if errors.Is(err, httpx.ErrTooLarge) {
		return &problemError{problems.TooLarge(limit, "")}
	}
	if err != nil {
		return err
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &problemError{problems.New(http.StatusBadRequest, httpx.KindBadRequest, "the request body is not the JSON expected: "+err.Error())}
	}
	return nil
}

// problemError carries a problem of a given status through error returns.
type problemError struct{ p *httpx.Problem }

func (e *problemError) Error() string { return e.p.Detail }

// Close removes what the studio keeps on disk (the base branch's files).
func (s *Server) Close() error {
	s.checker.git.close()
	return nil
}
