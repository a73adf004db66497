package mock

import (
	"net/http"
	"slices"
	"strings"
)

// CORS (the Fetch standard's cross-origin protocol), on unless
// Options.DisableCORS: a front end served from another origin can call
// the mock from a browser. The mock allows whatever a browser asks for,
// as Prism does: a preflight (OPTIONS with Origin and
// Access-Control-Request-Method) is answered 204 allowing the request's
// origin, method and headers, whatever the spec declares; every answer to
// a request with an Origin allows that origin, with credentials, and
// exposes the answer's headers to the page.

// preflightMaxAge is how long a browser may keep a preflight's answer, in
// seconds: two hours, the most Chromium keeps one.
const preflightMaxAge = "7200"

// corsSafelisted are the response headers a page reads without being
// told (the Fetch standard's CORS-safelisted response-header names).
var corsSafelisted = []string{"Cache-Control", "Content-Language", "Content-Length", "Content-Type", "Expires", "Last-Modified", "Pragma"}

// cors wraps h with the CORS protocol.
func cors(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			h.ServeHTTP(w, r)
			return
		}
		hd := w.Header()
		hd.Add("Vary", "Origin")
		hd.Set("Access-Control-Allow-Origin", origin)
		hd.Set("Access-Control-Allow-Credentials", "true")
		if method := r.Header.Get("Access-Control-Request-Method"); r.Method == http.MethodOptions && method != "" {
			hd.Add("Vary", "Access-Control-Request-Method")
			hd.Add("Vary", "Access-Control-Request-Headers")
			hd.Set("Access-Control-Allow-Methods", method)
			if headers := r.Header.Values("Access-Control-Request-Headers"); len(headers) > 0 {
				hd.Set("Access-Control-Allow-Headers", strings.Join(headers, ", "))
			}
			if strings.EqualFold(r.Header.Get("Access-Control-Request-Private-Network"), "true") {
				// A page of a public origin calling a mock on this machine
				// (Chrome's Private Network Access).
				hd.Set("Access-Control-Allow-Private-Network", "true")
			}
			hd.Set("Access-Control-Max-Age", preflightMaxAge)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(&exposing{ResponseWriter: w}, r)
	})
}

// exposing lists the headers of an answer in Access-Control-Expose-Headers
// as it is sent, so that the page can read them (Location, X-Request-Id,
// X-Specgate-Problem, the spec's own).
type exposing struct {
	http.ResponseWriter
	wrote bool
}

func (e *exposing) WriteHeader(status int) {
	if !e.wrote {
		e.wrote = true
		h := e.Header()
		var names []string
		for name := range h {
			if !strings.HasPrefix(name, "Access-Control-") && name != "Vary" && !slices.Contains(corsSafelisted, name) {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			slices.Sort(names)
			h.Set("Access-Control-Expose-Headers", strings.Join(names, ", "))
		}
	}
	e.ResponseWriter.WriteHeader(status)
}

func (e *exposing) Write(b []byte) (int, error) {
	if !e.wrote {
		e.WriteHeader(http.StatusOK)
	}
	return e.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (e *exposing) Unwrap() http.ResponseWriter { return e.ResponseWriter }
