package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/specgate/specgate/internal/httpx"
)

// rateWindow is the window of --rate-limit: requests per minute.
const rateWindow = time.Minute

// rateLimiter counts each client's requests in fixed windows of a minute
// and refuses those beyond the quota. A client is an IPv4 address or an
// IPv6 /64 (one host's share of IPv6 addresses). The windows start at
// the same time for every client, so the counts are dropped all at once
// when a window ends: the limiter holds at most one counter per client
// seen in the current minute.
type rateLimiter struct {
	quota int
	now   func() time.Time
	start time.Time // of the first window

	mu     sync.Mutex
	window int64 // the current window's number since start
	counts map[netip.Prefix]int
}

func newRateLimiter(quota int) *rateLimiter {
	return &rateLimiter{quota: quota, now: time.Now, start: time.Now(), counts: map[netip.Prefix]int{}}
}

// take counts a request of client and says whether it is within the
// quota, how many requests the client has left and the seconds until the
// window ends.
func (l *rateLimiter) take(client netip.Prefix) (ok bool, remaining, reset int) {
	elapsed := l.now().Sub(l.start)
	window := int64(elapsed / rateWindow)
	// Rounded up, so that a client waiting reset seconds is in the next window.
	reset = int((time.Duration(window+1)*rateWindow - elapsed + time.Second - 1) / time.Second)
	l.mu.Lock()
	defer l.mu.Unlock()
	if window != l.window {
		l.window, l.counts = window, map[netip.Prefix]int{}
	}
	n := l.counts[client]
	if n >= l.quota {
		return false, 0, reset
	}
	l.counts[client] = n + 1
	return true, l.quota - n - 1, reset
}

// clientOf is the client a request counts against: its remote address,
// IPv6 addresses by their /64.
func clientOf(r *http.Request) netip.Prefix {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Prefix{} // one counter for whatever cannot be parsed
	}
	a = a.Unmap().WithZone("")
	bits := 32
	if a.Is6() {
		bits = 64
	}
	p, _ := a.Prefix(bits)
	return p
}

// ratePolicy names the quota in the RateLimit header fields.
const ratePolicy = `"client"`

// limited applies the rate limit to h: every response carries the
// RateLimit-Policy and RateLimit header fields (draft-ietf-httpapi-
// ratelimit-headers), and a request beyond the quota is a 429 problem with
// Retry-After.
// A nil limiter limits nothing.
func (l *rateLimiter) limited(h http.Handler) http.Handler {
	if l == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok, remaining, reset := l.take(clientOf(r))
		hdr := w.Header()
		hdr.Set("RateLimit-Policy", fmt.Sprintf("%s;q=%d;w=%d", ratePolicy, l.quota, int(rateWindow/time.Second)))
		hdr.Set("RateLimit", fmt.Sprintf("%s;r=%d;t=%d", ratePolicy, remaining, reset))
		if !ok {
			p := problems.New(http.StatusTooManyRequests, kindRateLimited,
				fmt.Sprintf("this client made more than %d requests this minute (--rate-limit); retry in %d s", l.quota, reset))
			p.RetryAfter = reset
			httpx.WriteProblem(w, r, p)
			return
		}
		h.ServeHTTP(w, r)
	})
}
