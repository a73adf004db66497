package insights

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/httpx"
)

// Client defaults.
const (
	// DefaultTimeout bounds one call to the service, every attempt and
	// wait included: a CI job is not held up by a service that is down.
	DefaultTimeout = 30 * time.Second
	// DefaultAttempts is how many times a call is tried.
	DefaultAttempts = 5
	// firstWait is the wait after the first failed attempt; each later
	// wait doubles, up to maxWait, and is jittered down to half.
	firstWait = 500 * time.Millisecond
	maxWait   = 8 * time.Second
	// maxAnswer bounds an answer read from the service.
	maxAnswer = 16 << 20
)

// TokenEnv is the environment variable the service's token is read from,
// by the client and by specgate insights-server alike.
const TokenEnv = "SPECGATE_INSIGHTS_TOKEN"

// URLEnv is the environment variable that names the service.
const URLEnv = "SPECGATE_INSIGHTS_URL"

// Client calls an insights service: it submits reports and asks for
// consumers, retrying network errors, 5xx and 429 answers with back-off
// within Timeout. Requests go through HTTP's proxies as HTTP and its
// transport say (see httpx.NewClient).
type Client struct {
	// URL is the service's base URL; the API's paths (/v1/…) follow it.
	URL string
	// Token, when set, is sent as a bearer token. It is never logged.
	Token string
	HTTP  *http.Client
	// Logger receives a debug line per attempt and its answer (the token
	// masked); nil logs nothing.
	Logger    *slog.Logger
	Timeout   time.Duration // zero: DefaultTimeout
	Attempts  int           // zero: DefaultAttempts
	UserAgent string
	// Sleep waits between attempts; nil waits on a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Error is a call to the service that failed: after its attempts, or at
// once for an answer that a retry cannot change (4xx).
type Error struct {
	Op       string // what was asked: "submitting the reports"
	URL      string
	Attempts int
	Elapsed  time.Duration
	// Status is the last answer's status; zero when none came (Err says
	// why).
	Status int
	// Detail is the service's own explanation (a problem's detail).
	Detail    string
	Err       error
	TokenSent bool
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s to the insights service at %s failed", e.Op, e.URL)
	switch {
	case e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden:
		fmt.Fprintf(&b, ": %d %s", e.Status, http.StatusText(e.Status))
		if e.TokenSent {
			fmt.Fprintf(&b, " (the service does not accept the token in %s)", TokenEnv)
		} else {
			fmt.Fprintf(&b, " (no token was sent: set %s)", TokenEnv)
		}
	case e.Status != 0:
		fmt.Fprintf(&b, ": %d %s", e.Status, http.StatusText(e.Status))
	case e.Err != nil:
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if e.Detail != "" {
		fmt.Fprintf(&b, ": %s", e.Detail)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (%d attempts in %s)", e.Attempts, e.Elapsed.Round(100*time.Millisecond))
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Submit sends a submission, giving it its ContentID when it has no id. A
// submission the service had already (a retry after an answer was lost,
// the same reports sent again) is answered with Duplicate set.
func (c *Client) Submit(ctx context.Context, s *Submission) (*Receipt, error) {
	if s.ID == "" {
		id, err := s.ContentID()
		if err != nil {
			return nil, err
		}
		s.ID = id
	}
	var body bytes.Buffer
	zw := gzip.NewWriter(&body)
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	var rec Receipt
	if err := c.call(ctx, "submitting the reports", http.MethodPost, "/v1/submissions", nil, body.Bytes(), &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// ConsumersOf asks which repositories consume the operations ("GET
// /pets") of a specification; with no operation, every operation of it
// that has consumers. Each operation is asked once.
func (c *Client) ConsumersOf(ctx context.Context, specID string, operations []string) (*Consumers, error) {
	q := url.Values{"spec": {specID}}
	seen := map[string]bool{}
	for _, op := range operations {
		if !seen[op] {
			seen[op] = true
			q.Add("operation", op)
		}
	}
	var ans Consumers
	if err := c.call(ctx, "asking for the consumers of "+specID, http.MethodGet, "/v1/consumers", q, nil, &ans); err != nil {
		return nil, err
	}
	return &ans, nil
}

// Latest asks for the latest result of each repository, specification and
// kind that match the query (repoId, spec, kind, branch).
func (c *Client) Latest(ctx context.Context, q url.Values) (*Results, error) {
	var ans Results
	if err := c.call(ctx, "asking for the latest results", http.MethodGet, "/v1/results/latest", q, nil, &ans); err != nil {
		return nil, err
	}
	return &ans, nil
}

// call sends one request until it gets an answer a retry cannot change,
// and decodes a 2xx answer's JSON into out.
func (c *Client) call(ctx context.Context, op, method, path string, q url.Values, gzipped []byte, out any) error {
	base, err := url.Parse(strings.TrimSuffix(c.URL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return &Error{Op: op, URL: c.URL, Err: fmt.Errorf("the URL must be http:// or https:// with a host")}
	}
	u := *base
	u.Path = strings.TrimSuffix(base.Path, "/") + path
	u.RawQuery = q.Encode()
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	attempts := c.Attempts
	if attempts <= 0 {
		attempts = DefaultAttempts
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	logger := c.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	start := time.Now()
	fail := &Error{Op: op, URL: c.URL, TokenSent: c.Token != ""}
	wait := firstWait
	for attempt := 1; ; attempt++ {
		fail.Attempts = attempt
		req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(gzipped))
		if err != nil {
			fail.Err = err
			return fail
		}
		if gzipped == nil {
			req.Body, req.ContentLength = http.NoBody, 0
		} else {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Content-Encoding", "gzip")
		}
		req.Header.Set("Accept", "application/json, application/problem+json")
		if c.UserAgent != "" {
			req.Header.Set("User-Agent", c.UserAgent)
		}
		auth := "none"
		if c.Token != "" {
			req.Header.Set("Authorization", "Bearer "+c.Token)
			auth = "Bearer ****"
		}
		logger.Debug("insights request", slog.String("method", method), slog.String("url", u.String()),
			slog.Int("attempt", attempt), slog.Int("bytes", len(gzipped)), slog.String("authorization", auth))
		t0 := time.Now()
		resp, err := client.Do(req)
		retry := false
		var after time.Duration
		if err != nil {
			fail.Status, fail.Detail, fail.Err = 0, "", cleanNetError(err)
			logger.Debug("insights answer", slog.Int("attempt", attempt), slog.String("error", fail.Err.Error()), slog.Duration("duration", time.Since(t0)))
			retry = ctx.Err() == nil
		} else {
			data, rerr := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
			resp.Body.Close()
			logger.Debug("insights answer", slog.Int("attempt", attempt), slog.Int("status", resp.StatusCode),
				slog.Int("bytes", len(data)), slog.Duration("duration", time.Since(t0)))
			switch {
			case resp.StatusCode >= 200 && resp.StatusCode < 300 && rerr == nil:
				if out == nil {
					return nil
				}
				if err := json.Unmarshal(data, out); err != nil {
					fail.Status, fail.Err = 0, fmt.Errorf("the answer (%d) is not the JSON expected: %v", resp.StatusCode, err)
					return fail
				}
				return nil
			case rerr != nil:
				fail.Status, fail.Detail, fail.Err = 0, "", fmt.Errorf("reading the answer: %w", rerr)
				retry = true
			default:
				fail.Status, fail.Detail, fail.Err = resp.StatusCode, problemDetail(data), nil
				retry = resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusRequestTimeout
				if h := resp.Header.Get("Retry-After"); h != "" {
					after, _ = httpx.ParseRetryAfter(h, time.Now())
				}
			}
		}
		fail.Elapsed = time.Since(start)
		if !retry || attempt >= attempts {
			return fail
		}
		d := wait/2 + rand.N(wait/2+1)
		if after > d {
			d = after
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
			return fail // the next attempt could not start in time
		}
		if err := c.sleep(ctx, d); err != nil {
			return fail
		}
		wait = min(wait*2, maxWait)
	}
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	return httpx.Sleep(ctx, d)
}

// cleanNetError drops the method and URL net/http puts before a
// transport error: the Error says which URL already.
func cleanNetError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if errors.Is(ue.Err, context.DeadlineExceeded) {
			return errors.New("no answer in time")
		}
		return ue.Err
	}
	return err
}

// problemDetail is the detail (or title) of a problem+json answer, or the
// start of a plain one.
func problemDetail(data []byte) string {
	var p struct {
		Title  string `json:"title"`
		Detail string `json:"detail"`
	}
	if json.Unmarshal(data, &p) == nil {
		if p.Detail != "" {
			return p.Detail
		}
		return p.Title
	}
	s := strings.TrimSpace(string(data))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
