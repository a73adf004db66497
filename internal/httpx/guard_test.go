package httpx

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestForbiddenAddresses(t *testing.T) {
	tests := []struct{ addr, want string }{
		{"127.0.0.1", "loopback"},
		{"127.8.9.10", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.0.0.1", "private"},
		{"172.16.5.4", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"fd00::1", "private"},
		{"fc00::1", "private"},
		{"::ffff:10.1.2.3", "private"},
		{"169.254.169.254", "cloud metadata"},
		{"::ffff:169.254.169.254", "cloud metadata"},
		{"fd00:ec2::254", "cloud metadata"},
		{"100.100.100.200", "cloud metadata"},
		{"192.0.0.192", "cloud metadata"},
		{"169.254.1.1", "link-local"},
		{"fe80::1", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"0.1.2.3", "reserved"},
		{"100.64.0.1", "shared (carrier-grade NAT)"},
		{"100.127.255.255", "shared (carrier-grade NAT)"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"255.255.255.255", "reserved"},
		{"240.0.0.1", "reserved"},
		{"198.18.0.1", "reserved"},
		{"192.0.0.8", "reserved"},
		{"fec0::1", "reserved"},
		{"100::1", "reserved"},
		{"64:ff9b::a00:1", "private (embedded in 64:ff9b::a00:1)"},              // NAT64 of 10.0.0.1
		{"64:ff9b::7f00:1", "loopback (embedded in 64:ff9b::7f00:1)"},           // NAT64 of 127.0.0.1
		{"2002:a9fe:a9fe::1", "cloud metadata (embedded in 2002:a9fe:a9fe::1)"}, // 6to4 of 169.254.169.254
		{"::a00:1", "private (embedded in ::a00:1)"},                            // IPv4-compatible 10.0.0.1
		// Public addresses pass.
		{"93.184.216.34", ""},
		{"8.8.8.8", ""},
		{"100.63.255.255", ""},
		{"100.128.0.0", ""},
		{"172.32.0.1", ""},
		{"2606:4700:4700::1111", ""},
		{"64:ff9b::808:808", ""}, // NAT64 of 8.8.8.8
		{"::ffff:8.8.8.8", ""},
	}
	for _, tt := range tests {
		if got := Forbidden(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("Forbidden(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

func TestRedactURL(t *testing.T) {
	u, _ := url.Parse("https://user:secret@example.com/spec.yaml?sig=abc#frag")
	if got := RedactURL(u); got != "https://example.com/spec.yaml?…" {
		t.Errorf("RedactURL = %q", got)
	}
}

const guardHint = "start with --allow-private to fetch from it"

// origin is a loopback server that answers body at /spec.yaml, redirects
// as its routes say, and counts requests.
func origin(t *testing.T, body string, redirects map[string]string) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if to, ok := redirects[r.URL.Path]; ok {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		switch r.URL.Path {
		case "/spec.yaml":
			fmt.Fprint(w, body)
		case "/chunked.yaml": // no Content-Length: the limit holds while reading
			w.(http.Flusher).Flush()
			fmt.Fprint(w, body)
		case "/slow.yaml": // answers only when the client gives up
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s, &hits
}

// asPublic admits the addresses of the given servers as if they were
// public, as GuardOptions.Allow lets tests do.
func asPublic(servers ...*httptest.Server) func(netip.AddrPort) bool {
	allowed := map[netip.AddrPort]bool{}
	for _, s := range servers {
		allowed[netip.MustParseAddrPort(s.Listener.Addr().String())] = true
	}
	return func(ap netip.AddrPort) bool { return allowed[netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())] }
}

func fetch(t *testing.T, c *http.Client, raw string, lim FetchLimits) ([]byte, string, error) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return FetchSpec(context.Background(), c, u, lim)
}

func TestGuardedClientRefusesLoopback(t *testing.T) {
	s, hits := origin(t, "openapi: 3.1.0", nil)
	port := s.Listener.Addr().(*net.TCPAddr).Port
	c := GuardedClient(GuardOptions{Timeout: 5 * time.Second, Hint: guardHint})
	for _, raw := range []string{
		s.URL + "/spec.yaml",
		fmt.Sprintf("http://localhost:%d/spec.yaml", port), // a name that resolves to loopback
		fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/spec.yaml", port),
	} {
		_, _, err := fetch(t, c, raw, FetchLimits{MaxBytes: 1 << 20})
		var refused *RefusedError
		if !errors.As(err, &refused) || refused.Reason != "loopback" || refused.Addr != netip.MustParseAddr("127.0.0.1") {
			t.Fatalf("%s: err = %v, want a RefusedError for the loopback address", raw, err)
		}
		if want := "refused to connect to 127.0.0.1: loopback address (" + guardHint + ")"; !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %q does not end in %q", raw, err, want)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the origin got %d requests; the client must not connect at all", n)
	}
}

func TestGuardedClientAllows(t *testing.T) {
	s, _ := origin(t, "openapi: 3.1.0", map[string]string{"/moved": "/spec.yaml"})
	for name, opts := range map[string]GuardOptions{
		"AllowPrivate": {Timeout: 5 * time.Second, AllowPrivate: true},
		"Allow":        {Timeout: 5 * time.Second, Allow: asPublic(s)},
	} {
		c := GuardedClient(opts)
		data, final, err := fetch(t, c, s.URL+"/moved?sig=x", FetchLimits{MaxBytes: 1 << 20})
		if err != nil || string(data) != "openapi: 3.1.0" || final != s.URL+"/spec.yaml" {
			t.Errorf("%s: FetchSpec = %q, %q, %v; want the spec, read from %s/spec.yaml", name, data, final, err, s.URL)
		}
	}
}

func TestGuardedClientRedirects(t *testing.T) {
	private, privateHits := origin(t, "openapi: 3.1.0", nil)
	public, _ := origin(t, "openapi: 3.1.0", map[string]string{
		"/to-private": private.URL + "/spec.yaml",
		"/to-file":    "file:///etc/passwd",
		"/loop":       "/loop",
	})
	c := GuardedClient(GuardOptions{Timeout: 5 * time.Second, Allow: asPublic(public)})
	tests := []struct{ path, want string }{
		{"/to-private", "refused to connect to 127.0.0.1: loopback address"},
		{"/to-file", `only http and https URLs are fetched, not "file"`},
		{"/loop", "more than 5 redirects"},
	}
	for _, tt := range tests {
		_, _, err := fetch(t, c, public.URL+tt.path, FetchLimits{MaxBytes: 1 << 20})
		var fe *FetchError
		if !errors.As(err, &fe) || fe.URL != public.URL+tt.path || !strings.HasSuffix(err.Error(), ": "+tt.want) {
			t.Errorf("%s: err = %v, want a FetchError of %s ending in %q", tt.path, err, public.URL+tt.path, tt.want)
		}
	}
	if n := privateHits.Load(); n != 0 {
		t.Errorf("the private server got %d requests", n)
	}
}

func TestFetchSpecLimits(t *testing.T) {
	body := strings.Repeat("x", 2048)
	s, _ := origin(t, body, nil)
	c := GuardedClient(GuardOptions{Timeout: 5 * time.Second, Allow: asPublic(s)})
	impatient := GuardedClient(GuardOptions{Timeout: 50 * time.Millisecond, Allow: asPublic(s)})
	tests := []struct {
		path string
		lim  FetchLimits
		want string
	}{
		{"/spec.yaml", FetchLimits{MaxBytes: 1024, SizeFlag: "--max-spec-size"}, "the spec is 2 KiB, more than the 1 KiB limit (--max-spec-size)"},
		{"/spec.yaml", FetchLimits{MaxBytes: 1024}, "the spec is 2 KiB, more than the 1 KiB limit"},
		{"/chunked.yaml", FetchLimits{MaxBytes: 1024, SizeFlag: "--max-spec-size"}, "the spec is larger than the 1 KiB limit (--max-spec-size)"},
		{"/missing.yaml", FetchLimits{MaxBytes: 1 << 20}, "HTTP 404 Not Found"},
		{"/slow.yaml", FetchLimits{MaxBytes: 1 << 20, TimeoutFlag: "--fetch-timeout"}, "timed out (--fetch-timeout)"},
	}
	for _, tt := range tests {
		client := c
		if tt.path == "/slow.yaml" {
			client = impatient
		}
		_, _, err := fetch(t, client, s.URL+tt.path+"?token=secret", tt.lim)
		if want := "fetching " + s.URL + tt.path + "?…: " + tt.want; err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %q", tt.path, err, want)
		}
	}
	data, _, err := fetch(t, c, s.URL+"/chunked.yaml", FetchLimits{MaxBytes: 2048})
	if err != nil || len(data) != 2048 {
		t.Errorf("a spec of exactly the limit: %d bytes, %v", len(data), err)
	}
}

// FuzzForbidden holds the address check to what it promises for any
// address: an IPv4 address is judged alike written as IPv6 (mapped), and
// an address it lets through is none of the kinds netip can name as
// special.
func FuzzForbidden(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "10.1.2.3", "8.8.8.8", "::1", "fe80::1", "64:ff9b::a00:1", "2002:a9fe:a9fe::1", "2606:4700:4700::1111"} {
		b := netip.MustParseAddr(s).As16()
		f.Add(b[:])
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var b [16]byte
		copy(b[:], raw)
		a := netip.AddrFrom16(b)
		why := Forbidden(a)
		if a.Is4In6() {
			if v4 := Forbidden(a.Unmap()); v4 != why {
				t.Fatalf("Forbidden(%s) = %q but Forbidden(%s) = %q", a, why, a.Unmap(), v4)
			}
		}
		u := a.Unmap()
		if why == "" && (u.IsLoopback() || u.IsPrivate() || u.IsLinkLocalUnicast() || u.IsLinkLocalMulticast() ||
			u.IsMulticast() || u.IsUnspecified() || u.IsInterfaceLocalMulticast()) {
			t.Fatalf("Forbidden(%s) lets through a special address", a)
		}
	})
}

// ParseHTTPURL takes an absolute http or https URL with a host, and
// nothing else: no other scheme, no relative reference, no missing host.
func TestParseHTTPURL(t *testing.T) {
	for s, want := range map[string]bool{
		"http://127.0.0.1:8080":        true,
		"https://api.example.com/v1/x": true,
		"HTTP://example.com":           true,
		"ftp://example.com":            false,
		"/v1/pets":                     false,
		"http://":                      false,
		"http:///path":                 false,
		"example.com":                  false,
		"http://[::1":                  false,
		"":                             false,
	} {
		u, ok := ParseHTTPURL(s)
		if ok != want || ok != (u != nil) {
			t.Errorf("ParseHTTPURL(%q) = %v, %v; want ok %v", s, u, ok, want)
		}
	}
}
