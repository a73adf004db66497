package mock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// fromExample builds the answer of an example for the exchange it
// answers: its headers and body evaluated against the request, typed by
// the response's schema (a partial example's response was completed from
// the spec when it was loaded).
// ok is false when the example cannot answer: its media type is not one
// the request accepts, or what it gives is not valid for the response's
// schema (logged, with where the example is written), so that the next
// choice answers instead. The mock never sends an answer that breaks its
// own contract.
func (s *Server) fromExample(x *Exchange, e *example) (*Answer, bool) {
	status := e.status
	if status == 0 {
		status = http.StatusOK
	}
	a := &Answer{Status: status, Header: http.Header{}, Example: e.name, Delay: e.delay}
	if err := e.evalHeaders(x, a.Header); err != nil {
		s.skipExample(x, e, err.Error())
		return nil, false
	}
	if e.body != nil {
		if accept := x.Request.Header.Get("Accept"); accept != "" && e.media != "" {
			if _, ok := contract.Negotiate(accept, []string{e.media}); !ok {
				return nil, false
			}
		}
		a.MediaType = e.media
		mt := declaredMedia(e.response, e.media)
		switch {
		case e.raw != nil:
			e.checked.Do(func() { e.invalid = s.invalidRaw(x, e, status) })
			if e.invalid != "" {
				s.skipExample(x, e, e.invalid)
				return nil, false
			}
			a.Raw = e.raw
		case e.static:
			e.checked.Do(func() {
				e.invalid = s.invalidAnswer(x, mt, e.staticBody)
				if e.invalid != "" && e.origin == fromSpec {
					s.completeExample(x, e, mt, status)
				}
			})
			if e.invalid != "" {
				s.skipExample(x, e, e.invalid)
				return nil, false
			}
			a.Body = e.staticBody
		default:
			v, err := e.context(x).Eval(e.body)
			if err != nil {
				s.skipExample(x, e, err.Error())
				return nil, false
			}
			if mt != nil && x.op != nil {
				v = typer{x.op.api.doc}.coerce(mt.Schema, v, 0)
			}
			if msg := s.invalidAnswer(x, mt, v); msg != "" {
				s.skipExample(x, e, msg)
				return nil, false
			}
			a.Body = v
		}
	} else if e.response != nil && len(e.response.Content) > 0 {
		// An example that writes no body for a response that has one
		// (one that names only headers) gets a generated body.
		g, p := s.generate(x, e.response, status, false)
		if p != nil {
			return nil, false
		}
		g.Example, g.Delay = e.name, e.delay
		for k, v := range a.Header {
			g.Header[k] = v
		}
		a = g
	}
	s.fillHeaders(x, e.response, a, false)
	if e.usage != nil {
		e.usage.hits.Add(1)
	}
	return a, true
}

// plainAnswer is the answer of an example that belongs to no operation
// (a 405 example): its headers and body as written.
func (s *Server) plainAnswer(e *example) *Answer {
	a := &Answer{Status: e.status, Header: http.Header{}, Example: e.name, Delay: e.delay, MediaType: e.media}
	for _, h := range e.headers {
		a.Header.Set(h.Name, headerText(examples.Literalize(h.Value)))
	}
	switch {
	case e.raw != nil:
		a.Raw = e.raw
	case e.body != nil:
		a.Body = examples.Literalize(e.body)
		if a.MediaType == "" {
			a.MediaType = "application/json"
		}
	}
	return a
}

// skipExample notes on the request's log line that an example did not
// answer, and logs why once per example.
func (s *Server) skipExample(x *Exchange, e *example, why string) {
	httpx.LogAttrs(x.Request.Context(), slog.String("skipped", e.name))
	if !e.warned.CompareAndSwap(false, true) {
		return
	}
	s.opts.Logger.Warn("example skipped: it does not give a valid answer", slog.String("example", e.name),
		slog.String("source", e.source), slog.String("problem", why))
}

// declaredMedia is the media type of a response that an answer's media
// type falls under, or nil.
func declaredMedia(resp *spec.Response, media string) *spec.MediaType {
	if resp == nil || media == "" {
		return nil
	}
	key, ok := contract.MatchMediaType(media, mediaNames(resp.Content))
	if !ok {
		return nil
	}
	return mediaNamed(resp.Content, key)
}

// invalidAnswer checks an answer's body against its media type's schema
// and says what is wrong, or "" when it is valid.
func (s *Server) invalidAnswer(x *Exchange, mt *spec.MediaType, v any) string {
	if x.op == nil {
		return ""
	}
	return x.op.invalid(mt, v)
}

