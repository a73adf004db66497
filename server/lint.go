package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/reports/lintreport"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// lintRequest is the body of POST /lint-reports: the spec inline (Spec) or
// by URL (SpecURL), the profile (the configuration's default when empty)
// and the report format (json when empty).
type lintRequest struct {
	Spec    *string
	SpecURL *string
	Profile string
	Format  string
}

// The longest specUrl and profile a lint request may give (the spec is
// bounded by the body's size).
const (
	maxSpecURLLength = 8192
	maxProfileLength = 256
)

// The members of a lint request, as the JSON body spells them.
var requestMembers = []string{"spec", "specUrl", "profile", "format"}

// reportFormats are the formats the server writes, with their media types.
var reportFormats = map[string]string{
	"json":  "application/json",
	"sarif": "application/sarif+json",
}

var reportFormatNames = []string{"json", "sarif"}

// decodeLintRequest reads a lint request body strictly: one JSON object of
// known members (names are case-sensitive), each at most once, with the
// right types, and nothing after it. Errors are 400 problems that give the
// line and column in the body and suggest a misspelt member or value.
func decodeLintRequest(body []byte) (*lintRequest, *Problem) {
	dec := json.NewDecoder(bytes.NewReader(body))
	// bad is a 400 problem at an offset of the body (none when negative).
	bad := func(offset int64, field, format string, args ...any) *Problem {
		p := problems.New(http.StatusBadRequest, kindBadRequest, fmt.Sprintf(format, args...))
		if offset >= 0 {
			at := spec.PosAt(body, int(offset))
			p.Line, p.Column = int(at.Line), int(at.Col)
			p.Detail = fmt.Sprintf("request body:%d:%d: %s", p.Line, p.Column, p.Detail)
		}
		p.Field = field
		return p
	}
	syntax := func(err error) *Problem {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// A Decoder's offset inside a value it decodes counts the bytes
			// its scanner has seen, not the body's; a scan of the whole body
			// meets the same first error and reports it after the bad byte.
			var whole *json.SyntaxError
			if errors.As(json.Unmarshal(body, new(json.RawMessage)), &whole) && whole.Offset > 0 {
				return bad(whole.Offset-1, "", "invalid JSON: %s", whole.Error())
			}
			return bad(se.Offset, "", "invalid JSON: %s", se.Error())
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return bad(int64(len(body)), "", "the body ends before the JSON object does")
		}
		return bad(dec.InputOffset(), "", "invalid JSON: %v", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, bad(0, "", "the body is empty; send a JSON object such as {\"specUrl\": \"https://…\"} or {\"spec\": \"openapi: 3.1.0 …\"}")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, bad(0, "", "the body must be a JSON object, found %s", describeToken(tok))
	}
	req := &lintRequest{}
	seen := map[string]bool{}
	for dec.More() {
		at := skipSeparators(body, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return nil, syntax(err)
		}
		key := tok.(string) // object keys are strings, or Token fails
		if !slices.Contains(requestMembers, key) {
			return nil, bad(at, key, "unknown member %q%s (members: %s)", key, rulesets.Suggest(key, requestMembers), strings.Join(requestMembers, ", "))
		}
		if seen[key] {
			return nil, bad(at, key, "member %q is given twice", key)
		}
		seen[key] = true
		valueAt := skipSeparators(body, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntax(err)
		}
		v, kind := decodeString(raw, key == "spec")
		if kind != "" {
			return nil, bad(valueAt, key, "%s must be a string, found %s", key, kind)
		}
		switch key {
		case "spec":
			req.Spec = v
		case "specUrl":
			req.SpecURL = v
		case "profile":
			req.Profile = deref(v)
		case "format":
			req.Format = deref(v)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, syntax(err)
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err != nil {
			return nil, syntax(err)
		}
		return nil, bad(dec.InputOffset(), "", "unexpected %s after the JSON object", describeToken(tok))
	}
	switch {
	case req.Spec == nil && req.SpecURL == nil:
		return nil, bad(-1, "", "give the spec inline in \"spec\" or its URL in \"specUrl\"")
	case req.Spec != nil && req.SpecURL != nil:
		return nil, bad(-1, "", "give either \"spec\" or \"specUrl\", not both")
	}
	if req.SpecURL != nil && utf8.RuneCountInString(*req.SpecURL) > maxSpecURLLength {
		return nil, bad(-1, "specUrl", "specUrl is longer than %d characters", maxSpecURLLength)
	}
	if utf8.RuneCountInString(req.Profile) > maxProfileLength {
		return nil, bad(-1, "profile", "profile is longer than %d characters", maxProfileLength)
	}
	if req.Format == "" {
		req.Format = "json"
	}
	if _, ok := reportFormats[req.Format]; !ok {
		p := bad(-1, "format", "unknown format %q%s (formats: %s)", req.Format, rulesets.Suggest(req.Format, reportFormatNames), strings.Join(reportFormatNames, ", "))
		p.Allowed = reportFormatNames
		return nil, p
	}
	return req, nil
}

// decodeString decodes a JSON value that must be a string or null; kind
// names what it is otherwise. JSON text must be UTF-8, and decoding
// replaces invalid bytes by U+FFFD; with keepBytes, the bytes of a string
// that is not UTF-8 are kept as they are instead, so that the spec's
// loader reports them where they are in the spec.
func decodeString(raw json.RawMessage, keepBytes bool) (v *string, kind string) {
	switch raw[0] {
	case 'n':
		return nil, ""
	case '"':
	case '{':
		return nil, "object"
	case '[':
		return nil, "array"
	case 't', 'f':
		return nil, "bool"
	default:
		return nil, "number"
	}
	var s string
	if keepBytes && !utf8.Valid(raw) {
		s = spec.UnquoteJSON(raw)
	} else if err := json.Unmarshal(raw, &s); err != nil {
		return nil, "string" // cannot happen: the decoder read a valid string
	}
	return &s, ""
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func describeToken(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return fmt.Sprintf("%q", string(t))
	case string:
		return "a string"
	case nil:
		return "null"
	case bool:
		return "a boolean"
	default:
		return "a number"
	}
}

// skipSeparators moves an offset of the JSON text past white space, commas
// and colons, to the start of the next token.
func skipSeparators(text []byte, offset int64) int64 {
	for offset < int64(len(text)) && strings.IndexByte(" \t\r\n,:", text[offset]) >= 0 {
		offset++
	}
	return offset
}

// inlineBase is the made-up location inline specs are loaded under (see
// inlineHost); reports name them inlineName.
const (
	inlineBase = "https://" + inlineHost + "/"
	inlineName = "spec"
)

// handleLint answers POST /lint-reports.
func (s *Server) handleLint(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSONMediaType(ct) {
		httpx.WriteProblem(w, r, problems.New(http.StatusUnsupportedMediaType, kindUnsupportedMedia,
			fmt.Sprintf("Content-Type %q: send the lint request as application/json", ct)))
		return
	}
	if !s.slots.acquire(r.Context()) {
		p := problems.New(http.StatusServiceUnavailable, kindOverloaded,
			fmt.Sprintf("all %d lint slots are busy (--max-concurrent) and none freed up within %s (--queue-timeout); retry later", cap(s.slots.ch), s.slots.wait))
		p.RetryAfter = 1
		httpx.WriteProblem(w, r, p)
		return
	}
	defer s.slots.release()

	// The request's memory is reserved before its body is read when its
	// length is known, after it otherwise; a body larger than the limit is
	// refused before it is read.
	mem := &reservation{budget: s.memory}
	defer mem.release()
	tooLarge := problems.New(http.StatusRequestEntityTooLarge, kindTooLarge,
		fmt.Sprintf("the request body is larger than the %s limit (%s); post large specs by specUrl", httpx.FormatBytes(s.bodyLimit.bytes), s.bodyLimit.flag))
	if r.ContentLength > s.bodyLimit.bytes {
		httpx.WriteProblem(w, r, tooLarge)
		return
	}
	if r.ContentLength >= 0 && !s.reserveMemory(w, r, mem, memoryCost(r.ContentLength)) {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.bodyLimit.bytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			httpx.WriteProblem(w, r, tooLarge)
			return
		}
		httpx.WriteProblem(w, r, problems.New(http.StatusBadRequest, kindBadRequest, "reading the request body: "+err.Error()))
		return
	}
	if !s.reserveMemory(w, r, mem, memoryCost(int64(len(body)))) {
		return
	}
	req, p := decodeLintRequest(body)
	if p != nil {
		httpx.WriteProblem(w, r, p)
		return
	}
	gen := s.config.current.Load()
	prof, p := gen.lookup(req.Profile)
	if p != nil {
		httpx.WriteProblem(w, r, p)
		return
	}
	httpx.LogAttrs(r.Context(), slog.String("profile", prof.name), slog.String("format", req.Format), slog.String("commit", short(gen.commit)))

	ctx, cancel := context.WithTimeout(r.Context(), s.opts.RequestTimeout)
	defer cancel()
	doc, p := s.loadSpec(ctx, req, mem)
	if p != nil {
		httpx.WriteProblem(w, r, p)
		return
	}
	res := prof.lint.LintDocument(ctx, doc)
	if ctx.Err() != nil {
		httpx.WriteProblem(w, r, s.canceled(ctx))
		return
	}
	if req.Spec != nil {
		renameInline(&res)
	}
	run := lintreport.Of(prof.lint, []linter.Result{res}, nil)
	run.Tool.Version, run.Tool.Ruleset, run.Tool.Profile = s.opts.Version, prof.ruleset, prof.name
	run.Start, run.Elapsed = start, time.Since(start)
	format, _ := reports.Lookup(req.Format)
	var out bytes.Buffer
	if err := format.Write(&out, run); err != nil {
		httpx.WriteProblem(w, r, problems.New(http.StatusInternalServerError, kindInternal, "writing the report: "+err.Error()))
		return
	}
	sum := reports.Summarize(run.Files)
	httpx.LogAttrs(r.Context(), slog.Int("errors", sum.Errors), slog.Int("warnings", sum.Warnings))
	h := w.Header()
	h.Set("Content-Type", reportFormats[req.Format])
	h.Set("Cache-Control", "no-store")
	h.Set("X-Specgate-Config-Commit", gen.commit)
	_, _ = w.Write(out.Bytes())
}

