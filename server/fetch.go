package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"github.com/specgate/specgate/internal/httpx"
)

// RefusedError is a connection the server would not open: the address is
// loopback, private, link-local or otherwise not a public unicast address,
// and --allow-private-urls is not given.
type RefusedError = httpx.RefusedError

// refusedHint ends the message of a RefusedError.
const refusedHint = "the server only fetches from public addresses unless started with --allow-private-urls"

// inlineHost is the host of the made-up base URL inline specifications are
// loaded under, so that their relative $refs resolve to URLs on it (which
// the client refuses) rather than to files of the server.
const inlineHost = "inline.specgate.invalid"

var errInlineRef = errors.New("an inline spec has no location to resolve relative $refs against; post it by specUrl instead")

// newClient is the HTTP client of every fetch the server makes for a lint
// request: the spec at specUrl and the $refs it leads to, through the
// address check of httpx.GuardedClient; allow admits addresses it would
// refuse (tests use it to reach their own loopback server).
func newClient(timeout time.Duration, allowPrivate bool, allow func(netip.AddrPort) bool) *http.Client {
	c := httpx.GuardedClient(httpx.GuardOptions{Timeout: timeout, AllowPrivate: allowPrivate, Allow: allow, Hint: refusedHint})
	c.Transport = inlineGuard{c.Transport}
	return c
}

// inlineGuard refuses requests to inlineHost with a clear message.
type inlineGuard struct{ next http.RoundTripper }

func (g inlineGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Hostname() == inlineHost {
		return nil, errInlineRef
	}
	return g.next.RoundTrip(req)
}

// parseSpecURL checks a specUrl before anything is fetched.
func parseSpecURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("specUrl is not a URL: %v", err)
	}
	if err := httpx.CheckScheme(u); err != nil {
		return nil, fmt.Errorf("specUrl: %v", err)
	}
	if u.Host == "" {
		return nil, errors.New("specUrl has no host")
	}
	if u.User != nil {
		return nil, errors.New("specUrl must not carry credentials")
	}
	return u, nil
}
