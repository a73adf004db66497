package httpx

// This file and fetch.go are the guarded side of the client: fetching the
// URLs a request names (a spec to lint, the $refs it leads to) without
// letting the request reach loopback, private, link-local or other
// special-purpose addresses, within limits of size and time.

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// RefusedError is a connection a guarded client would not open: the
// address is loopback, private, link-local or otherwise not a public
// unicast address.
type RefusedError struct {
	Addr   netip.Addr
	Reason string // what the address is: "loopback", "private", "cloud metadata", …
	Hint   string // how the caller's user may allow it (GuardOptions.Hint); "" says nothing
}

func (e *RefusedError) Error() string {
	msg := fmt.Sprintf("refused to connect to %s: %s address", e.Addr, e.Reason)
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
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

// Forbidden says why a guarded client refuses to connect to a, or "" when
// a is a public unicast address. IPv4 addresses written as IPv6 (mapped,
// compatible, NAT64, 6to4) are judged by the IPv4 address they carry.
func Forbidden(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		if v4, ok := embeddedIPv4(a); ok {
			if why := Forbidden(v4); why != "" {
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

// dialControl refuses, at connect time, every address Forbidden names: it
// runs after name resolution for each address tried, so a redirect or a
// name that resolves differently the second time (DNS rebinding) cannot
// reach a private address.
func dialControl(allow func(netip.AddrPort) bool, hint string) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("refused to connect to %q: not an IP address and port", address)
		}
		if allow != nil && allow(ap) {
			return nil
		}
		if why := Forbidden(ap.Addr()); why != "" {
			return &RefusedError{Addr: ap.Addr().Unmap(), Reason: why, Hint: hint}
		}
		return nil
	}
}

// MaxRedirects bounds the redirects a guarded client follows for one fetch.
const MaxRedirects = 5

// GuardOptions configure GuardedClient.
type GuardOptions struct {
	// Timeout bounds each fetch, from connecting to the last byte.
	Timeout time.Duration
	// AllowPrivate turns the address check off (a server started to fetch
	// from its own network).
	AllowPrivate bool
	// Allow, when set, admits addresses the check would refuse: the seam
	// through which tests let their loopback servers stand in for public
	// ones.
	Allow func(netip.AddrPort) bool
	// Hint ends the message of a RefusedError, saying how to allow the
	// address in the caller's terms (a flag, a setting).
	Hint string
}

// GuardedClient returns the client of fetches that a request names: every
// address it connects to, after redirects and name resolution, passes
// Forbidden (unless opts allow it); it follows at most MaxRedirects
// redirects, to http and https URLs only, and never uses a proxy (a proxy
// would hide the address actually reached from the check).
func GuardedClient(opts GuardOptions) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if !opts.AllowPrivate {
		dialer.Control = dialControl(opts.Allow, opts.Hint)
	}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          32,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: opts.Timeout,
	}
	return &http.Client{
		Timeout:   opts.Timeout,
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= MaxRedirects {
				return fmt.Errorf("more than %d redirects", MaxRedirects)
			}
			return CheckScheme(req.URL)
		},
	}
}

// ParseHTTPURL parses s as an absolute http or https URL with a host, the
// address of a service to send requests to; ok is false for anything else.
func ParseHTTPURL(s string) (u *url.URL, ok bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, false
	}
	return u, true
}

// CheckScheme refuses a URL that is neither http nor https.
func CheckScheme(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("only http and https URLs are fetched, not %q", u.Scheme)
	}
	return nil
}
