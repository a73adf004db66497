package server

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/internal/httpx"
)

// Endpoints lists the server's endpoints, for --help and the docs.
var Endpoints = [][3]string{
	{"POST", "/lint-reports", "lint a spec, inline or by URL; answers its JSON or SARIF report"},
	{"GET", "/config/status", "the configuration serving: commit, profiles, rule counts, refreshes"},
	{"POST", "/config/refresh", "refresh the configuration now (202; follow it at /config/status)"},
	{"GET", "/api-docs", "interactive API documentation (Swagger UI, from the binary)"},
	{"GET", "/api-docs/openapi.json", "the server's OpenAPI 3.1 description"},
	{"GET", "/health", "liveness (application/health+json)"},
	{"GET", "/health/info", "release, configuration refresh and lint slots (application/health+json)"},
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	// Every path but the health checks counts against --rate-limit:
	// monitors must get an answer whatever other clients do.
	limited := s.limiter.limited
	mux.Handle("/lint-reports", limited(methods{http.MethodPost: s.handleLint}))
	mux.Handle("/config/status", limited(methods{http.MethodGet: s.handleStatus}))
	mux.Handle("/config/refresh", limited(methods{http.MethodPost: s.handleRefresh}))
	mux.Handle("/api-docs", limited(methods{http.MethodGet: serveDocsPage}))
	mux.Handle("/api-docs/", limited(methods{http.MethodGet: serveDocsFile}))
	mux.Handle("/health", methods{http.MethodGet: s.handleHealth})
	mux.Handle("/health/info", methods{http.MethodGet: s.handleHealthInfo})
	mux.Handle("/", limited(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			http.Redirect(w, r, "api-docs", http.StatusFound)
			return
		}
		notFound(w, r)
	})))
	return secured(mux)
}

// secured adds headers every response carries.
func secured(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}

func notFound(w http.ResponseWriter, r *http.Request) {
	httpx.WriteProblem(w, r, problems.New(http.StatusNotFound, kindNotFound,
		fmt.Sprintf("no resource at %s; the API is described at /api-docs", r.URL.Path)))
}

// methods routes a path by method: GET also answers HEAD, OPTIONS lists
// the methods, anything else is a 405 problem.
type methods map[string]http.HandlerFunc

func (m methods) allow() string {
	var names []string
	for name := range m {
		names = append(names, name)
		if name == http.MethodGet {
			names = append(names, http.MethodHead)
		}
	}
	slices.Sort(names)
	return strings.Join(append(names, http.MethodOptions), ", ")
}

func (m methods) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if h, ok := m[method]; ok {
		h(w, r)
		return
	}
	w.Header().Set("Allow", m.allow())
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	httpx.WriteProblem(w, r, problems.New(http.StatusMethodNotAllowed, kindMethodNotAllowed,
		fmt.Sprintf("%s does not answer %s; it answers %s", r.URL.Path, r.Method, m.allow())))
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, "application/json", s.config.status())
}

// RefreshAccepted is the body of a 202 from POST /config/refresh.
type RefreshAccepted struct {
	RequestedAt time.Time `json:"requestedAt"`
	StatusURL   string    `json:"statusUrl"`
}

func (s *Server) handleRefresh(w http.ResponseWriter, r *http.Request) {
	s.config.requestRefresh()
	w.Header().Set("Location", "status")
	httpx.WriteJSON(w, http.StatusAccepted, "application/json", RefreshAccepted{RequestedAt: time.Now().UTC(), StatusURL: "/config/status"})
}

// Health check statuses (the health check response format for HTTP APIs).
const (
	healthPass = "pass"
	healthWarn = "warn"
	healthFail = "fail"
)

// Health is the body of GET /health.
type Health struct {
	Status string `json:"status"`
	Output string `json:"output,omitempty"`
}

// HealthInfo is the body of GET /health/info.
type HealthInfo struct {
	Status      string                   `json:"status"`
	Version     string                   `json:"version"`
	ReleaseID   string                   `json:"releaseId"`
	ServiceID   string                   `json:"serviceId"`
	Description string                   `json:"description"`
	Output      string                   `json:"output,omitempty"`
	Checks      map[string][]HealthCheck `json:"checks"`
}

// HealthCheck is one check of HealthInfo.
type HealthCheck struct {
	ComponentID   string    `json:"componentId,omitempty"`
	ComponentType string    `json:"componentType"`
	ObservedValue any       `json:"observedValue"`
	ObservedUnit  string    `json:"observedUnit,omitempty"`
	Status        string    `json:"status"`
	Time          time.Time `json:"time"`
	Output        string    `json:"output,omitempty"`
}

// configCheck is the health of the configuration refresh: warn when the
// last attempt failed (an older configuration serves).
func (s *Server) configCheck() HealthCheck {
	st := s.config.status()
	c := HealthCheck{ComponentID: st.Repository, ComponentType: "component", ObservedValue: st.Commit, Status: healthPass, Time: st.LastRefresh.FinishedAt}
	if st.LastRefresh.Result == refreshFailed {
		c.Status, c.Output = healthWarn, st.LastRefresh.Error
	}
	return c
}

