package httpx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// FetchLimits bound one FetchSpec. The flags name, in errors, the options
// that set the limits ("" names none).
type FetchLimits struct {
	MaxBytes    int64
	SizeFlag    string
	TimeoutFlag string
}

// FetchError is a failed fetch of a URL, shown redacted (RedactURL).
type FetchError struct {
	URL string
	Err error
}

func (e *FetchError) Error() string { return "fetching " + e.URL + ": " + e.Err.Error() }
func (e *FetchError) Unwrap() error { return e.Err }

// FetchSpec reads the spec at u with client (a GuardedClient), at most
// lim.MaxBytes of it. It returns the body and the URL it was finally read
// from (after redirects), which relative $refs resolve against. Errors are
// *FetchError; a refused address stays reachable with errors.As as a
// *RefusedError.
func FetchSpec(ctx context.Context, client *http.Client, u *url.URL, lim FetchLimits) ([]byte, string, error) {
	max := lim.MaxBytes
	shown := RedactURL(u)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", &FetchError{shown, err}
	}
	req.Header.Set("Accept", "application/yaml, application/json;q=0.9, */*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", &FetchError{shown, unwrapURLError(err, lim.TimeoutFlag)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", &FetchError{shown, fmt.Errorf("HTTP %s", resp.Status)}
	}
	if resp.ContentLength > max {
		return nil, "", &FetchError{shown, fmt.Errorf("the spec is %s, more than the %s limit%s", FormatBytes(resp.ContentLength), FormatBytes(max), inParens(lim.SizeFlag))}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, "", &FetchError{shown, err}
	}
	if int64(len(data)) > max {
		return nil, "", &FetchError{shown, fmt.Errorf("the spec is larger than the %s limit%s", FormatBytes(max), inParens(lim.SizeFlag))}
	}
	return data, resp.Request.URL.String(), nil
}

// inParens is " (flag)", or "" for no flag.
func inParens(flag string) string {
	if flag == "" {
		return ""
	}
	return " (" + flag + ")"
}

// unwrapURLError drops *url.Error's "Get \"…\":" prefix, which repeats the
// URL, keeping the cause (and RefusedError reachable with errors.As).
func unwrapURLError(err error, timeoutFlag string) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return errors.New("timed out" + inParens(timeoutFlag))
		}
		return ue.Err
	}
	return err
}

// RedactURL is a URL as it may be logged and shown: without credentials
// and without the query, which often carries signatures or tokens.
func RedactURL(u *url.URL) string {
	c := *u
	c.User = nil
	if c.RawQuery != "" {
		c.RawQuery = "…"
	}
	c.Fragment = ""
	return c.String()
}