// completeExample completes an inline example object that lacks members
// its schema requires (GitHub's validation-error examples write the
// message and leave out the required documentation_url): the members it
// lacks are generated, those it writes kept. It leaves the example as it
// is when that does not make it valid. Only a spec's own examples are
// completed: an example file that breaks its spec is its author's to fix.
func (s *Server) completeExample(x *Exchange, e *example, mt *spec.MediaType, status int) {
	body, ok := e.staticBody.(map[string]any)
	if !ok || mt == nil || mt.Schema == nil || x.op == nil {
		return
	}
	sc, err := x.op.api.schemas.Compile(mt.Schema, mt.SchemaSource)
	if err != nil {
		return
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s", s.opts.Seed, e.source, e.name)
	gen, err := sc.Generate(schema.NewGenerator(h.Sum64()), schema.Response)
	if err != nil {
		return
	}
	full := overlay(gen, body)
	if s.invalidAnswer(x, mt, full) != "" {
		return
	}
	s.opts.Logger.Info("example completed: the members its schema requires and it lacks are generated", slog.String("example", e.name),
		slog.String("source", e.source), slog.String("problem", e.invalid))
	e.staticBody, e.invalid = full, ""
}

// invalidRaw checks a body written as text (an XML document, a CSV
// file) as the contract reads it, and says what is wrong, or "" when it
// is valid or not the contract's to read (binary content, an undeclared
// status).
func (s *Server) invalidRaw(x *Exchange, e *example, status int) string {
	if x.op == nil || e.response == nil || declaredMedia(e.response, e.media) == nil {
		return ""
	}
	h := http.Header{"Content-Type": {e.media}}
	for _, p := range x.op.api.contract.CheckResponse(x.op.op, &contract.Response{Status: status, Header: h, Body: e.raw}) {
		if p.In == contract.InBody || p.In == contract.InContentType {
			return p.Message
		}
	}
	return ""
}

// overlay writes v over base: objects member by member, anything else
// replaced.
func overlay(base, v any) any {
	bm, ok1 := base.(map[string]any)
	vm, ok2 := v.(map[string]any)
	if !ok1 || !ok2 {
		return v
	}
	out := make(map[string]any, len(bm)+len(vm))
	for k, x := range bm {
		out[k] = x
	}
	for k, x := range vm {
		out[k] = overlay(bm[k], x)
	}
	return out
}

// generated is an answer generated from a response's schema, kept for the
// operation, status and media type: the same request gets the same
// answer, so it is drawn and encoded once.
type generated struct {
	once   sync.Once
	answer *Answer
	prob   *httpx.Problem
}

// generate builds an answer from the response's schema: a valid value,
// the same for the same seed, operation, status and media type unless
// dynamic.
func (s *Server) generate(x *Exchange, resp *spec.Response, status int, dynamic bool) (*Answer, *httpx.Problem) {
	return s.generateAs(x, resp, pickMedia(resp, x.Request.Header.Get("Accept")), status, dynamic)
}

// generateAs is generate in the media type mt (nil: no body).
func (s *Server) generateAs(x *Exchange, resp *spec.Response, mt *spec.MediaType, status int, dynamic bool) (*Answer, *httpx.Problem) {
	if status == 0 {
		status = http.StatusOK
	}
	x.op.usage.generated.Add(1)
	if dynamic {
		return s.draw(x, resp, mt, status, true)
	}
	key := strconv.Itoa(status)
	if mt != nil {
		key += " " + mt.Name
	}
	c, _ := x.op.answers.LoadOrStore(key, &generated{})
	g := c.(*generated)
	g.once.Do(func() {
		g.answer, g.prob = s.draw(x, resp, mt, status, false)
		if g.answer != nil && g.answer.MediaType != "" && g.answer.Raw == nil {
			body, ct, err := s.encode(x, status, g.answer.MediaType, g.answer.Body)
			if err != nil {
				g.answer, g.prob = nil, problems.New(http.StatusInternalServerError, kindInternal, fmt.Sprintf("%s: encoding the answer as %s: %v", x.op, g.answer.MediaType, err))
				return
			}
			g.answer.Raw, g.answer.MediaType = body, ct
		}
	})
	if g.prob != nil {
		return nil, g.prob
	}
	a := *g.answer
	a.Header = a.Header.Clone()
	if a.Header == nil {
		a.Header = http.Header{}
	}
	return &a, nil
}

// draw generates an answer's body and required headers.
func (s *Server) draw(x *Exchange, resp *spec.Response, mt *spec.MediaType, status int, dynamic bool) (*Answer, *httpx.Problem) {
	a := &Answer{Status: status, Header: http.Header{}, Example: "generated"}
	if mt != nil {
		a.MediaType = mt.Name
		if mt.Schema != nil {
			sc, err := x.op.api.schemas.Compile(mt.Schema, mt.SchemaSource)
			if err != nil {
				return nil, problems.New(http.StatusInternalServerError, kindInternal, fmt.Sprintf("%s: the response schema does not compile: %v", x.op, err))
			}
			v, err := sc.Generate(s.generator(x.op, status, mt.Name, dynamic), schema.Response)
			if err != nil {
				return nil, problems.New(http.StatusInternalServerError, kindInternal, fmt.Sprintf("%s: no value satisfies the response schema: %v", x.op, err))
			}
			a.Body = v
		} else if body, ok := unschemaed(mt.Name); ok {
			a.Body = body
		} else {
			a.Raw = body.([]byte)
		}
	}
	s.fillHeaders(x, resp, a, dynamic)
	return a, nil
}

// unschemaed is the body of a media type declared without a schema, which
// takes any body but an empty one: an empty object for JSON and
// multipart, a field for a form, an empty root element for XML, a word
// for anything else. ok
// is false for a media type no codec can be chosen for (a content key
// such as "PDF"): the bytes are then sent as they are.
func unschemaed(media string) (body any, ok bool) {
	if _, _, err := mime.ParseMediaType(media); err != nil {
		return []byte("specgate"), false
	}
	m := strings.ToLower(media)
	switch {
	case isJSON(m), strings.HasPrefix(m, "multipart/"):
		return map[string]any{}, true
	case strings.HasPrefix(m, "application/x-www-form-urlencoded"):
		return map[string]any{"specgate": "specgate"}, true
	case isXML(m):
		return "", true
	}
	return []byte("specgate"), true
}

// fillHeaders generates the response's required headers that the answer
// does not set.
func (s *Server) fillHeaders(x *Exchange, resp *spec.Response, a *Answer, dynamic bool) {
	if resp == nil || x.op == nil {
		return
	}
	for _, h := range resp.Headers {
		if !h.Required || a.Header.Get(h.Name) != "" || strings.EqualFold(h.Name, "Content-Type") || h.Schema == nil {
			continue
		}
		sc, err := x.op.api.schemas.Compile(h.Schema, h.SchemaSource)
		if err != nil {
			continue
		}
		v, err := sc.Generate(s.generator(x.op, a.Status, "header "+h.Name, dynamic), schema.Response)
		if err != nil {
			continue
		}
		a.Header.Set(h.Name, headerText(v))
	}
}

// headerText writes a header value in the simple style: arrays joined
// by commas, objects as name,value pairs.
func headerText(v any) string {
	switch t := v.(type) {
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = scalarText(x)
		}
		return strings.Join(parts, ",")
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(t)) {
			parts = append(parts, k, scalarText(t[k]))
		}
		return strings.Join(parts, ",")
	}
	return scalarText(v)
}

