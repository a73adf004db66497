package input

import (
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/internal/lazyregexp"
	"github.com/specgate/specgate/spec"
)

// pathItems are the path items under paths, each with the segments of
// its path (naming.path_segments) and its shape (templates as "{}");
// users indexes the items by segment, {segment: [i]}, each item once per
// segment, in order. The naming rules judge a segment once: a large API's
// paths repeat a few hundred spellings over thousands of segments.
func (c *converter) pathItems(items []*spec.PathItem) (list, users *ast.Term) {
	out := make([]*ast.Term, len(items))
	index := map[string][]*ast.Term{}
	var order []string
	for i, p := range items {
		methods := make([]string, len(p.Operations))
		for j, op := range p.Operations {
			methods[j] = op.Method
		}
		segs := pathSegments(p.Path)
		shape := make([]string, len(segs))
		for j, seg := range segs {
			shape[j] = seg
			if strings.Contains(seg, "{") {
				shape[j] = pathTemplate().ReplaceAllString(seg, "{}")
			}
		}
		out[i] = c.obj(c.kv("path", c.str(p.Path)), c.kv("segments", c.strs(segs)), c.kv("shape", c.strs(shape)),
			c.kv("methods", c.strs(methods)), c.kv("node", c.node(p.Node)), c.kv("source", c.path(p.Source)))
		for j, seg := range segs {
			if slices.Contains(segs[:j], seg) {
				continue
			}
			if _, ok := index[seg]; !ok {
				order = append(order, seg)
			}
			index[seg] = append(index[seg], ast.InternedTerm(i))
		}
	}
	pairs := make([][2]*ast.Term, len(order))
	for i, seg := range order {
		pairs[i] = c.kv(seg, ast.ArrayTerm(index[seg]...))
	}
	return ast.ArrayTerm(out...), ast.ObjectTerm(pairs...)
}

var (
	// afterPath is what naming.path_segments cuts from a path: a query
	// or a fragment (written as Rego's regex.replace reads it).
	afterPath = lazyregexp.New(`[?#].*$`)
	// pathTemplate is a path template, which a shape writes as "{}".
	pathTemplate = lazyregexp.New(`\{[^{}]*\}`)
)