// reserveMemory grows the request's reservation to n bytes, or answers
// 503 when the memory budget cannot hold them now.
func (s *Server) reserveMemory(w http.ResponseWriter, r *http.Request, mem *reservation, n int64) bool {
	if mem.growTo(n) {
		return true
	}
	httpx.WriteProblem(w, r, s.memoryProblem(n))
	return false
}

// memoryProblem is the 503 of a request whose estimated cost, n bytes, does
// not fit in what the requests in flight leave of the memory budget.
func (s *Server) memoryProblem(n int64) *Problem {
	p := problems.New(http.StatusServiceUnavailable, kindOverloaded,
		fmt.Sprintf("linting this spec takes about %s of memory, and the lint requests in flight hold %s of the %s budget (--max-memory); retry later",
			httpx.FormatBytes(n), httpx.FormatBytes(s.memory.inUse()), httpx.FormatBytes(s.memory.limit)))
	p.RetryAfter = memoryRetryAfter
	return p
}

// memoryRetryAfter is the Retry-After of a 503 for want of memory: large
// specs take seconds to lint.
const memoryRetryAfter = 2

// loadSpec fetches (for specUrl) and loads the spec of a request; the
// memory reservation grows with the size of a fetched spec.
func (s *Server) loadSpec(ctx context.Context, req *lintRequest, mem *reservation) (*spec.Document, *Problem) {
	name := inlineBase + inlineName
	var data []byte
	if req.SpecURL != nil {
		u, err := parseSpecURL(*req.SpecURL)
		if err != nil {
			p := problems.New(http.StatusBadRequest, kindBadRequest, err.Error())
			p.Field = "specUrl"
			return nil, p
		}
		httpx.LogAttrs(ctx, slog.String("specUrl", httpx.RedactURL(u)))
		if data, name, err = httpx.FetchSpec(ctx, s.client, u, httpx.FetchLimits{MaxBytes: s.specLimit.bytes, SizeFlag: s.specLimit.flag, TimeoutFlag: "--fetch-timeout"}); err != nil {
			if ctx.Err() != nil {
				return nil, s.canceled(ctx)
			}
			var refused *RefusedError
			if errors.As(err, &refused) {
				// The address is the client's choice, not an upstream's
				// failure: a client error.
				p := problems.New(http.StatusForbidden, kindFetchRefused, "fetching "+httpx.RedactURL(u)+": "+refused.Error())
				p.Field = "specUrl"
				return nil, p
			}
			return nil, problems.New(http.StatusBadGateway, kindFetchFailed, err.Error())
		}
		if cost := mem.held + memoryPerByte*int64(len(data)); !mem.growTo(cost) {
			return nil, s.memoryProblem(cost)
		}
	} else {
		data = []byte(*req.Spec)
		httpx.LogAttrs(ctx, slog.Int("specBytes", len(data)))
	}
	doc, err := s.loader.LoadBytes(ctx, name, data)
	if err != nil {
		if ctx.Err() != nil {
			return nil, s.canceled(ctx)
		}
		p := problems.New(http.StatusUnprocessableEntity, kindUnprocessableSpec, err.Error())
		var se *spec.Error
		if errors.As(err, &se) {
			p.File, p.Line, p.Column = se.File, int(se.Pos.Line), int(se.Pos.Col)
		}
		if req.Spec != nil {
			p.File, p.Detail = inlineText(p.File), inlineText(p.Detail)
		}
		return nil, p
	}
	return doc, nil
}

