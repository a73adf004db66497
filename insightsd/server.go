// Package insightsd is a small insights service: it receives the
// submissions of specgate --ci (docs/insights-api.yaml), stores them as
// plain files, and answers what an organisation asks of them: the latest
// result per repository and specification, the history of one
// specification, and which repositories consume an operation (the
// compatibility check's question). specgate insights-server runs it.
package insightsd

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/internal/jsonpos"
	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/spec"
)

// Defaults.
const (
	DefaultPort        = 9100
	DefaultMaxBodySize = 64 << 20
	DefaultHistory     = 100
	MaxHistory         = 1000
	// maxOperations bounds the operations one consumers query names.
	maxOperations = 1000
	// maxShards bounds the shards of a sharded run.
	maxShards = 1000
)

// Kinds of submission the service files.
var Kinds = []string{"contract", "stub-usage", "workflow", "backward-compatibility", insights.SpecMetadataKind}

// Options configure a Server.
type Options struct {
	// Dir is the folder of the store.
	Dir string
	// Token, when set, is required as a bearer token on every /v1 request.
	Token string
	// MaxBodySize bounds a submission, once decompressed; zero is
	// DefaultMaxBodySize.
	MaxBodySize int64
	Logger      *slog.Logger
	Version     string
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Server is the insights service over a Store.
type Server struct {
	opts    Options
	store   *Store
	handler http.Handler
}

// The problem kinds of the service, beyond httpx's.
const (
	kindUnauthorized = "unauthorized"
	kindConflict     = "conflict"
)

var problems = &httpx.Catalog{
	Base: "https://github.com/specgate/specgate/blob/main/docs/insights.md#",
	Titles: map[string]string{
		httpx.KindBadRequest:       "Bad request",
		httpx.KindNotFound:         "Not found",
		httpx.KindMethodNotAllowed: "Method not allowed",
		httpx.KindTooLarge:         "Request too large",
		httpx.KindUnsupportedMedia: "Unsupported media type",
		httpx.KindInternal:         "Internal error",
		kindUnauthorized:           "Unauthorized",
		kindConflict:               "Conflict",
	},
}

// New opens the store and builds the service.
func New(opts Options) (*Server, error) {
	if opts.MaxBodySize <= 0 {
		opts.MaxBodySize = DefaultMaxBodySize
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	store, err := Open(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("the store in %s: %w", opts.Dir, err)
	}
	s := &Server{opts: opts, store: store}
	mux := http.NewServeMux()
	mux.HandleFunc("/health", s.only(http.MethodGet, s.health))
	mux.HandleFunc("/health/info", s.only(http.MethodGet, s.info))
	mux.HandleFunc("/v1/submissions", s.authorized(s.only(http.MethodPost, s.submit)))
	mux.HandleFunc("/v1/submissions/{id}", s.authorized(s.only(http.MethodGet, s.submission)))
	mux.HandleFunc("/v1/results/latest", s.authorized(s.only(http.MethodGet, s.latest)))
	mux.HandleFunc("/v1/results/history", s.authorized(s.only(http.MethodGet, s.history)))
	mux.HandleFunc("/v1/consumers", s.authorized(s.only(http.MethodGet, s.consumers)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteProblem(w, r, problems.New(http.StatusNotFound, httpx.KindNotFound, "no such endpoint; see docs/insights-api.yaml"))
	})
	s.handler = httpx.Logged(opts.Logger, problems, mux)
	return s, nil
}

// Handler is the service's HTTP handler.
func (s *Server) Handler() http.Handler { return s.handler }

// Store is the service's store.
func (s *Server) Store() *Store { return s.store }

// Close closes the store.
func (s *Server) Close() error { return s.store.Close() }

// Serve serves on ln until ctx ends, then lets requests in flight finish
// within shutdownTimeout.
func (s *Server) Serve(ctx context.Context, ln net.Listener, shutdownTimeout time.Duration) error {
	hs := httpx.NewServer(s.handler, s.opts.Logger)
	hs.ReadTimeout = 2 * time.Minute
	hs.WriteTimeout = 2 * time.Minute
	return httpx.Serve(ctx, hs, ln, httpx.Shutdown{Timeout: shutdownTimeout, Flag: "--shutdown-timeout", Logger: s.opts.Logger})
}

// only answers 405 with Allow to methods other than method (and HEAD for
// GET).
func (s *Server) only(method string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
			w.Header().Set("Allow", method)
			httpx.WriteProblem(w, r, problems.New(http.StatusMethodNotAllowed, httpx.KindMethodNotAllowed,
				fmt.Sprintf("%s does not take %s; it takes %s", r.URL.Path, r.Method, method)))
			return
		}
		h(w, r)
	}
}

