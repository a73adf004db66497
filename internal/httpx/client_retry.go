package httpx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how a Sender retries responses 429 Too Many Requests,
// documented or not. Every attempt is kept for the reports.
type RetryPolicy struct {
	// MaxRetries is the number of attempts after the first; zero sends
	// each request once.
	MaxRetries int
	// MaxWait is the longest wait a Retry-After may ask for: a service
	// that asks for more gets no further attempt (its 429 is the answer),
	// rather than one sent before it said it would be ready.
	MaxWait time.Duration
	// DefaultWait is the wait after a 429 without a readable Retry-After.
	DefaultWait time.Duration
}

// DefaultRetryPolicy retries a 429 three times, waiting as asked for up
// to 30 seconds, or one second when the service does not say.
var DefaultRetryPolicy = RetryPolicy{MaxRetries: 3, MaxWait: 30 * time.Second, DefaultWait: time.Second}

// DefaultMaxBody bounds the response body a Sender reads.
const DefaultMaxBody = 32 << 20

// Attempt is one request sent and what came back.
type Attempt struct {
	Start    time.Time
	Duration time.Duration
	// Request is the request as sent (its body is in RequestBody).
	Request     *http.Request
	RequestBody []byte
	// Response is nil when Err is set; its body has been read into Body
	// and closed.
	Response *http.Response
	Body     []byte
	// Truncated is set when the body was longer than the Sender's
	// MaxBody; Body holds its first MaxBody bytes.
	Truncated bool
	Err       error
	// Wait is how long the Sender waited before the next attempt; Reason
	// says why it retried, or why it did not after a 429.
	Wait   time.Duration
	Reason string
}

// Sender sends requests with a client and retries 429s by a policy.
type Sender struct {
	Client  *http.Client
	Retry   RetryPolicy
	MaxBody int64 // zero means DefaultMaxBody
	// Sleep waits between attempts; nil waits on a timer. It returns the
	// context's error when the run is cancelled meanwhile.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock Retry-After dates are read against; nil is
	// time.Now.
	Now func() time.Time
}

// Do sends req (with its body) until a response other than 429 comes
// back, the policy allows no more attempts, or a network error ends it,
// and returns every attempt in order; the last is the result. req.Body
// is read once; req itself is not changed.
func (s *Sender) Do(ctx context.Context, req *http.Request, body []byte) []Attempt {
	now := s.Now
	if now == nil {
		now = time.Now
	}
	var attempts []Attempt
	for {
		a := s.once(ctx, req, body, now)
		attempts = append(attempts, a)
		last := &attempts[len(attempts)-1]
		if a.Err != nil || a.Response.StatusCode != http.StatusTooManyRequests {
			return attempts
		}
		if len(attempts) > s.Retry.MaxRetries {
			if s.Retry.MaxRetries > 0 {
				last.Reason = fmt.Sprintf("still 429 after %d retries", s.Retry.MaxRetries)
			}
			return attempts
		}
		header := a.Response.Header.Get("Retry-After")
		wait, err := ParseRetryAfter(header, now())
		switch {
		case header == "":
			wait = s.Retry.DefaultWait
			last.Reason = fmt.Sprintf("429 without Retry-After: retried after %s", wait)
		case err != nil:
			wait = s.Retry.DefaultWait
			last.Reason = fmt.Sprintf("429 with %v: retried after %s", err, wait)
		case s.Retry.MaxWait > 0 && wait > s.Retry.MaxWait:
			last.Reason = fmt.Sprintf("429 with Retry-After %q asks for a wait of %s, longer than the longest allowed (%s): not retried", header, wait.Round(time.Second), s.Retry.MaxWait)
			return attempts
		default:
			last.Reason = fmt.Sprintf("429 with Retry-After %q: retried after %s", header, wait.Round(time.Millisecond))
		}
		last.Wait = wait
		if err := s.sleep(ctx, wait); err != nil {
			last.Reason += " (cancelled)"
			return attempts
		}
	}
}

func (s *Sender) sleep(ctx context.Context, d time.Duration) error {
	if s.Sleep != nil {
		return s.Sleep(ctx, d)
	}
	return Sleep(ctx, d)
}

// Sleep waits for d, or until ctx is done, and returns ctx's error then.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// once sends one attempt and reads its response.
func (s *Sender) once(ctx context.Context, req *http.Request, body []byte, now func() time.Time) Attempt {
	r := req.Clone(ctx)
	if body != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		r.ContentLength = int64(len(body))
	} else {
		r.Body, r.GetBody, r.ContentLength = nil, nil, 0
	}
	a := Attempt{Start: now(), Request: r, RequestBody: body}
	start := time.Now()
	resp, err := s.Client.Do(r)
	if err != nil {
		a.Duration = time.Since(start)
		a.Err = err
		return a
	}
	limit := s.MaxBody
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	resp.Body.Close()
	a.Duration = time.Since(start)
	if int64(len(data)) > limit {
		data, a.Truncated = data[:limit], true
	}
	if err != nil {
		a.Err = fmt.Errorf("reading the response body: %w", err)
		return a
	}
	resp.Body = http.NoBody
	a.Response, a.Body = resp, data
	return a
}

// ParseRetryAfter reads a Retry-After value as the wait it asks for from
// now: delay-seconds ("120", and, leniently, "1.5"), an HTTP date ("Wed,
// 21 Oct 2015 07:28:00 GMT", and the obsolete RFC 850 and asctime forms),
// or an ISO-8601 timestamp ("2015-10-21T07:28:00Z", with or without
// fractions and offset; without an offset it is UTC). A date in the past
// is a wait of zero.
func ParseRetryAfter(v string, now time.Time) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, errors.New("empty Retry-After")
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && strings.IndexFunc(v, func(r rune) bool { return (r < '0' || r > '9') && r != '.' }) < 0 {
		if f > math.MaxInt64/float64(time.Second) {
			return time.Duration(math.MaxInt64), nil
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), nil
	}
	for _, layout := range isoLayouts {
		if t, err := time.Parse(layout, v); err == nil {
			return max(t.Sub(now), 0), nil
		}
	}
	return 0, fmt.Errorf("Retry-After %q is neither seconds, an HTTP date nor an ISO-8601 timestamp", v)
}

// isoLayouts are the ISO-8601 timestamps Retry-After is read as: extended
// format with an offset or Z, with a basic offset, and without an offset.
var isoLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
}
