package config

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/specgate/specgate/spec"
)

// targetPatch is an address as written: a baseUrl, or some of its parts.
type targetPatch struct {
	all      *Target // from baseUrl
	scheme   *string
	host     *string
	port     *int
	basePath *string
}

func (t targetPatch) apply(base Target) Target {
	if t.all != nil {
		return *t.all
	}
	if t.scheme != nil {
		base.Scheme = *t.scheme
	}
	if t.host != nil {
		base.Host = *t.host
	}
	if t.port != nil {
		base.Port = *t.port
	}
	if t.basePath != nil {
		base.BasePath = *t.basePath
	}
	return base
}

func (t targetPatch) empty() bool {
	return t.all == nil && t.scheme == nil && t.host == nil && t.port == nil && t.basePath == nil
}

// target reads baseUrl or its parts from n.
func (r *resolver) target(n *spec.Node, ptr string) targetPatch {
	var t targetPatch
	if b := n.Field("baseUrl"); b != nil {
		for _, k := range targetKeys[1:] {
			if f := n.Field(k); f != nil {
				r.errorAt(f.KeyRange.Start, join(ptr, k), "give baseUrl or its parts (scheme, host, port, basePath), not both: %s is also in baseUrl", k)
			}
		}
		if u, ok := r.httpURL(b.Value, join(ptr, "baseUrl"), "baseUrl"); ok {
			pu, _ := url.Parse(u)
			all := Target{Scheme: pu.Scheme, Host: pu.Hostname(), BasePath: basePath(pu.Path)}
			if p := pu.Port(); p != "" {
				fmt.Sscan(p, &all.Port)
			}
			t.all = &all
		}
		return t
	}
	if s := n.Get("scheme"); s != nil {
		if v, ok := r.enum(s, join(ptr, "scheme"), "scheme", "http", "https"); ok {
			t.scheme = &v
		}
	}
	if h := n.Get("host"); h != nil {
		if v, ok := r.str(h, join(ptr, "host"), "host"); ok {
			if v == "" || strings.ContainsAny(v, "/?#@ \t\r\n") {
				r.errorf(h, join(ptr, "host"), "host must be a host name or IP address, found %q", v)
			} else {
				v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
				t.host = &v
			}
		}
	}
	if p := n.Get("port"); p != nil {
		if v, ok := r.integer(p, join(ptr, "port"), "port"); ok {
			if v > 65535 {
				r.errorf(p, join(ptr, "port"), "port must be at most 65535, found %d", v)
			} else {
				t.port = &v
			}
		}
	}
	if b := n.Get("basePath"); b != nil {
		if v, ok := r.str(b, join(ptr, "basePath"), "basePath"); ok {
			if v != "" && !strings.HasPrefix(v, "/") {
				r.errorf(b, join(ptr, "basePath"), "basePath must start with /, found %q", v)
			} else {
				v = basePath(v)
				t.basePath = &v
			}
		}
	}
	return t
}

// basePath is a written path prefix as a Target keeps it: without its
// trailing slashes, so that "/v1/" joined with an operation's /pets is
// /v1/pets, but a lone "/" stays: the service is mounted at the root, and
// its tests and mocks use the bare paths, as with --testBaseURL http://svc/
// or mock --prefix /. An empty path is no prefix (the spec's servers say).
func basePath(p string) string {
	if t := strings.TrimRight(p, "/"); t != "" || p == "" {
		return t
	}
	return "/"
}

// httpURL reads an absolute http(s) URL.
func (r *resolver) httpURL(n *spec.Node, ptr, what string) (string, bool) {
	s, ok := r.str(n, ptr, what)
	if !ok {
		return "", false
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		r.errorf(n, ptr, "%s is not a URL: %v", what, err)
	case u.Scheme != "http" && u.Scheme != "https":
		r.errorf(n, ptr, "%s must be an http or https URL, found %q", what, s)
	case u.Host == "":
		r.errorf(n, ptr, "%s has no host: %q", what, s)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		r.errorf(n, ptr, "%s must not have a query, fragment or user: %q", what, s)
	default:
		return s, true
	}
	return "", false
}

// runOpts are run options as written.
type runOpts struct {
	typ     string
	typNode *spec.Node
	typPtr  string
	target  targetPatch
	tls     TLS
	mtls    *spec.Node // the mtlsEnabled value, when true
	mtlsPtr string
	filter  *string
	specs   []*specOpts
}

// specOpts are the run options of one spec, found by id or path.
type specOpts struct {
	id, path string
	node     *spec.Node
	ptr      string
	target   targetPatch
	security []*Credential
	filter   *string
}

