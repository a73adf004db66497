package mock

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// fromExample builds the answer of an example, its request's values
// echoed where the example's response names them.
func (s *Server) fromExample(ex *Exchange, e *example) (*Answer, *httpx.Problem) {
	if e.usage != nil {
		e.usage.hits.Add(1)
	}
	status := e.status
	if status == 0 {
		status = http.StatusOK
	}
	a := &Answer{Status: status, Header: http.Header{}, Example: e.name, Delay: e.delay}
	for k, v := range e.headers {
		a.Header.Set(k, echoText(v, ex))
	}
	if e.raw != nil {
		a.Raw, a.MediaType = e.raw, e.media
		return a, nil
	}
	if e.hasBody {
		a.Body = echo(e.body, ex)
		a.MediaType = e.media
		if a.MediaType == "" {
			if mt := pickMedia(e.response, ex.Request.Header.Get("Accept")); mt != nil {
				a.MediaType = mt.Name
			} else {
				a.MediaType = "application/json"
			}
		}
	}
	s.fillHeaders(ex, e.response, a, false)
	return a, nil
}

// generate builds an answer from the response's schema: a valid value,
// the same for the same seed, operation, status and media type unless
// dynamic.
func (s *Server) generate(ex *Exchange, resp *spec.Response, status int, dynamic bool) (*Answer, *httpx.Problem) {
	if status == 0 {
		status = http.StatusOK
	}
	ex.op.usage.generated.Add(1)
	a := &Answer{Status: status, Header: http.Header{}, Example: "generated"}
	if mt := pickMedia(resp, ex.Request.Header.Get("Accept")); mt != nil {
		a.MediaType = mt.Name
		if mt.Schema != nil {
			sc, err := ex.op.api.schemas.Compile(mt.Schema, mt.SchemaSource)
			if err != nil {
				return nil, problems.New(http.StatusInternalServerError, kindInternal, fmt.Sprintf("%s: the response schema does not compile: %v", ex.op, err))
			}
			v, err := sc.Generate(schema.NewGenerator(s.seedFor(ex.op, status, mt.Name, dynamic)), schema.Response)
			if err != nil {
				return nil, problems.New(http.StatusInternalServerError, kindInternal, fmt.Sprintf("%s: no value satisfies the response schema: %v", ex.op, err))
			}
			a.Body = v
		} else {
			a.Body = map[string]any{}
		}
	}
	s.fillHeaders(ex, resp, a, dynamic)
	return a, nil
}

// fillHeaders generates the response's required headers that the answer
// does not set.
func (s *Server) fillHeaders(ex *Exchange, resp *spec.Response, a *Answer, dynamic bool) {
	if resp == nil {
		return
	}
	for _, h := range resp.Headers {
		if !h.Required || a.Header.Get(h.Name) != "" || strings.EqualFold(h.Name, "Content-Type") || h.Schema == nil {
			continue
		}
		sc, err := ex.op.api.schemas.Compile(h.Schema, h.SchemaSource)
		if err != nil {
			continue
		}
		v, err := sc.Generate(schema.NewGenerator(s.seedFor(ex.op, a.Status, "header "+h.Name, dynamic)), schema.Response)
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
		for k, x := range t {
			parts = append(parts, k, scalarText(x))
		}
		return strings.Join(parts, ",")
	}
	return scalarText(v)
}

// render sends an answer: its delay (and the server's), status, headers
// and body encoded for its media type.
func (s *Server) render(w http.ResponseWriter, r *http.Request, ex *Exchange, a *Answer) {
	httpx.LogAttrs(r.Context(), slog.String("example", a.Example))
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
		b, ct, err := encodeBody(ex, a.MediaType, a.Body)
		if err != nil {
			httpx.WriteProblem(w, r, problems.New(http.StatusInternalServerError, kindInternal, fmt.Sprintf("%s: encoding the answer as %s: %v", ex.op, a.MediaType, err)))
			return
		}
		body = b
		if ct != "" {
			a.MediaType = ct
		}
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

func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// encodeBody writes a value in a media type: JSON for JSON types, the
// text itself for text types.
func encodeBody(ex *Exchange, media string, v any) ([]byte, string, error) {
	if isJSON(media) {
		b, err := json.Marshal(v)
		return b, "", err
	}
	if s, ok := v.(string); ok {
		return []byte(s), "", nil
	}
	b, err := json.Marshal(v)
	return b, "", err
}