// pathSegments are the non-empty segments of a path template, up to any
// query or fragment (naming.path_segments).
func pathSegments(path string) []string {
	if strings.ContainsAny(path, "?#") {
		path = afterPath().ReplaceAllString(path, "")
	}
	var out []string
	for seg := range strings.SplitSeq(path, "/") {
		if seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

func (c *converter) operations(ops []*spec.Operation) *ast.Term {
	return list(ops, c.operation)
}

func (c *converter) operation(op *spec.Operation) *ast.Term {
	rb := ast.NullTerm()
	if op.RequestBody != nil {
		b := op.RequestBody
		rb = c.obj(c.kv("required", boolTerm(b.Required)), c.kv("description", c.str(b.Description)),
			c.kv("content", c.mediaTypes(b.Content)), c.kv("formData", c.parameters(b.FormData)),
			c.kv("node", c.node(b.Node)), c.kv("source", c.path(b.Source)))
	}
	responses := list(op.Responses, func(r *spec.Response) *ast.Term {
		headers := list(r.Headers, func(h *spec.Header) *ast.Term {
			return c.obj(c.kv("name", c.str(h.Name)), c.kv("required", boolTerm(h.Required)),
				c.kv("schema", c.node(h.Schema)), c.kv("schemaSource", c.path(h.SchemaSource)),
				c.kv("node", c.node(h.Node)), c.kv("source", c.path(h.Source)))
		})
		return c.obj(c.kv("status", c.str(r.Status)), c.kv("description", c.str(r.Description)),
			c.kv("content", c.mediaTypes(r.Content)), c.kv("headers", headers),
			c.kv("node", c.node(r.Node)), c.kv("source", c.path(r.Source)))
	})
	return c.obj(
		c.kv("path", c.str(op.Path)), c.kv("method", c.str(op.Method)),
		c.kv("operationId", c.str(op.OperationID)), c.kv("summary", c.str(op.Summary)),
		c.kv("description", c.str(op.Description)), c.kv("tags", c.strs(op.Tags)),
		c.kv("deprecated", boolTerm(op.Deprecated)),
		c.kv("parameters", c.parameters(op.Parameters)), c.kv("requestBody", rb),
		c.kv("responses", responses), c.kv("security", c.security(op.Security)),
		c.kv("servers", c.servers(op.Servers)),
		c.kv("webhook", c.str(op.Webhook)), c.kv("callback", c.str(op.Callback)),
		c.kv("node", c.node(op.Node)), c.kv("source", c.path(op.Source)),
	)
}

func (c *converter) mediaTypes(mts []*spec.MediaType) *ast.Term {
	return list(mts, func(m *spec.MediaType) *ast.Term {
		return c.obj(c.kv("mediaType", c.str(m.Name)), c.kv("schema", c.node(m.Schema)),
			c.kv("schemaSource", c.path(m.SchemaSource)), c.kv("node", c.node(m.Node)), c.kv("source", c.path(m.Source)))
	})
}

// parameters converts parameters; a parameter that several operations
// share (a path item's, or a $ref'd one) is one value.
func (c *converter) parameters(ps []*spec.Parameter) *ast.Term {
	return list(ps, func(p *spec.Parameter) *ast.Term {
		t, ok := c.params[p]
		if !ok {
			t, ok = c.parent.params[p]
		}
		if !ok {
			t = c.obj(c.kv("name", c.str(p.Name)), c.kv("in", c.str(p.In)), c.kv("required", boolTerm(p.Required)),
				c.kv("schema", c.node(p.Schema)), c.kv("schemaSource", c.path(p.SchemaSource)),
				c.kv("component", c.str(p.Component)), c.kv("node", c.node(p.Node)), c.kv("source", c.path(p.Source)))
			c.params[p] = t
		}
		return t
	})
}

// queryParameters are the distinct query parameters of ops, in the order
// they are first met: the pagination rules look for page parameters among
// them, and operations mostly share a few dozen distinct ones.
func queryParameters(ops []*spec.Operation) []*spec.Parameter {
	var out []*spec.Parameter
	seen := map[*spec.Parameter]bool{}
	for _, op := range ops {
		for _, p := range op.Parameters {
			if p.In == "query" && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

func (c *converter) securitySchemes(ss []*spec.SecurityScheme) *ast.Term {
	return list(ss, func(s *spec.SecurityScheme) *ast.Term {
		return c.obj(c.kv("name", c.str(s.Name)), c.kv("type", c.str(s.Type)), c.kv("scheme", c.str(s.Scheme)),
			c.kv("in", c.str(s.In)), c.kv("paramName", c.str(s.ParamName)), c.kv("bearerFormat", c.str(s.BearerFormat)),
			c.kv("node", c.node(s.Node)), c.kv("source", c.path(s.Source)))
	})
}

func (c *converter) security(s *spec.Security) *ast.Term {
	if s == nil {
		return ast.NullTerm()
	}
	alts := list(s.Alternatives, func(a spec.SecurityAlternative) *ast.Term {
		schemes := list(a.Schemes, func(ss spec.SchemeScopes) *ast.Term {
			return c.obj(c.kv("name", c.str(ss.Name)), c.kv("scopes", c.strs(ss.Scopes)))
		})
		return c.obj(c.kv("schemes", schemes), c.kv("source", c.path(a.Source)))
	})
	return c.obj(c.kv("alternatives", alts), c.kv("source", c.path(s.Source)))
}

func (c *converter) servers(ss []*spec.Server) *ast.Term {
	return list(ss, func(s *spec.Server) *ast.Term {
		return c.obj(c.kv("url", c.str(s.URL)), c.kv("description", c.str(s.Description)),
			c.kv("node", c.node(s.Node)), c.kv("source", c.path(s.Source)))
	})
}

func (c *converter) tags(ts []*spec.Tag) *ast.Term {
	return list(ts, func(t *spec.Tag) *ast.Term {
		return c.obj(c.kv("name", c.str(t.Name)), c.kv("description", c.str(t.Description)),
			c.kv("node", c.node(t.Node)), c.kv("source", c.path(t.Source)))
	})
}

func (c *converter) messageNames(ms []*spec.Message) *ast.Term {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return c.strs(names)
}

func (c *converter) channels(chs []*spec.Channel) *ast.Term {
	return list(chs, func(ch *spec.Channel) *ast.Term {
		return c.obj(c.kv("id", c.str(ch.ID)), c.kv("address", c.str(ch.Address)),
			c.kv("messages", c.messageNames(ch.Messages)), c.kv("node", c.node(ch.Node)), c.kv("source", c.path(ch.Source)))
	})
}

func (c *converter) asyncOperations(ops []*spec.AsyncOperation) *ast.Term {
	return list(ops, func(op *spec.AsyncOperation) *ast.Term {
		return c.obj(c.kv("id", c.str(op.ID)), c.kv("action", c.str(op.Action)), c.kv("channel", c.str(op.Channel)),
			c.kv("summary", c.str(op.Summary)), c.kv("description", c.str(op.Description)),
			c.kv("messages", c.messageNames(op.Messages)), c.kv("security", c.security(op.Security)),
			c.kv("node", c.node(op.Node)), c.kv("source", c.path(op.Source)))
	})
}

func (c *converter) messages(ms []*spec.Message) *ast.Term {
	return list(ms, func(m *spec.Message) *ast.Term {
		return c.obj(c.kv("name", c.str(m.Name)), c.kv("payload", c.node(m.Payload)),
			c.kv("payloadSource", c.path(m.PayloadSource)), c.kv("node", c.node(m.Node)), c.kv("source", c.path(m.Source)))
	})
}