// drainingOutput explains the failing health of a server that shuts down.
const drainingOutput = "shutting down: finishing the requests in flight, accepting no new ones"

// healthStatus is the HTTP status of a health response: 503 once the
// server shuts down (status fail), 200 otherwise.
func healthStatus(status string) int {
	if status == healthFail {
		return http.StatusServiceUnavailable
	}
	return http.StatusOK
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	h := Health{Status: s.configCheck().Status}
	if s.draining.Load() {
		h = Health{Status: healthFail, Output: drainingOutput}
	}
	httpx.WriteJSON(w, healthStatus(h.Status), "application/health+json", h)
}

func (s *Server) handleHealthInfo(w http.ResponseWriter, r *http.Request) {
	now := time.Now().UTC()
	cfg := s.configCheck()
	slotsCheck := HealthCheck{ComponentType: "system", ObservedValue: s.slots.inUse(), ObservedUnit: "requests", Status: healthPass, Time: now}
	if s.slots.inUse() >= cap(s.slots.ch) {
		slotsCheck.Status, slotsCheck.Output = healthWarn, fmt.Sprintf("all %d lint slots are busy", cap(s.slots.ch))
	}
	used := s.memory.inUse()
	memCheck := HealthCheck{ComponentType: "system", ObservedValue: used, ObservedUnit: "bytes", Status: healthPass, Time: now}
	if used*10 >= s.memory.limit*9 {
		memCheck.Status, memCheck.Output = healthWarn, fmt.Sprintf("the lint requests in flight hold %s of the %s memory budget (--max-memory)", httpx.FormatBytes(used), httpx.FormatBytes(s.memory.limit))
	}
	info := HealthInfo{
		Status: healthPass, Version: "1", ReleaseID: s.opts.Version, ServiceID: "specgate-lint-server",
		Description: "specgate lint server",
		Checks: map[string][]HealthCheck{
			"configuration:refresh": {cfg},
			"lint:slots":            {slotsCheck},
			"lint:memory":           {memCheck},
			"uptime":                {{ComponentType: "system", ObservedValue: int(time.Since(s.started).Seconds()), ObservedUnit: "s", Status: healthPass, Time: now}},
		},
	}
	for _, c := range []HealthCheck{cfg, slotsCheck, memCheck} {
		if c.Status != healthPass {
			info.Status = healthWarn
		}
	}
	if s.draining.Load() {
		info.Status, info.Output = healthFail, drainingOutput
	}
	httpx.WriteJSON(w, healthStatus(info.Status), "application/health+json", info)
}

// The documentation page and its assets, served from the binary.
//
//go:embed openapi.json swaggerui/index.html swaggerui/init.js swaggerui/swagger-ui-bundle.js swaggerui/swagger-ui.css
var docsFS embed.FS

// docsAsset is one embedded file with its media type and entity tag.
type docsAsset struct {
	data        []byte
	contentType string
	etag        string
}

// docsAssets are the files under /api-docs/, by name; "" is the page.
// They are read and hashed on first use: at start-up they would cost
// every command (`lint` in a pre-commit hook too) a few milliseconds.
var docsAssets = sync.OnceValue(func() map[string]docsAsset {
	return map[string]docsAsset{
		"":                     loadAsset("swaggerui/index.html", "text/html; charset=utf-8"),
		"init.js":              loadAsset("swaggerui/init.js", "text/javascript; charset=utf-8"),
		"swagger-ui-bundle.js": loadAsset("swaggerui/swagger-ui-bundle.js", "text/javascript; charset=utf-8"),
		"swagger-ui.css":       loadAsset("swaggerui/swagger-ui.css", "text/css; charset=utf-8"),
		"openapi.json":         loadAsset("openapi.json", "application/json"),
	}
})

func loadAsset(name, contentType string) docsAsset {
	data, err := docsFS.ReadFile(name)
	if err != nil {
		panic(err) // the files are embedded: only a build mistake gets here
	}
	sum := sha256.Sum256(data)
	return docsAsset{data: data, contentType: contentType, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

// OpenAPI returns the server's OpenAPI description.
func OpenAPI() []byte { return slices.Clone(docsAssets()["openapi.json"].data) }

// docsPolicy keeps the documentation page to the server's own resources.
const docsPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func serveDocsPage(w http.ResponseWriter, r *http.Request) { serveAsset(w, r, "") }

func serveDocsFile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/api-docs/")
	if name == "" {
		http.Redirect(w, r, "../api-docs", http.StatusMovedPermanently)
		return
	}
	if _, ok := docsAssets()[name]; !ok || path.Base(name) != name {
		notFound(w, r)
		return
	}
	serveAsset(w, r, name)
}

func serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	a := docsAssets()[name]
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("ETag", a.etag)
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy", docsPolicy)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.data))
}
