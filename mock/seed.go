package mock

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"

	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// SeedReport says what seeding the stateful mock's stores did: how many
// resources the examples gave, and the examples left out, with why.
type SeedReport struct {
	Seeded  int        `json:"seeded"`
	Skipped []SeedSkip `json:"skipped,omitempty"`
}

// SeedSkip is an example that seeded nothing.
type SeedSkip struct {
	Example string `json:"example"`
	Source  string `json:"source"` // file:line:col where it is written
	Reason  string `json:"reason"`
}

// initState seeds the stores from the examples, keeps that state for
// DELETE /_specgate/state, and then reads the state file when there is
// one. A state file that cannot be read (corrupt) or written (its folder
// is not writable, or missing) keeps the mock from starting: found at
// shutdown, it would lose the state.
func (s *Server) initState(gen *generation) error {
	st := s.state
	for _, a := range gen.apis {
		st.of(a.stateKey)
	}
	st.seeding = s.seed(gen)
	st.seeded = st.snapshot(false)
	for _, sk := range st.seeding.Skipped {
		s.opts.Logger.Warn("example not seeded", slog.String("example", sk.Example), slog.String("source", sk.Source), slog.String("reason", sk.Reason))
	}
	s.opts.Logger.Info("state seeded from the examples", slog.Int("resources", st.seeding.Seeded), slog.Int("skipped", len(st.seeding.Skipped)))
	if st.file == "" {
		return nil
	}
	if err := st.checkWritable(); err != nil {
		return &LoadError{Errs: []error{err}}
	}
	data, err := os.ReadFile(st.file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // the first run: the seeded state, saved on shutdown
	case err != nil:
		return &LoadError{Errs: []error{fmt.Errorf("%s: the state file cannot be read: %w", st.file, err)}}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return &LoadError{Errs: []error{fmt.Errorf("%s: reading the state file: %w", st.file, err)}}
	}
	warnings, err := st.readFile(data, cwd)
	if err != nil {
		return &LoadError{Errs: []error{err}}
	}
	for _, w := range warnings {
		s.opts.Logger.Warn(w, slog.String("file", st.file))
	}
	s.opts.Logger.Info("state read", slog.String("file", st.file))
	return nil
}

// seed fills the stores from the examples that answer 2xx to a GET or a
// POST of a collection with JSON objects valid for the spec: a list's
// items, a read's resource, a create's request and response bodies
// together. Examples with notations are left out and reported, as are
// those whose bodies do not fit.
func (s *Server) seed(gen *generation) SeedReport {
	var rep SeedReport
	for _, a := range gen.apis {
		st := s.state.of(a.stateKey)
		st.mu.Lock()
		for _, op := range a.ops {
			c := op.crud
			if c == nil || c.role != roleList && c.role != roleRead && c.role != roleCreate {
				continue
			}
			for _, e := range op.examples {
				if e.status < 200 || e.status > 299 || e.body == nil {
					continue
				}
				n, why := s.seedExample(op, c, st, e)
				if why != "" {
					rep.Skipped = append(rep.Skipped, SeedSkip{Example: e.name, Source: e.source, Reason: why})
				}
				rep.Seeded += n
			}
		}
		st.mu.Unlock()
	}
	return rep
}

// seedExample stores what one example gives; why says why it gives
// nothing.
func (s *Server) seedExample(op *operation, c *crud, st *store, e *example) (int, string) {
	if !e.static || e.request != nil && requestHasNotations(e) || c.role == roleCreate && e.ex.Request != nil && examples.HasNotations(e.ex.Request.Body) {
		return 0, "it holds notations (captures, lookups, templates or matchers): its values are not known before a request"
	}
	body := e.staticBody
	mt := declaredMedia(e.response, e.media)
	if mt == nil || !isJSON(mt.Name) {
		return 0, "its response is not JSON"
	}
	if msg := op.invalid(mt, body); msg != "" {
		return 0, "its response does not fit the spec: " + msg
	}
	var items []any
	switch c.role {
	case roleList:
		list, ok := body.([]any)
		if c.list.items != "" {
			if m, isObj := body.(map[string]any); isObj {
				list, ok = m[c.list.items].([]any)
			}
		}
		if !ok {
			return 0, "its response holds no list of resources"
		}
		items = list
	case roleCreate:
		req, _ := examples.Literalize(requestBody(e)).(map[string]any)
		resp, ok := body.(map[string]any)
		if !ok {
			return 0, "its response is not a JSON object"
		}
		items = []any{overlay(req, resp)}
	default:
		items = []any{body}
	}
	parents := examplePathParams(e)
	coll := st.collection(c.collection)
	t := typer{op.api.doc}
	n := 0
	for i, it := range items {
		v, ok := it.(map[string]any)
		if !ok {
			return n, fmt.Sprintf("item %d of its response is not a JSON object", i)
		}
		id, has := v[c.idField]
		if !has && c.role == roleRead {
			if text, ok := parents[c.idParam]; ok {
				id, has = t.coerce(t.property(c.resource, c.idField, 0), text, 0), true
			}
		}
		if !has || id == nil {
			v = overlay(v, map[string]any{}).(map[string]any)
			id = s.state.drawID(op.api.stateKey, c.collection, coll, c.idKind)
			v[c.idField] = id
		}
		r := &resource{ID: scalarText(id), Parents: map[string]string{}, Value: v}
		for _, p := range c.parents {
			if text, ok := parents[p]; ok {
				r.Parents[p] = text
			} else if f, ok := v[p]; ok {
				r.Parents[p] = scalarText(f)
			}
		}
		if coll.taken(r.ID, r.Parents) != nil {
			continue // the first example that gives an id keeps it
		}
		coll.put(r)
		n++
	}
	return n, ""
}

func requestHasNotations(e *example) bool {
	for _, p := range e.request.params {
		if examples.HasNotations(p.value) {
			return true
		}
	}
	return e.request.body != nil && examples.HasNotations(e.request.body)
}

// requestBody is the body an example's request writes, or nil.
func requestBody(e *example) examples.Value {
	if e.ex == nil || e.ex.Request == nil {
		return nil
	}
	return e.ex.Request.Body
}

// examplePathParams are the path parameters of an example's request, as
// text.
func examplePathParams(e *example) map[string]string {
	out := map[string]string{}
	if e.ex != nil && e.ex.Request != nil {
		for _, p := range e.ex.Request.PathParams {
			if lit, ok := p.Value.(*examples.Literal); ok {
				out[p.Name] = scalarText(lit.Value)
			}
		}
	}
	if e.request != nil {
		for _, p := range e.request.params {
			if p.in != "path" {
				continue
			}
			if lit, ok := p.value.(*examples.Literal); ok {
				out[p.name] = scalarText(lit.Value)
			}
		}
	}
	return out
}

// invalid checks a body against a media type's schema and says what is
// wrong, or "" when it is valid.
func (op *operation) invalid(mt *spec.MediaType, v any) string {
	if mt == nil || mt.Schema == nil {
		return ""
	}
	sc, err := op.api.schemas.Compile(mt.Schema, mt.SchemaSource)
	if err != nil {
		return ""
	}
	if probs := sc.Validate(v, schema.Response); len(probs) > 0 {
		return strings.TrimSpace(probs[0].String())
	}
	return ""
}
