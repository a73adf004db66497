package mcp

import (
	"log/slog"
	"net/http"
	"slices"
	"strings"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/specgate/specgate/internal/httpx"
)

// HTTPPath is where the streamable HTTP transport is served.
const HTTPPath = "/mcp"

// HTTPOptions configure the streamable HTTP transport.
type HTTPOptions struct {
	// AllowedOrigins are the browser origins (scheme://host[:port]) whose
	// requests are served besides the server's own; a request with any
	// other Origin header gets 403. Requests without one (editors, command
	// line clients) are served.
	AllowedOrigins []string
}

// HTTPHandler serves the MCP streamable HTTP transport at HTTPPath. Every
// request's Origin is checked first, as the MCP specification asks of
// servers, so that a web page cannot drive the tools through the user's
// browser; the SDK then refuses a loopback connection whose Host names
// another machine (DNS rebinding).
func (s *Server) HTTPHandler(opts HTTPOptions) http.Handler {
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return s.sdk }, &mcpsdk.StreamableHTTPOptions{Logger: s.sdkLogger()})
	mux := http.NewServeMux()
	mux.Handle(HTTPPath, h)
	allowed := make([]string, 0, len(opts.AllowedOrigins))
	for _, o := range opts.AllowedOrigins {
		allowed = append(allowed, strings.TrimRight(strings.ToLower(o), "/"))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originAllowed(origin, r.Host, allowed) {
			s.opts.Logger.Warn("request refused: origin not allowed", slog.String("origin", origin), slog.String("remote", r.RemoteAddr))
			http.Error(w, "origin "+origin+" is not allowed (specgate mcp --allow-origin adds one)", http.StatusForbidden)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// originAllowed reports whether a request from origin may be served: it
// is listed, or it is the server's own (its host and port are the Host the
// request was sent to).
func originAllowed(origin, host string, allowed []string) bool {
	o := strings.ToLower(origin)
	if slices.Contains(allowed, o) {
		return true
	}
	u, ok := httpx.ParseHTTPURL(o)
	if !ok {
		return false
	}
	return u.Host == strings.ToLower(host)
}