// canceled is the problem of a request whose context ended: its time
// limit passed (504), or the client went away (the status is then only
// logged).
func (s *Server) canceled(ctx context.Context) *Problem {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return problems.New(http.StatusGatewayTimeout, kindTimeout, fmt.Sprintf("fetching, loading and linting the spec took more than %s (--request-timeout)", s.opts.RequestTimeout))
	}
	return problems.New(499, kindTimeout, "the client closed the request")
}

// renameInline names an inline spec "spec" in its result instead of the
// made-up URL it was loaded under.
func renameInline(res *linter.Result) {
	res.File = inlineText(res.File)
	for i := range res.Findings {
		d := &res.Findings[i]
		d.File, d.Message = inlineText(d.File), inlineText(d.Message)
	}
}

func inlineText(s string) string { return strings.ReplaceAll(s, inlineBase, "") }

// isJSONMediaType accepts application/json and any +json type.
func isJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// slots bound the lint requests handled at once.
type slots struct {
	ch   chan struct{}
	wait time.Duration // how long a request waits for a slot
}

func (s *slots) acquire(ctx context.Context) bool {
	select {
	case s.ch <- struct{}{}:
		return true
	default:
	}
	if s.wait <= 0 {
		return false
	}
	t := time.NewTimer(s.wait)
	defer t.Stop()
	select {
	case s.ch <- struct{}{}:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

func (s *slots) release() { <-s.ch }

// inUse is the number of lint requests being handled.
func (s *slots) inUse() int { return len(s.ch) }