// render sends an answer: its delay (and the server's), status, headers
// and body encoded for its media type.
func (s *Server) render(w http.ResponseWriter, r *http.Request, x *Exchange, a *Answer) {
	if a.Problem != nil {
		httpx.WriteProblem(w, r, a.Problem)
		return
	}
	httpx.LogAttrs(r.Context(), slog.String("example", a.Example))
	if p := a.Refused; p != nil {
		httpx.LogAttrs(r.Context(), slog.String("problem", p.Kind()), slog.String("detail", p.Detail))
		if len(p.Errors) > 0 {
			httpx.LogAttrs(r.Context(), slog.Any("errors", p.Errors))
		}
		w.Header().Set(ProblemHeader, problemHeaderValue(p))
	}
	if d := s.opts.Delay + a.Delay; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	h := w.Header()
	for k, v := range a.Header {
		h[k] = v
	}
	var body []byte
	switch {
	case a.Raw != nil:
		body = a.Raw
	case a.MediaType != "":
		b, ct, err := s.encode(x, a.Status, a.MediaType, a.Body)
		if err != nil {
			httpx.WriteProblem(w, r, problems.New(http.StatusInternalServerError, kindInternal, fmt.Sprintf("%s: encoding the answer as %s: %v", x.op, a.MediaType, err)))
			return
		}
		body, a.MediaType = b, ct
	}
	if a.MediaType != "" && body != nil {
		h.Set("Content-Type", a.MediaType)
	}
	if body != nil {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(a.Status)
	if body != nil && r.Method != http.MethodHead && bodyAllowed(a.Status) {
		_, _ = w.Write(body)
	}
}

// encode writes an answer's body in its media type: by the contract's
// codecs (JSON, XML by the schema's xml names, forms, multipart, text,
// bytes) when the operation declares that media type for the status, so
// that the mock writes a body as the tester reads it; else (an undeclared
// 4xx example, a 405 example of no operation) a string or bytes as they
// are and anything else as JSON.
func (s *Server) encode(x *Exchange, status int, media string, v any) ([]byte, string, error) {
	if x != nil && x.op != nil {
		if resp := contract.ResponseFor(x.op.op, status); resp != nil && declaredMedia(resp, media) != nil {
			return x.op.api.contract.EncodeResponse(x.op.op, status, media, v)
		}
	}
	if strings.Contains(media, "*") {
		media = "application/json"
	}
	switch b := v.(type) {
	case []byte:
		return b, media, nil
	case string:
		if !isJSON(media) {
			return []byte(b), media, nil
		}
	case json.RawMessage:
		return b, media, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, "", err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), media, nil
}

func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}
