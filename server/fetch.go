package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// RefusedError is a connection the server would not open: the address is
// loopback, private, link-local or otherwise not a public unicast address,
// and --allow-private-urls is not given.
type RefusedError struct {
	Addr   netip.Addr
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refused to connect to %s: %s address (the server only fetches from public addresses unless started with --allow-private-urls)", e.Addr, e.Reason)
}

// Special-purpose ranges that netip's predicates do not name (RFC 6890 and
// its IANA registries).
var (
	thisNetwork   = netip.MustParsePrefix("0.0.0.0/8")      // RFC 791 "this host on this network"
	sharedCGNAT   = netip.MustParsePrefix("100.64.0.0/10")  // RFC 6598 carrier-grade NAT
	ietfProtocol  = netip.MustParsePrefix("192.0.0.0/24")   // RFC 6890 protocol assignments
	benchmarking  = netip.MustParsePrefix("198.18.0.0/15")  // RFC 2544
	reservedClass = netip.MustParsePrefix("240.0.0.0/4")    // RFC 1112, includes 255.255.255.255
	nat64         = netip.MustParsePrefix("64:ff9b::/96")   // RFC 6052 well-known NAT64 prefix
	nat64Local    = netip.MustParsePrefix("64:ff9b:1::/48") // RFC 8215 local-use NAT64
	sixToFour     = netip.MustParsePrefix("2002::/16")      // RFC 3056 6to4
	siteLocal     = netip.MustParsePrefix("fec0::/10")      // RFC 3879 deprecated site-local
	ipv4Compat    = netip.MustParsePrefix("::/96")          // RFC 4291 deprecated IPv4-compatible
	discardOnly   = netip.MustParsePrefix("100::/64")       // RFC 6666
	metadataAddr  = netip.MustParseAddr("169.254.169.254")  // cloud instance metadata (AWS, GCP, Azure, …)
	metadataAddr6 = netip.MustParseAddr("fd00:ec2::254")    // AWS instance metadata over IPv6
	alibabaMeta   = netip.MustParseAddr("100.100.100.200")  // Alibaba Cloud instance metadata
	oracleMeta    = netip.MustParsePrefix("192.0.0.192/32") // Oracle Cloud instance metadata
)

// forbidden says why the server refuses to connect to a, or "" when a is a
// public unicast address. IPv4 addresses written as IPv6 (mapped,
// compatible, NAT64, 6to4) are judged by the IPv4 address they carry.
func forbidden(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		if v4, ok := embeddedIPv4(a); ok {
			if why := forbidden(v4); why != "" {
				return why + " (embedded in " + a.String() + ")"
			}
		}
	}
	switch {
	case !a.IsValid():
		return "invalid"
	case a == metadataAddr || a == metadataAddr6 || a == alibabaMeta || oracleMeta.Contains(a):
		return "cloud metadata"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private"
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsMulticast():
		return "multicast"
	case thisNetwork.Contains(a), ietfProtocol.Contains(a), benchmarking.Contains(a), reservedClass.Contains(a),
		siteLocal.Contains(a), discardOnly.Contains(a):
		return "reserved"
	case sharedCGNAT.Contains(a):
		return "shared (carrier-grade NAT)"
	}
	return ""
}

// embeddedIPv4 is the IPv4 address an IPv6 address carries by one of the
// translation or tunnelling conventions.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	b := a.As16()
	switch {
	case nat64.Contains(a), nat64Local.Contains(a),
		ipv4Compat.Contains(a) && a != netip.IPv6Unspecified() && a != netip.IPv6Loopback():
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case sixToFour.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

// dialControl refuses, at connect time, every address forbidden names: it
// runs after name resolution for each address tried, so a redirect or a
// name that resolves differently the second time (DNS rebinding) cannot
// reach a private address. allow, when set, admits addresses that would
// otherwise be refused (tests use it to reach their own loopback server).
func dialControl(allow func(netip.AddrPort) bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("refused to connect to %q: not an IP address and port", address)
		}
		if allow != nil && allow(ap) {
			return nil
		}
		if why := forbidden(ap.Addr()); why != "" {
			return &RefusedError{Addr: ap.Addr().Unmap(), Reason: why}
		}
		return nil
	}
}