func (r *resolver) runOptions(n *spec.Node, ptr string) (*runOpts, bool) {
	n, ptr, _, ok := r.deref(n, ptr, "runOptions")
	if !ok || !r.object(n, ptr, "runOptions", runKeys...) {
		return nil, false
	}
	ro := &runOpts{}
	if m := n.Get("mtlsEnabled"); m != nil {
		if on, ok := r.boolean(m, join(ptr, "mtlsEnabled"), "mtlsEnabled"); ok && on {
			ro.mtls, ro.mtlsPtr = m, join(ptr, "mtlsEnabled")
			ro.tls.MTLS = true
		}
	}
	oa := n.Get("openapi")
	if oa == nil {
		return ro, true
	}
	ptr = join(ptr, "openapi")
	if !r.object(oa, ptr, "runOptions.openapi", openapiKeys...) {
		return ro, false
	}
	if t := oa.Get("type"); t != nil {
		ro.typ, _ = r.enum(t, join(ptr, "type"), "type", "test", string(Stateless), string(Stateful))
		ro.typNode, ro.typPtr = t, join(ptr, "type")
	}
	ro.target = r.target(oa, ptr)
	if c := oa.Get("cert"); c != nil {
		p := join(ptr, "cert")
		if r.object(c, p, "cert", certKeys...) {
			for _, k := range certKeys[:3] {
				if f := c.Get(k); f != nil {
					if s, ok := r.str(f, join(p, k), k); ok {
						file := r.abs(s)
						if st, err := os.Stat(file); err != nil || st.IsDir() {
							r.errorf(f, join(p, k), "%s %s is not a readable file", k, s)
						}
						switch k {
						case "certFile":
							ro.tls.CertFile = file
						case "keyFile":
							ro.tls.KeyFile = file
						default:
							ro.tls.CAFile = file
						}
					}
				}
			}
			if f := c.Get("insecureSkipVerify"); f != nil {
				ro.tls.InsecureSkipVerify, _ = r.boolean(f, join(p, "insecureSkipVerify"), "insecureSkipVerify")
			}
			if (ro.tls.CertFile == "") != (ro.tls.KeyFile == "") {
				r.errorf(c, p, "cert needs both certFile and keyFile, or neither")
			}
		}
	}
	if f := oa.Get("filter"); f != nil {
		if s, ok := r.str(f, join(ptr, "filter"), "filter"); ok {
			ro.filter = &s
		}
	}
	if ss := oa.Get("specs"); ss != nil {
		r.list(ss, join(ptr, "specs"), "specs", func(_ int, it *spec.Node, p string) {
			if so := r.specOptions(it, p); so != nil {
				ro.specs = append(ro.specs, so)
			}
		})
	}
	return ro, true
}

func (r *resolver) specOptions(n *spec.Node, ptr string) *specOpts {
	if !r.object(n, ptr, "a spec's run options", "spec") || !r.require(n, ptr, "the entry", "spec") {
		return nil
	}
	sp, ptr := n.Get("spec"), join(ptr, "spec")
	if !r.object(sp, ptr, "a spec's run options", specOptKeys...) {
		return nil
	}
	so := &specOpts{node: sp, ptr: ptr}
	id, path := sp.Get("id"), sp.Get("path")
	switch {
	case id != nil && path != nil:
		r.errorf(sp, ptr, "a spec's run options name the spec by id or by path, not both")
		return nil
	case id != nil:
		so.id, _ = r.str(id, join(ptr, "id"), "id")
	case path != nil:
		so.path, _ = r.str(path, join(ptr, "path"), "path")
	default:
		r.errorf(sp, ptr, "a spec's run options need the id (or the path) of a spec of the service")
		return nil
	}
	so.target = r.target(sp, ptr)
	if f := sp.Get("filter"); f != nil {
		if s, ok := r.str(f, join(ptr, "filter"), "filter"); ok {
			so.filter = &s
		}
	}
	if ss := sp.Get("securitySchemes"); ss != nil {
		p := join(ptr, "securitySchemes")
		if ss.Kind != spec.Object {
			r.errorf(ss, p, "securitySchemes must be a mapping of scheme names, found %s", found(ss))
		} else {
			for _, f := range ss.Fields {
				if c := r.credential(f, join(p, f.Key)); c != nil {
					so.security = append(so.security, c)
				}
			}
		}
	}
	return so
}

func (r *resolver) credential(f spec.Field, ptr string) *Credential {
	n := f.Value
	what := fmt.Sprintf("security scheme %q", f.Key)
	if !r.object(n, ptr, what, "type", "token") || !r.require(n, ptr, what, "type", "token") {
		return nil
	}
	c := &Credential{Scheme: f.Key, At: f.KeyRange.Start, Pointer: ptr}
	typ, ok := r.enum(n.Get("type"), join(ptr, "type"), "type", schemeTypes...)
	if !ok {
		return nil
	}
	// A token that does not expand is an error of its own; the scheme's
	// name and type are still checked against the spec (Check).
	c.Type = SchemeType(typ)
	c.Token, _ = r.str(n.Get("token"), join(ptr, "token"), "token")
	return c
}
