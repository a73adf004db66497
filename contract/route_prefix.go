package contract

import (
	"net/url"
	"strings"

	"github.com/specgate/specgate/spec"
)

// prefix is one path prefix under which operations are served.
type prefix struct {
	text string // the prefix as a template, "" for the root
	segs []tseg
}

// match reports how many of the request's segments the prefix takes.
func (p *prefix) match(segs []string) (int, bool) {
	if len(p.segs) > len(segs) {
		return 0, false
	}
	var buf [4]string
	for i := range p.segs {
		s := &p.segs[i]
		if s.vars == 0 {
			if segs[i] != s.key {
				return 0, false
			}
			continue
		}
		if _, ok := matchParts(s.parts, segs[i], buf[:0], s.enums); !ok {
			return 0, false
		}
	}
	return len(p.segs), true
}

// serverPrefix returns the path of a server URL as a prefix template
// ("/v1", "/{version}/api"; "" for the root), and the same with its
// variables replaced by their defaults.
func serverPrefix(s *spec.Server) (template, withDefaults string) {
	u := s.URL
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		j := strings.IndexByte(u, '/')
		if j < 0 {
			return "", ""
		}
		u = u[j:]
	} else if strings.HasPrefix(u, "//") {
		u = u[2:]
		j := strings.IndexByte(u, '/')
		if j < 0 {
			return "", ""
		}
		u = u[j:]
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimPrefix(u, ".")
	if !strings.HasPrefix(u, "/") {
		u = "/" + u
	}
	u = strings.TrimRight(u, "/")
	template = u
	vars := s.Node.Get("variables")
	withDefaults = u
	for _, f := range vars.ObjectFields() {
		withDefaults = strings.ReplaceAll(withDefaults, "{"+f.Key+"}", strings.Trim(f.Value.GetStr("default"), "/"))
	}
	return template, strings.TrimRight(withDefaults, "/")
}

// ServerURL is the URL of the document's first server that is an absolute
// http(s) URL with a host once its variables take their defaults (Swagger
// 2.0's host and basePath count), without trailing slashes: where the
// document says it is served, called by contract tests and workflows when
// no base URL is given. "" when no server is such a URL.
func ServerURL(doc *spec.Document) string {
	for _, s := range doc.Views().Servers {
		text := s.URL
		for _, f := range s.Node.Get("variables").ObjectFields() {
			text = strings.ReplaceAll(text, "{"+f.Key+"}", f.Value.GetStr("default"))
		}
		u, err := url.Parse(text)
		if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !strings.ContainsAny(u.Host, "{}") {
			return strings.TrimRight(text, "/")
		}
	}
	return ""
}

// newPrefix parses a prefix template; variables of a server are limited to
// their enum when it declares one.
func newPrefix(text string, vars *spec.Node) *prefix {
	p := &prefix{text: text}
	if text == "" {
		return p
	}
	p.segs = parseTemplate(text)
	for i := range p.segs {
		s := &p.segs[i]
		if s.vars == 0 {
			continue
		}
		for _, part := range s.parts {
			if !part.isVar {
				continue
			}
			var enum []string
			if e := vars.Get(part.name).Get("enum"); e != nil && e.Kind == spec.Array {
				for _, it := range e.Items {
					enum = append(enum, it.Value)
				}
			}
			s.enums = append(s.enums, enum)
		}
	}
	return p
}
