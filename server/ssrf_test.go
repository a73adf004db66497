package server

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/specgate/specgate/internal/gittest"
)

// specOrigin serves smallSpec at every path and counts requests.
func specOrigin(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, smallSpec)
	}))
	t.Cleanup(s.Close)
	return s, &hits
}

func TestSpecURLToPrivateAddressRefused(t *testing.T) {
	origin, hits := specOrigin(t)
	port := origin.Listener.Addr().(*net.TCPAddr).Port
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo})
	urls := []struct{ url, addr string }{
		{origin.URL + "/spec.yaml", "127.0.0.1"},                          // a loopback address
		{fmt.Sprintf("http://localhost:%d/spec.yaml", port), "127.0.0.1"}, // a name that resolves to one
		{fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/spec.yaml", port), "127.0.0.1"},
	}
	for _, u := range urls {
		r := ts.lint(t, map[string]string{"specUrl": u.url})
		p := problem(t, r, 403, kindFetchRefused)
		if !strings.Contains(p.Detail, "refused to connect to "+u.addr+": loopback address") || !strings.Contains(p.Detail, "--allow-private-urls") {
			t.Errorf("%s: detail %q", u.url, p.Detail)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the origin got %d requests; the server must not connect at all", n)
	}
	if !strings.Contains(ts.logs.String(), `"problem":"fetch-refused"`) {
		t.Errorf("the refusal is not logged: %s", ts.logs.String())
	}
}

func TestAllowPrivateURLs(t *testing.T) {
	origin, hits := specOrigin(t)
	port := origin.Listener.Addr().(*net.TCPAddr).Port
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, AllowPrivateURLs: true})
	for _, u := range []string{origin.URL + "/spec.yaml", fmt.Sprintf("http://localhost:%d/spec.yaml", port)} {
		rep := report(t, ts.lint(t, map[string]string{"specUrl": u}))
		if !hasRule(rep, "health-endpoint") {
			t.Errorf("%s: %v", u, findings(rep))
		}
	}
	if hits.Load() != 2 {
		t.Errorf("origin hits = %d, want 2", hits.Load())
	}
}

// treatAsPublic admits the addresses of the given servers as if they were
// public: tests cannot reach any address but loopback, so a redirect from
// a "public" server is played by two loopback ones.
func treatAsPublic(servers ...*httptest.Server) func(netip.AddrPort) bool {
	allowed := map[netip.AddrPort]bool{}
	for _, s := range servers {
		allowed[netip.MustParseAddrPort(s.Listener.Addr().String())] = true
	}
	return func(ap netip.AddrPort) bool { return allowed[netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())] }
}

func TestRedirectToPrivateAddressRefused(t *testing.T) {
	private, privateHits := specOrigin(t)
	port := private.Listener.Addr().(*net.TCPAddr).Port
	public := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-ip":
			http.Redirect(w, r, private.URL+"/spec.yaml", http.StatusFound)
		case "/to-name":
			http.Redirect(w, r, fmt.Sprintf("http://localhost:%d/spec.yaml", port), http.StatusMovedPermanently)
		case "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		case "/ok":
			http.Redirect(w, r, "/spec.yaml", http.StatusFound)
		default:
			fmt.Fprint(w, smallSpec)
		}
	}))
	defer public.Close()
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, allowDial: treatAsPublic(public)})

	for _, path := range []string{"/to-ip", "/to-name"} {
		p := problem(t, ts.lint(t, map[string]string{"specUrl": public.URL + path}), 403, kindFetchRefused)
		if !strings.Contains(p.Detail, "refused to connect to 127.0.0.1: loopback address") {
			t.Errorf("%s: detail %q", path, p.Detail)
		}
	}
	if privateHits.Load() != 0 {
		t.Errorf("the private server got %d requests", privateHits.Load())
	}
	p := problem(t, ts.lint(t, map[string]string{"specUrl": public.URL + "/to-file"}), 502, kindFetchFailed)
	if !strings.Contains(p.Detail, `only http and https URLs are fetched, not "file"`) {
		t.Errorf("redirect to file: detail %q", p.Detail)
	}
	p = problem(t, ts.lint(t, map[string]string{"specUrl": public.URL + "/loop"}), 502, kindFetchFailed)
	if !strings.Contains(p.Detail, "more than 5 redirects") {
		t.Errorf("redirect loop: detail %q", p.Detail)
	}
	// An allowed redirect is followed, and the report names the final URL.
	rep := report(t, ts.lint(t, map[string]string{"specUrl": public.URL + "/ok"}))
	if rep.Summary.PerFile[0].File != public.URL+"/spec.yaml" {
		t.Errorf("file = %q", rep.Summary.PerFile[0].File)
	}
}

// The $refs of a fetched spec go through the same check.
func TestRefToPrivateAddressRefused(t *testing.T) {
	private, privateHits := specOrigin(t)
	public := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/pet.yaml":
			fmt.Fprint(w, "Pet:\n  type: object\n")
		default:
			fmt.Fprintf(w, "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Local: {$ref: 'pet.yaml#/Pet'}\n    Private: {$ref: '%s/pet.yaml#/Pet'}\n", private.URL)
		}
	}))
	defer public.Close()
	repo := gittest.Repo(t, map[string]string{"specgate-lint.yaml": noProfiles})
	ts := start(t, Options{ConfigRepo: repo, allowDial: treatAsPublic(public)})
	rep := report(t, ts.lint(t, map[string]string{"specUrl": public.URL + "/spec.yaml"}))
	var unresolved []string
	for _, d := range rep.Diagnostics {
		if d.RuleID == "no-unresolved-ref" {
			unresolved = append(unresolved, fmt.Sprintf("%d %s", d.Line, d.Message))
		}
	}
	if len(unresolved) != 1 || !strings.HasPrefix(unresolved[0], "7 ") || !strings.Contains(unresolved[0], "loopback address") {
		t.Errorf("unresolved refs = %q, want the one on line 7, refused", unresolved)
	}
	if privateHits.Load() != 0 {
		t.Errorf("the private server got %d requests", privateHits.Load())
	}
}