// maxRedirects bounds the redirects followed for one fetch.
const maxRedirects = 5

// inlineHost is the host of the made-up base URL inline specifications are
// loaded under, so that their relative $refs resolve to URLs on it (which
// the client refuses) rather than to files of the server.
const inlineHost = "inline.specgate.invalid"

var errInlineRef = errors.New("an inline spec has no location to resolve relative $refs against; post it by specUrl instead")

// newClient is the HTTP client of every fetch the server makes for a lint
// request: the spec at specUrl and the $refs it leads to. It never uses a
// proxy (a proxy would hide the address actually reached from the check).
func newClient(timeout time.Duration, allowPrivate bool, allow func(netip.AddrPort) bool) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = dialControl(allow)
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          32,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: timeout,
	}
	return &http.Client{
		Timeout:   timeout,
		Transport: inlineGuard{transport},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			return checkScheme(req.URL)
		},
	}
}

// inlineGuard refuses requests to inlineHost with a clear message.
type inlineGuard struct{ next http.RoundTripper }

func (g inlineGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Hostname() == inlineHost {
		return nil, errInlineRef
	}
	return g.next.RoundTrip(req)
}

func checkScheme(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("only http and https URLs are fetched, not %q", u.Scheme)
	}
	return nil
}

// parseSpecURL checks a specUrl before anything is fetched.
func parseSpecURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("specUrl is not a URL: %v", err)
	}
	if err := checkScheme(u); err != nil {
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

// fetchError is a failed fetch of a specUrl (502).
type fetchError struct {
	url string
	err error
}

func (e *fetchError) Error() string { return "fetching " + e.url + ": " + e.err.Error() }
func (e *fetchError) Unwrap() error { return e.err }

// fetchSpec reads u with the client, at most limit bytes. It returns the
// body and the URL it was finally read from (after redirects), which
// relative $refs resolve against.
func fetchSpec(ctx context.Context, client *http.Client, u *url.URL, limit sizeLimit) ([]byte, string, error) {
	max := limit.bytes
	shown := redactURL(u)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", &fetchError{shown, err}
	}
	req.Header.Set("Accept", "application/yaml, application/json;q=0.9, */*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", &fetchError{shown, unwrapURLError(err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", &fetchError{shown, fmt.Errorf("HTTP %s", resp.Status)}
	}
	if resp.ContentLength > max {
		return nil, "", &fetchError{shown, fmt.Errorf("the spec is %s, more than the %s limit (%s)", formatBytes(resp.ContentLength), formatBytes(max), limit.flag)}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, "", &fetchError{shown, err}
	}
	if int64(len(data)) > max {
		return nil, "", &fetchError{shown, fmt.Errorf("the spec is larger than the %s limit (%s)", formatBytes(max), limit.flag)}
	}
	return data, resp.Request.URL.String(), nil
}

// unwrapURLError drops *url.Error's "Get \"…\":" prefix, which repeats the
// URL, keeping the cause (and RefusedError reachable with errors.As).
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return errors.New("timed out (--fetch-timeout)")
		}
		return ue.Err
	}
	return err
}

// redactURL is a URL as it may be logged and shown: without credentials
// and without the query, which often carries signatures or tokens.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		c.RawQuery = "…"
	}
	c.Fragment = ""
	return c.String()
}

// formatBytes writes a size in the largest binary unit it reaches.
func formatBytes(n int64) string {
	for _, u := range []struct {
		name  string
		shift uint
	}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		switch {
		case n >= 1<<u.shift && n%(1<<u.shift) == 0:
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		case n >= 1<<u.shift:
			return fmt.Sprintf("%.1f %s", float64(n)/float64(int64(1)<<u.shift), u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