// authorized requires the bearer token when one is configured.
func (s *Server) authorized(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.opts.Token == "" {
			h(w, r)
			return
		}
		scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(s.opts.Token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="specgate-insights"`)
			detail := "this service requires a bearer token (" + insights.TokenEnv + " on the client)"
			if token != "" {
				detail = "the bearer token is not the one this service accepts"
			}
			httpx.WriteProblem(w, r, problems.New(http.StatusUnauthorized, kindUnauthorized, detail))
			return
		}
		h(w, r)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

func writeHealth(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/health+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}

// Health is the answer of GET /health, in the health check response
// format.
type Health struct {
	Status string `json:"status"` // pass or fail
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	if s.store.Check() != nil {
		writeHealth(w, http.StatusServiceUnavailable, Health{Status: "fail"})
		return
	}
	writeHealth(w, http.StatusOK, Health{Status: "pass"})
}

// Info is the answer of GET /health/info.
type Info struct {
	Status  string `json:"status"`
	Name    string `json:"name"`
	Version string `json:"version"`
	// TokenRequired says whether /v1 requests need a bearer token.
	TokenRequired bool               `json:"tokenRequired"`
	Checks        map[string][]Check `json:"checks"`
}

// Check is one check of the health check response format.
type Check struct {
	ComponentType string `json:"componentType"`
	Status        string `json:"status"`
	ObservedValue int    `json:"observedValue"`
	ObservedUnit  string `json:"observedUnit"`
	Output        string `json:"output,omitempty"`
}

func (s *Server) info(w http.ResponseWriter, r *http.Request) {
	check := Check{ComponentType: "datastore", Status: "pass", ObservedValue: s.store.Count(), ObservedUnit: "submissions", Output: "files in " + s.opts.Dir}
	status := http.StatusOK
	if err := s.store.Check(); err != nil {
		check.Status, check.Output, status = "fail", err.Error(), http.StatusServiceUnavailable
	}
	writeHealth(w, status, Info{Status: check.Status, Name: "specgate insights-server", Version: s.opts.Version,
		TokenRequired: s.opts.Token != "", Checks: map[string][]Check{"store": {check}}})
}

// submit stores a submission and answers 201 with its receipt; one stored
// already is answered the same, marked as a replay, and other content
// under a stored id is a 409 conflict.
func (s *Server) submit(w http.ResponseWriter, r *http.Request) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		httpx.WriteProblem(w, r, problems.New(http.StatusUnsupportedMediaType, httpx.KindUnsupportedMedia,
			fmt.Sprintf("a submission is application/json, not %q", r.Header.Get("Content-Type"))))
		return
	}
	raw, p := problems.ReadBody(w, r, s.opts.MaxBodySize, "--max-body-size")
	if p != nil {
		httpx.WriteProblem(w, r, p)
		return
	}
	switch enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			httpx.WriteProblem(w, r, problems.New(http.StatusBadRequest, httpx.KindBadRequest, "the body is not gzip: "+err.Error()))
			return
		}
		// A small body may expand a thousandfold: the limit is on what it
		// expands to.
		raw, err = io.ReadAll(io.LimitReader(zr, s.opts.MaxBodySize+1))
		if err != nil {
			httpx.WriteProblem(w, r, problems.New(http.StatusBadRequest, httpx.KindBadRequest, "the gzip body is broken: "+err.Error()))
			return
		}
		if int64(len(raw)) > s.opts.MaxBodySize {
			httpx.WriteProblem(w, r, problems.TooLarge(s.opts.MaxBodySize, "--max-body-size"))
			return
		}
	default:
		httpx.WriteProblem(w, r, problems.New(http.StatusUnsupportedMediaType, httpx.KindUnsupportedMedia,
			fmt.Sprintf("Content-Encoding %q is not gzip or identity", enc)))
		return
	}
	var sub insights.Submission
	if err := json.Unmarshal(raw, &sub); err != nil {
		httpx.WriteProblem(w, r, submissionProblem(raw, err))
		return
	}
	if msg := missingMembers(raw); msg != "" {
		httpx.WriteProblem(w, r, problems.New(http.StatusBadRequest, httpx.KindBadRequest, msg))
		return
	}
	if msg := check(&sub); msg != "" {
		httpx.WriteProblem(w, r, problems.New(http.StatusBadRequest, httpx.KindBadRequest, msg))
		return
	}
	at, dup, err := s.store.Add(&sub, compactJSON(raw), s.opts.Now())
	if errors.Is(err, ErrConflict) {
		httpx.WriteProblem(w, r, problems.New(http.StatusConflict, kindConflict,
			fmt.Sprintf("submission %q exists with other content: an id names one submission; send other content under another id", sub.ID)))
		return
	}
	if err != nil {
		s.opts.Logger.Error("storing a submission", slog.String("id", sub.ID), slog.String("error", err.Error()))
		httpx.WriteProblem(w, r, problems.New(http.StatusInternalServerError, httpx.KindInternal, "the submission could not be stored; see the service's log"))
		return
	}
	httpx.LogAttrs(r.Context(), slog.String("submission", sub.ID), slog.String("repoId", sub.CI.RepoID), slog.String("kind", sub.Kind), slog.Bool("duplicate", dup))
	// A replay gets the answer the first submission got, as idempotency
	// keys have it, and says it is one.
	w.Header().Set("Location", "/v1/submissions/"+sub.ID)
	if dup {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeJSON(w, http.StatusCreated, insights.Receipt{ID: sub.ID, ReceivedAt: at, Duplicate: dup})
}

// missingMembers names the members a submission must have that it has
// not (Go's zero values cannot tell an absent member from an empty one).
func missingMembers(raw []byte) string {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return "the body is not a JSON object"
	}
	var missing []string
	for _, name := range []string{"schemaVersion", "id", "command", "kind", "tool", "ci", "results", "reports"} {
		if v, ok := members[name]; !ok || string(v) == "null" {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	return "a submission needs " + strings.Join(missing, ", ")
}

// check says what is wrong with a submission, or "": the constraints
// docs/insights-api.yaml states, which the answers then keep.
func check(sub *insights.Submission) string {
	switch {
	case sub.SchemaVersion != insights.SchemaVersion:
		return fmt.Sprintf("schemaVersion %d is not supported: this service reads %d", sub.SchemaVersion, insights.SchemaVersion)
	case !validID().MatchString(sub.ID):
		return fmt.Sprintf("id %q must be 8 to 64 letters, digits, '_' or '-'", sub.ID)
	case !commandName().MatchString(sub.Command):
		return fmt.Sprintf("command %q must be a specgate command's name (lower-case letters and '-', at most 64)", sub.Command)
	case !contains(Kinds, sub.Kind):
		return fmt.Sprintf("kind %q is not one of %s", sub.Kind, strings.Join(Kinds, ", "))
	case sub.CI.RepoID == "":
		return "ci.repoId is required: results are filed by repository"
	case sub.CI.RunAttempt < 0:
		return fmt.Sprintf("ci.runAttempt %d must be at least 1", sub.CI.RunAttempt)
	case sub.Shard != nil && (sub.Shard.Count < 2 || sub.Shard.Count > maxShards || sub.Shard.Index < 1 || sub.Shard.Index > sub.Shard.Count):
		return fmt.Sprintf("shard %s is not i/n with 1 ≤ i ≤ n and 2 ≤ n ≤ %d", sub.Shard, maxShards)
	case sub.Shard != nil && sub.CI.BuildID == "":
		return "a shard needs ci.buildId: the service combines the shards of one build"
	}
	ci := &sub.CI
	for _, f := range []struct {
		name, value string
		max         int
	}{
		{"ci.repoId", ci.RepoID, 512}, {"ci.repoUrl", ci.RepoURL, 2048}, {"ci.branch", ci.Branch, 512}, {"ci.commit", ci.Commit, 128},
		{"ci.buildId", ci.BuildID, 256}, {"ci.buildUrl", ci.BuildURL, 2048}, {"ci.pullRequest", ci.PullRequest, 64},
		{"tool.name", sub.Tool.Name, 64}, {"tool.version", sub.Tool.Version, 64},
	} {
		if msg := token(f.name, f.value, f.max); msg != "" {
			return msg
		}
	}
	if len(ci.Metadata) > 256 {
		return fmt.Sprintf("ci.metadata has %d fields; at most 256", len(ci.Metadata))
	}
	for k, v := range ci.Metadata {
		if !metadataKey().MatchString(k) {
			return fmt.Sprintf("ci.metadata key %q must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", k)
		}
		if len(v) > 1024 {
			return fmt.Sprintf("ci.metadata.%s is longer than 1024 bytes", k)
		}
	}
	for i, r := range sub.Results {
		switch {
		case r.Spec.ID == "":
			return fmt.Sprintf("results[%d].spec.id is required", i)
		case !statusWord().MatchString(r.Status):
			return fmt.Sprintf("results[%d].status %q must be a word such as passed or incompatible", i, r.Status)
		}
		if msg := token(fmt.Sprintf("results[%d].spec.id", i), r.Spec.ID, 2048); msg != "" {
			return msg
		}
		for j, op := range r.UsedOperations {
			if strings.TrimSpace(op) == "" || len(op) > 1024 {
				return fmt.Sprintf("results[%d].usedOperations[%d] must be 1 to 1024 characters, such as \"GET /pets\"", i, j)
			}
		}
	}
	return ""
}

// The patterns of a submission's fields, compiled when the service first
// checks one: their counted repetitions make programs of tens of
// kilobytes, which every other command would build at start-up.
var (
	commandName = lazyregexp.New(`^[a-z][a-z-]{0,63}$`)
	statusWord  = lazyregexp.New(`^[a-z-]{1,32}$`)
	metadataKey = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
)

// token says what is wrong with an identifier-like field: white space, or
// more than max bytes.
func token(name, v string, max int) string {
	if len(v) > max {
		return fmt.Sprintf("%s is longer than %d bytes", name, max)
	}
	if strings.IndexFunc(v, unicode.IsSpace) >= 0 {
		return fmt.Sprintf("%s %q must not contain white space", name, v)
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// submissionProblem is the 400 problem of a body that does not decode as
// a submission: a syntax error at the offending byte, a value of the wrong
// type or a time that does not parse at its start, with its member as the
// field, each placed by its
// line and column in the body (as the lint server places a request's).
func submissionProblem(data []byte, err error) *httpx.Problem {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off, field := int64(-1), ""
	switch {
	case errors.As(err, &se):
		off = se.Offset - 1 // Unmarshal counts the offending byte as read
	case errors.As(err, &te):
		off, field = jsonpos.ValueStart(data, te.Offset), te.Field
		if te.Field != "" {
			err = fmt.Errorf("%s is a JSON %s, where a %s goes", te.Field, te.Value, te.Type)
		}
	default:
		if f, at, terr := badTime(data); terr != nil {
			off, field, err = at, f, terr
		}
	}
	p := problems.New(http.StatusBadRequest, httpx.KindBadRequest, "")
	p.Field = field
	if off < 0 {
		p.Detail = "the body is not a submission: " + err.Error()
		return p
	}
	at := spec.PosAt(data, int(off))
	p.Line, p.Column = int(at.Line), int(at.Col)
	p.Detail = fmt.Sprintf("the body is not a submission: line %d, column %d: %v", at.Line, at.Col, err)
	return p
}

func (s *Server) submission(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID().MatchString(id) {
		p := problems.New(http.StatusBadRequest, httpx.KindBadRequest, fmt.Sprintf("%q is not a submission id (8 to 64 letters, digits, '_' or '-')", id))
		p.Field = "id"
		httpx.WriteProblem(w, r, p)
		return
	}
	data, err := s.store.Submission(id)
	if err != nil {
		s.opts.Logger.Error("reading a submission", slog.String("id", id), slog.String("error", err.Error()))
		httpx.WriteProblem(w, r, problems.New(http.StatusInternalServerError, httpx.KindInternal, "the submission could not be read; see the service's log"))
		return
	}
	if data == nil {
		httpx.WriteProblem(w, r, problems.New(http.StatusNotFound, httpx.KindNotFound, fmt.Sprintf("no submission %q", id)))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(data)
}

// filter reads the query parameters of a results query.
func filter(r *http.Request) Filter {
	q := r.URL.Query()
	return Filter{RepoID: q.Get("repoId"), Spec: q.Get("spec"), Kind: q.Get("kind"), Branch: q.Get("branch")}
}

// checkFilter answers 400 to a filter the description does not allow:
// identifiers with white space or too long, an unknown kind.
func (s *Server) checkFilter(w http.ResponseWriter, r *http.Request, f Filter) bool {
	for _, p := range []struct {
		name, value string
		max         int
	}{{"repoId", f.RepoID, 512}, {"spec", f.Spec, 2048}, {"branch", f.Branch, 512}} {
		if msg := token(p.name, p.value, p.max); msg != "" {
			prob := problems.New(http.StatusBadRequest, httpx.KindBadRequest, msg)
			prob.Field = p.name
			httpx.WriteProblem(w, r, prob)
			return false
		}
	}
	return s.checkKind(w, r, f.Kind)
}

func (s *Server) checkKind(w http.ResponseWriter, r *http.Request, kind string) bool {
	if kind != "" && !contains(Kinds, kind) {
		p := problems.New(http.StatusBadRequest, httpx.KindBadRequest, fmt.Sprintf("kind %q is not one of %s", kind, strings.Join(Kinds, ", ")))
		p.Field, p.Allowed = "kind", Kinds
		httpx.WriteProblem(w, r, p)
		return false
	}
	return true
}

func (s *Server) latest(w http.ResponseWriter, r *http.Request) {
	f := filter(r)
	if !s.checkFilter(w, r, f) {
		return
	}
	writeJSON(w, http.StatusOK, insights.Results{Results: s.store.Latest(f)})
}

func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	f := filter(r)
	if f.Spec == "" {
		p := problems.New(http.StatusBadRequest, httpx.KindBadRequest, "spec is required: the history is of one specification")
		p.Field = "spec"
		httpx.WriteProblem(w, r, p)
		return
	}
	if !s.checkFilter(w, r, f) {
		return
	}
	limit := DefaultHistory
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxHistory {
			p := problems.New(http.StatusBadRequest, httpx.KindBadRequest, fmt.Sprintf("limit %q must be a whole number from 1 to %d", v, MaxHistory))
			p.Field = "limit"
			httpx.WriteProblem(w, r, p)
			return
		}
		limit = n
	}
	writeJSON(w, http.StatusOK, insights.Results{Results: s.store.History(f, limit)})
}

func (s *Server) consumers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	spec := q.Get("spec")
	if spec == "" {
		p := problems.New(http.StatusBadRequest, httpx.KindBadRequest, "spec is required: consumers are of a specification's operations")
		p.Field = "spec"
		httpx.WriteProblem(w, r, p)
		return
	}
	if !s.checkFilter(w, r, Filter{Spec: spec}) {
		return
	}
	ops := q["operation"]
	if len(ops) > maxOperations {
		p := problems.New(http.StatusBadRequest, httpx.KindBadRequest, fmt.Sprintf("%d operations asked for; at most %d at once", len(ops), maxOperations))
		p.Field = "operation"
		httpx.WriteProblem(w, r, p)
		return
	}
	for _, op := range ops {
		if strings.TrimSpace(op) == "" || len(op) > 1024 {
			p := problems.New(http.StatusBadRequest, httpx.KindBadRequest, fmt.Sprintf("operation %q must be 1 to 1024 characters, such as \"GET /pets\"", op))
			p.Field = "operation"
			httpx.WriteProblem(w, r, p)
			return
		}
	}
	writeJSON(w, http.StatusOK, s.store.Consumers(spec, ops))
}
