package httpx

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// ProxyFromEnv returns the proxy function of the variables getenv reads,
// with the meaning curl and Go give them: HTTPS_PROXY for https URLs,
// HTTP_PROXY for http ones (upper case first, then lower case), each a URL
// or a host:port; NO_PROXY a comma-separated list of hosts that go direct:
// "*", IP addresses, CIDR ranges, and domain names, which match the name
// and its subdomains ("example.com" matches example.com and
// api.example.com, ".example.com" only the subdomains), each optionally
// with a port. Requests to localhost and loopback addresses never go
// through a proxy.
//
// Unlike http.ProxyFromEnvironment it reads the variables when called,
// not once per process, so that each run (and each test) has its own.
func ProxyFromEnv(getenv func(string) string) (func(*http.Request) (*url.URL, error), error) {
	read := func(names ...string) string {
		for _, n := range names {
			if v := strings.TrimSpace(getenv(n)); v != "" {
				return v
			}
		}
		return ""
	}
	httpProxy, err := parseProxy("HTTP_PROXY", read("HTTP_PROXY", "http_proxy"))
	if err != nil {
		return nil, err
	}
	httpsProxy, err := parseProxy("HTTPS_PROXY", read("HTTPS_PROXY", "https_proxy"))
	if err != nil {
		return nil, err
	}
	bypass := parseNoProxy(read("NO_PROXY", "no_proxy"))
	return func(r *http.Request) (*url.URL, error) {
		var p *url.URL
		switch r.URL.Scheme {
		case "https":
			p = httpsProxy
		case "http":
			p = httpProxy
		}
		if p == nil || bypass.direct(r.URL) {
			return nil, nil
		}
		return p, nil
	}, nil
}

// parseProxy reads a proxy variable's value: a URL, or host:port for an
// http proxy.
func parseProxy(name, v string) (*url.URL, error) {
	if v == "" {
		return nil, nil
	}
	full := v
	if !strings.Contains(v, "://") {
		full = "http://" + v // host:port, or a host alone
	}
	u, err := url.Parse(full)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%s=%q is not a proxy URL", name, v)
	}
	switch u.Scheme {
	case "http", "https", "socks5", "socks5h":
		return u, nil
	}
	return nil, fmt.Errorf("%s=%q: proxy scheme %q is not http, https or socks5", name, v, u.Scheme)
}

// noProxy is a parsed NO_PROXY list.
type noProxy struct {
	all      bool
	prefixes []netip.Prefix
	addrs    []hostPort[netip.Addr]
	domains  []hostPort[string] // lower case; a leading "." matches subdomains only
}

type hostPort[T any] struct {
	host T
	port string // "" matches any port
}

func parseNoProxy(v string) *noProxy {
	np := &noProxy{}
	for _, e := range strings.Split(v, ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		if e == "*" {
			np.all = true
			continue
		}
		if p, err := netip.ParsePrefix(e); err == nil {
			np.prefixes = append(np.prefixes, p.Masked())
			continue
		}
		host, port := e, ""
		if h, p, err := net.SplitHostPort(e); err == nil {
			host, port = h, p
		}
		host = strings.Trim(host, "[]")
		if a, err := netip.ParseAddr(host); err == nil {
			np.addrs = append(np.addrs, hostPort[netip.Addr]{a.Unmap(), port})
			continue
		}
		if strings.HasPrefix(host, "*.") {
			host = host[1:]
		}
		np.domains = append(np.domains, hostPort[string]{host, port})
	}
	return np
}

// direct reports whether u goes to its host without a proxy.
func (np *noProxy) direct(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if a, err := netip.ParseAddr(host); err == nil {
		a = a.Unmap()
		if a.IsLoopback() {
			return true
		}
		if np.all {
			return true
		}
		for _, p := range np.prefixes {
			if p.Contains(a) {
				return true
			}
		}
		for _, e := range np.addrs {
			if e.host == a && (e.port == "" || e.port == port) {
				return true
			}
		}
		return false
	}
	if np.all {
		return true
	}
	for _, e := range np.domains {
		if e.port != "" && e.port != port {
			continue
		}
		if strings.HasPrefix(e.host, ".") {
			if strings.HasSuffix(host, e.host) {
				return true
			}
			continue
		}
		if host == e.host || strings.HasSuffix(host, "."+e.host) {
			return true
		}
	}
	return false
}
