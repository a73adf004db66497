package config

import (
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// resolver decodes a version 3 tree into a Config.
type resolver struct {
	decoder
	root *spec.Node
	dir  string
}

var (
	topKeys       = []string{"version", "systemUnderTest", "dependencies", "components", "specgate"}
	componentKeys = []string{"sources", "services", "runOptions", "examples", "settings"}
	specgateKeys  = []string{"settings", "data", "report", "insights"}
	entryKeys     = []string{"service", "runOptions", "data", "settings"}
	runKeys       = []string{"mtlsEnabled", "openapi"}
	targetKeys    = []string{"baseUrl", "scheme", "host", "port", "basePath"}
	openapiKeys   = append([]string{"type"}, append(slices.Clone(targetKeys), "cert", "filter", "specs")...)
	specOptKeys   = append([]string{"id", "path"}, append(slices.Clone(targetKeys), "securitySchemes", "filter")...)
	certKeys      = []string{"certFile", "keyFile", "caFile", "insecureSkipVerify"}
	settingsKeys  = []string{"strictMode", "test", "mock"}
	testKeys      = []string{"resiliencyTests", "timeoutInMilliseconds", "retry"}
	mockKeys      = []string{"delayInMilliseconds", "generative", "lenient", "startTimeoutInMilliseconds"}
)

func (r *resolver) config() *Config {
	cfg := &Config{}
	r.object(r.root, "", "the configuration", topKeys...)
	r.strict = r.strictMode()
	cfg.StrictMode = r.strict
	r.components()

	global := settingsPatch{}
	var gdata dataPatch
	cfg.Report = Report{Dir: filepath.Join(r.dir, "build", "reports", "specgate"), Formats: []string{"ctrf", "html"}}
	if sg := r.root.Get("specgate"); sg != nil && r.object(sg, "/specgate", "specgate", specgateKeys...) {
		if n := sg.Get("settings"); n != nil {
			global = r.settings(n, "/specgate/settings", true)
		}
		if n := sg.Get("data"); n != nil {
			gdata = r.data(n, "/specgate/data")
		}
		if n := sg.Get("report"); n != nil {
			r.report(n, "/specgate/report", &cfg.Report)
		}
		if n := sg.Get("insights"); n != nil && r.object(n, "/specgate/insights", "specgate.insights", "url") {
			if u := n.Get("url"); u != nil {
				cfg.Insights.URL, _ = r.httpURL(u, "/specgate/insights/url", "insights url")
			}
		}
	}
	cfg.Settings = defaultSettings()
	global.apply(&cfg.Settings)
	cfg.Data = Data{Examples: gdata.examples, Dictionary: gdata.dict, DictionaryFile: gdata.dictFile}

	if sut := r.root.Get("systemUnderTest"); sut != nil {
		cfg.Tests = r.tests(sut, "/systemUnderTest", cfg)
	}
	if deps := r.root.Get("dependencies"); deps != nil && r.object(deps, "/dependencies", "dependencies", "services") {
		if svcs := deps.Get("services"); svcs != nil {
			r.list(svcs, "/dependencies/services", "dependencies.services", func(_ int, it *spec.Node, ptr string) {
				cfg.Mocks = append(cfg.Mocks, r.mocks(it, ptr, cfg)...)
			})
		}
	}
	return cfg
}

// strictMode reads specgate.settings.strictMode (through a $ref) before
// anything else: it decides how every template expands. It must be a
// boolean written as such; settings() reports any other value.
func (r *resolver) strictMode() bool {
	n := r.root.Get("specgate").Get("settings")
	for hops := 0; hops < 16 && n.Ref() != ""; hops++ {
		name, ok := strings.CutPrefix(n.Ref(), "#/components/settings/")
		if !ok {
			return false
		}
		n = r.root.Get("components").Get("settings").Get(unescape(name))
	}
	return n.Get("strictMode").IsTrue()
}

// components checks every entry under components, used or not.
func (r *resolver) components() {
	comps := r.root.Get("components")
	if comps == nil || !r.object(comps, "/components", "components", componentKeys...) {
		return
	}
	for _, f := range comps.Fields {
		ptr := join("/components", f.Key)
		if !slices.Contains(componentKeys, f.Key) {
			continue
		}
		if f.Value.Kind != spec.Object {
			r.errorf(f.Value, ptr, "components.%s must be a mapping of names, found %s", f.Key, found(f.Value))
			continue
		}
		for _, c := range f.Value.Fields {
			p := join(ptr, c.Key)
			switch f.Key {
			case "sources":
				r.source(c.Value, p)
			case "services":
				r.service(c.Value, p)
			case "runOptions":
				r.runOptions(c.Value, p)
			case "examples":
				r.exampleDirs(c.Value, p)
			case "settings":
				r.settings(c.Value, p, true)
			}
		}
	}
}

// deref follows n while it is {$ref: "#/components/KIND/NAME"}, returning
// the target, its pointer and its name ("" when n is written inline).
func (r *resolver) deref(n *spec.Node, ptr, kind string) (*spec.Node, string, string, bool) {
	var seen []string
	name := ""
	for n.Kind == spec.Object && n.Get("$ref") != nil {
		ref := n.Get("$ref")
		for _, f := range n.Fields {
			if f.Key != "$ref" {
				r.errorAt(f.KeyRange.Start, join(ptr, f.Key), "a $ref stands alone: %q beside it is not read; write it in the referenced block", f.Key)
			}
		}
		if ref.Kind != spec.String {
			r.errorf(ref, join(ptr, "$ref"), "$ref must be a string, found %s", found(ref))
			return nil, "", "", false
		}
		prefix := "#/components/" + kind + "/"
		target, ok := strings.CutPrefix(ref.Value, prefix)
		if !ok || target == "" || strings.Contains(target, "/") {
			r.errorf(ref, join(ptr, "$ref"), "$ref must point to a block under components.%s (%sNAME), found %q", kind, prefix, ref.Value)
			return nil, "", "", false
		}
		if slices.Contains(seen, ref.Value) {
			r.errorf(ref, join(ptr, "$ref"), "$ref cycle: %s → %s", strings.Join(seen, " → "), ref.Value)
			return nil, "", "", false
		}
		seen = append(seen, ref.Value)
		name = unescape(target)
		blocks := r.root.Get("components").Get(kind)
		next := blocks.Get(name)
		if next == nil {
			var names []string
			if blocks != nil {
				for _, f := range blocks.Fields {
					names = append(names, f.Key)
				}
			}
			hint := suggest.Hint(name, names)
			if hint == "" && len(names) > 0 {
				hint = " (there are: " + strings.Join(names, ", ") + ")"
			}
			r.errorf(ref, join(ptr, "$ref"), "$ref %q: there is no %q under components.%s%s", ref.Value, name, kind, hint)
			return nil, "", "", false
		}
		n, ptr = next, join(join("/components", kind), name)
	}
	return n, ptr, name, true
}

func unescape(s string) string { return strings.NewReplacer("~1", "/", "~0", "~").Replace(s) }

// source is where a service's specs are read from.
type source struct {
	git *Git
	dir string // absolute folder of local specs
}

func (r *resolver) source(n *spec.Node, ptr string) (source, bool) {
	n, ptr, _, ok := r.deref(n, ptr, "sources")
	if !ok || !r.object(n, ptr, "a source", "git", "filesystem") {
		return source{}, false
	}
	g, fs := n.Get("git"), n.Get("filesystem")
	switch {
	case g != nil && fs != nil:
		r.errorf(n, ptr, "a source is git or filesystem, not both")
	case g != nil:
		p := join(ptr, "git")
		if !r.object(g, p, "a git source", "url", "branch") || !r.require(g, p, "the git source", "url") {
			return source{}, false
		}
		src := source{git: &Git{}}
		src.git.URL, ok = r.str(g.Get("url"), join(p, "url"), "url")
		if b := g.Get("branch"); b != nil {
			src.git.Branch, _ = r.str(b, join(p, "branch"), "branch")
		}
		return src, ok
	case fs != nil:
		p := join(ptr, "filesystem")
		if !r.object(fs, p, "a filesystem source", "directory") {
			return source{}, false
		}
		src := source{dir: r.dir}
		if d := fs.Get("directory"); d != nil {
			s, ok := r.str(d, join(p, "directory"), "directory")
			if !ok {
				return source{}, false
			}
			src.dir = r.abs(s)
		}
		return src, true
	default:
		r.errorf(n, ptr, "a source needs git: {url, branch} or filesystem: {directory}")
	}
	return source{}, false
}

func (r *resolver) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(r.dir, filepath.FromSlash(p))
}

// service reads a service's specs.
func (r *resolver) service(n *spec.Node, ptr string) (string, []*Spec, bool) {
	n, ptr, name, ok := r.deref(n, ptr, "services")
	if !ok || !r.object(n, ptr, "a service", "description", "definitions") || !r.require(n, ptr, "the service", "definitions") {
		return "", nil, false
	}
	if d := n.Get("description"); d != nil {
		r.str(d, join(ptr, "description"), "description")
	}
	var specs []*Spec
	ids := map[string]*Spec{}
	r.list(n.Get("definitions"), join(ptr, "definitions"), "definitions", func(_ int, it *spec.Node, p string) {
		if !r.object(it, p, "a definition", "definition") || !r.require(it, p, "the item", "definition") {
			return
		}
		def, p := it.Get("definition"), join(p, "definition")
		if !r.object(def, p, "a definition", "source", "specs") || !r.require(def, p, "the definition", "specs") {
			return
		}
		src := source{dir: r.dir}
		if s := def.Get("source"); s != nil {
			if src, ok = r.source(s, join(p, "source")); !ok {
				return
			}
		}
		r.list(def.Get("specs"), join(p, "specs"), "specs", func(_ int, it *spec.Node, p string) {
			s := r.specDecl(it, p, src)
			if s == nil {
				return
			}
			if prev := ids[s.ID]; prev != nil {
				r.errorAt(s.At, s.Pointer, "spec id %q is used twice in the service (first at line %d)", s.ID, prev.At.Line)
				return
			}
			ids[s.ID] = s
			specs = append(specs, s)
		})
	})
	return name, specs, true
}

// specDecl reads one entry of a definition's specs: a path, or
// {spec: {id, path}}.
func (r *resolver) specDecl(n *spec.Node, ptr string, src source) *Spec {
	s := &Spec{File: r.file, At: n.Range.Start, Pointer: ptr, Git: src.git}
	var pathNode *spec.Node
	pathPtr := ptr
	switch n.Kind {
	case spec.String:
		pathNode = n
	case spec.Object:
		if !r.object(n, ptr, "a spec entry", "spec") || !r.require(n, ptr, "the spec entry", "spec") {
			return nil
		}
		sp, p := n.Get("spec"), join(ptr, "spec")
		if !r.object(sp, p, "a spec", "id", "path") || !r.require(sp, p, "the spec", "path") {
			return nil
		}
		if id := sp.Get("id"); id != nil {
			var ok bool
			if s.ID, ok = r.str(id, join(p, "id"), "id"); !ok {
				return nil
			}
		}
		pathNode, pathPtr = sp.Get("path"), join(p, "path")
	default:
		r.errorf(n, ptr, "a spec entry must be a path or {spec: {id, path}}, found %s", found(n))
		return nil
	}
	written, ok := r.str(pathNode, pathPtr, "path")
	if !ok {
		return nil
	}
	s.writtenPath = written
	if s.ID == "" {
		s.ID = written
	}
	if src.git != nil {
		s.Path = filepath.ToSlash(filepath.Clean(filepath.FromSlash(written)))
		return s
	}
	if filepath.IsAbs(written) {
		s.Path = filepath.Clean(written)
	} else {
		s.Path = filepath.Join(src.dir, filepath.FromSlash(written))
	}
	if st, err := os.Stat(s.Path); err != nil || st.IsDir() {
		what := "does not exist"
		if err == nil {
			what = "is a directory"
		}
		r.errorf(pathNode, pathPtr, "spec %s %s", written, what)
		return nil
	}
	return s
}

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
			all := Target{Scheme: pu.Scheme, Host: pu.Hostname(), BasePath: strings.TrimSuffix(pu.Path, "/")}
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
				v = strings.TrimSuffix(v, "/")
				t.basePath = &v
			}
		}
	}
	return t
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

// settingsPatch holds the settings a block writes; nil fields are unset.
type settingsPatch struct {
	resiliency                            *Resiliency
	timeout, maxRetryDelay, delay, startT *time.Duration
	maxAttempts                           *int
	generative, lenient                   *bool
}

func (p settingsPatch) apply(s *Settings) {
	set(&s.Test.Resiliency, p.resiliency)
	set(&s.Test.Timeout, p.timeout)
	set(&s.Test.MaxAttempts, p.maxAttempts)
	set(&s.Test.MaxRetryDelay, p.maxRetryDelay)
	set(&s.Mock.Delay, p.delay)
	set(&s.Mock.Generative, p.generative)
	set(&s.Mock.Lenient, p.lenient)
	set(&s.Mock.StartTimeout, p.startT)
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// settings reads a settings block; global is whether it is the file's own
// (specgate.settings), where alone strictMode may be.
func (r *resolver) settings(n *spec.Node, ptr string, global bool) settingsPatch {
	var p settingsPatch
	n, ptr, _, ok := r.deref(n, ptr, "settings")
	if !ok || !r.object(n, ptr, "settings", settingsKeys...) {
		return p
	}
	if f := n.Field("strictMode"); f != nil {
		switch {
		case !global:
			r.errorAt(f.KeyRange.Start, join(ptr, "strictMode"), "strictMode applies to the whole file: set it in specgate.settings")
		case f.Value.Kind != spec.Bool:
			r.errorf(f.Value, join(ptr, "strictMode"), "strictMode must be true or false written as such (it decides how templates expand), found %s", found(f.Value))
		}
	}
	ms := func(n *spec.Node, ptr, what string) *time.Duration {
		v, ok := r.integer(n, ptr, what)
		if !ok {
			return nil
		}
		d := time.Duration(v) * time.Millisecond
		return &d
	}
	if t := n.Get("test"); t != nil {
		tp := join(ptr, "test")
		if r.object(t, tp, "test settings", testKeys...) {
			if rt := t.Get("resiliencyTests"); rt != nil {
				rp := join(tp, "resiliencyTests")
				if r.object(rt, rp, "resiliencyTests", "enable") && r.require(rt, rp, "resiliencyTests", "enable") {
					if v, ok := r.enum(rt.Get("enable"), join(rp, "enable"), "resiliencyTests.enable", string(ResiliencyNone), string(ResiliencyPositive), string(ResiliencyAll)); ok {
						res := Resiliency(v)
						p.resiliency = &res
					}
				}
			}
			if v := t.Get("timeoutInMilliseconds"); v != nil {
				p.timeout = ms(v, join(tp, "timeoutInMilliseconds"), "timeoutInMilliseconds")
			}
			if rt := t.Get("retry"); rt != nil {
				rp := join(tp, "retry")
				if r.object(rt, rp, "retry", "maxAttempts", "maxDelayInMilliseconds") {
					if v := rt.Get("maxAttempts"); v != nil {
						if a, ok := r.integer(v, join(rp, "maxAttempts"), "maxAttempts"); ok {
							if a < 1 {
								r.errorf(v, join(rp, "maxAttempts"), "maxAttempts must be at least 1, found %d", a)
							} else {
								p.maxAttempts = &a
							}
						}
					}
					if v := rt.Get("maxDelayInMilliseconds"); v != nil {
						p.maxRetryDelay = ms(v, join(rp, "maxDelayInMilliseconds"), "maxDelayInMilliseconds")
					}
				}
			}
		}
	}
	if m := n.Get("mock"); m != nil {
		mp := join(ptr, "mock")
		if r.object(m, mp, "mock settings", mockKeys...) {
			if v := m.Get("delayInMilliseconds"); v != nil {
				p.delay = ms(v, join(mp, "delayInMilliseconds"), "delayInMilliseconds")
			}
			if v := m.Get("startTimeoutInMilliseconds"); v != nil {
				p.startT = ms(v, join(mp, "startTimeoutInMilliseconds"), "startTimeoutInMilliseconds")
			}
			for _, k := range []string{"generative", "lenient"} {
				if v := m.Get(k); v != nil {
					if b, ok := r.boolean(v, join(mp, k), k); ok {
						if k == "generative" {
							p.generative = &b
						} else {
							p.lenient = &b
						}
					}
				}
			}
		}
	}
	return p
}

// dataPatch are example directories and a dictionary as written.
type dataPatch struct {
	examples []string
	dict     map[string]any
	dictFile string
}

func (r *resolver) data(n *spec.Node, ptr string) dataPatch {
	var d dataPatch
	if !r.object(n, ptr, "data", "examples", "dictionary") {
		return d
	}
	if ex := n.Get("examples"); ex != nil {
		r.list(ex, join(ptr, "examples"), "examples", func(_ int, it *spec.Node, p string) {
			d.examples = append(d.examples, r.exampleDirs(it, p)...)
		})
	}
	if dict := n.Get("dictionary"); dict != nil {
		p := join(ptr, "dictionary")
		switch dict.Kind {
		case spec.Object:
			d.dict, _ = r.value(dict, p).(map[string]any)
		case spec.String:
			if s, ok := r.str(dict, p, "dictionary"); ok {
				d.dictFile = r.abs(s)
				d.dict = r.dictionaryFile(dict, p, s, d.dictFile)
			}
		default:
			r.errorf(dict, p, "dictionary must be a mapping of values or the path of a JSON or YAML file, found %s", found(dict))
		}
	}
	return d
}

// dictionaryFile reads a dictionary file. Its strings are data, read as
// written: templates are a notation of the configuration, not of its data.
func (r *resolver) dictionaryFile(at *spec.Node, ptr, written, file string) map[string]any {
	data, err := os.ReadFile(file)
	if err != nil {
		r.errorf(at, ptr, "dictionary %s cannot be read: %v", written, unwrapPath(err))
		return nil
	}
	root, err := spec.Parse(filepath.Join(filepath.Dir(r.file), filepath.FromSlash(written)), data, spec.DefaultLimits())
	if err != nil {
		if se, ok := err.(*spec.Error); ok {
			r.errs = append(r.errs, se)
		} else {
			r.errorf(at, ptr, "dictionary %s: %v", written, err)
		}
		return nil
	}
	if root.Kind != spec.Object {
		r.errorf(at, ptr, "dictionary %s must hold a mapping, found %s", written, found(root))
		return nil
	}
	plain := decoder{getenv: func(string) string { return "" }}
	m, _ := plain.rawValue(root).(map[string]any)
	return m
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// rawValue converts a node into a JSON value without expanding templates.
func (d *decoder) rawValue(n *spec.Node) any {
	switch n.Kind {
	case spec.String:
		return n.Value
	case spec.Object:
		m := make(map[string]any, len(n.Fields))
		for _, f := range n.Fields {
			m[f.Key] = d.rawValue(f.Value)
		}
		return m
	case spec.Array:
		s := make([]any, len(n.Items))
		for i, it := range n.Items {
			s[i] = d.rawValue(it)
		}
		return s
	}
	return d.value(n, "")
}

// exampleDirs reads {directories: [...]} (or a $ref to one under
// components.examples) as absolute folders; a missing folder is a warning.
func (r *resolver) exampleDirs(n *spec.Node, ptr string) []string {
	n, ptr, _, ok := r.deref(n, ptr, "examples")
	if !ok || !r.object(n, ptr, "examples", "directories") || !r.require(n, ptr, "the examples entry", "directories") {
		return nil
	}
	var out []string
	r.list(n.Get("directories"), join(ptr, "directories"), "directories", func(_ int, it *spec.Node, p string) {
		s, ok := r.str(it, p, "each directory")
		if !ok {
			return
		}
		dir := r.abs(s)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			r.warnf(it, p, "examples directory %s does not exist", s)
		}
		out = append(out, dir)
	})
	return out
}

func (r *resolver) report(n *spec.Node, ptr string, rep *Report) {
	if !r.object(n, ptr, "specgate.report", "dir", "formats") {
		return
	}
	if d := n.Get("dir"); d != nil {
		if s, ok := r.str(d, join(ptr, "dir"), "dir"); ok {
			rep.Dir = r.abs(s)
		}
	}
	if f := n.Get("formats"); f != nil {
		var formats []string
		r.list(f, join(ptr, "formats"), "formats", func(_ int, it *spec.Node, p string) {
			if s, ok := r.enum(it, p, "each format", ReportFormats...); ok {
				formats = append(formats, s)
			}
		})
		rep.Formats = formats
	}
}

// entry is a systemUnderTest or dependencies.services item, read.
type entry struct {
	service  string
	specs    []*Spec
	run      *runOpts
	data     dataPatch
	settings settingsPatch
}

func (r *resolver) entry(n *spec.Node, ptr, what string) (*entry, bool) {
	if !r.object(n, ptr, what, entryKeys...) || !r.require(n, ptr, what, "service") {
		return nil, false
	}
	e := &entry{run: &runOpts{}}
	var ok bool
	if e.service, e.specs, ok = r.service(n.Get("service"), join(ptr, "service")); !ok {
		return nil, false
	}
	if ro := n.Get("runOptions"); ro != nil {
		if e.run, ok = r.runOptions(ro, join(ptr, "runOptions")); !ok {
			return nil, false
		}
	}
	if d := n.Get("data"); d != nil {
		e.data = r.data(d, join(ptr, "data"))
	}
	if s := n.Get("settings"); s != nil {
		e.settings = r.settings(s, join(ptr, "settings"), false)
	}
	return e, true
}

// perSpec matches the run options of specs to the service's specs.
func (r *resolver) perSpec(e *entry) map[*Spec]*specOpts {
	out := map[*Spec]*specOpts{}
	for _, so := range e.run.specs {
		var match *Spec
		var names []string
		for _, s := range e.specs {
			written := s.ID
			if so.path != "" {
				written = s.writtenPath
			}
			names = append(names, written)
			if (so.id != "" && s.ID == so.id) || (so.path != "" && written == so.path) {
				match = s
			}
		}
		if match == nil {
			by, v := "id", so.id
			if so.path != "" {
				by, v = "path", so.path
			}
			hint := suggest.Hint(v, names)
			if hint == "" && len(names) > 0 {
				hint = " (it has: " + strings.Join(names, ", ") + ")"
			}
			r.errorf(so.node, so.ptr, "run options name the spec with %s %q, which the service does not have%s", by, v, hint)
			continue
		}
		if out[match] != nil {
			r.errorf(so.node, so.ptr, "spec %q has run options twice", match.ID)
			continue
		}
		out[match] = so
	}
	return out
}

// effective copies a spec with its run options applied.
func effective(s *Spec, so *specOpts, filter *string) *Spec {
	c := *s
	if filter != nil {
		c.Filter = *filter
	}
	if so != nil {
		c.Security = so.security
		if so.filter != nil {
			c.Filter = *so.filter
		}
	}
	return &c
}

func (r *resolver) mtlsCheck(ro *runOpts, t Target, forTest bool) {
	if ro.mtls == nil {
		return
	}
	if ro.tls.CertFile == "" {
		what := "a client certificate"
		if !forTest {
			what = "a server certificate"
		}
		r.errorf(ro.mtls, ro.mtlsPtr, "mtlsEnabled needs %s: set runOptions.openapi.cert.certFile and keyFile", what)
	}
	if t.Scheme == "http" {
		r.errorf(ro.mtls, ro.mtlsPtr, "mtlsEnabled needs an https address, found %s", t.URL())
	}
}

func (r *resolver) tests(n *spec.Node, ptr string, cfg *Config) []*Test {
	e, ok := r.entry(n, ptr, "systemUnderTest")
	if !ok {
		return nil
	}
	if e.run.typ != "" && e.run.typ != "test" {
		r.errorf(e.run.typNode, e.run.typPtr, "the system under test runs as type test, found %q (mocks go under dependencies.services)", e.run.typ)
	}
	settings := cfg.Settings
	e.settings.apply(&settings)
	examples := append(slices.Clone(e.data.examples), cfg.Data.Examples...)
	dict := overlay(cfg.Data.Dictionary, e.data.dict)
	opts := r.perSpec(e)
	base := e.run.target.apply(Target{})
	if base.Host == "" && (base.Port != 0 || base.Scheme != "" || base.BasePath != "") {
		base.Host = "localhost"
	}
	if base.Host != "" && base.Scheme == "" {
		base.Scheme = "http"
	}
	var tests []*Test
	for _, s := range e.specs {
		so := opts[s]
		t := &Test{Service: e.service, Spec: effective(s, so, e.run.filter), Target: base, TLS: e.run.tls,
			Examples: examples, Dictionary: dict, Settings: settings.Test}
		if so != nil && !so.target.empty() {
			t.Target = so.target.apply(base)
			if t.Target.Host == "" {
				t.Target.Host = "localhost"
			}
			if t.Target.Scheme == "" {
				t.Target.Scheme = "http"
			}
		}
		r.mtlsCheck(e.run, t.Target, true)
		tests = append(tests, t)
	}
	return tests
}

func (r *resolver) mocks(n *spec.Node, ptr string, cfg *Config) []*Mock {
	e, ok := r.entry(n, ptr, "a dependency")
	if !ok {
		return nil
	}
	typ := Stateless
	if e.run.typ == "test" {
		r.errorf(e.run.typNode, e.run.typPtr, "a dependency runs as type mock or stateful-mock, found \"test\" (the service to test goes under systemUnderTest)")
	} else if e.run.typ != "" {
		typ = MockType(e.run.typ)
	}
	settings := cfg.Settings
	e.settings.apply(&settings)
	examples := append(slices.Clone(e.data.examples), cfg.Data.Examples...)
	dict := overlay(cfg.Data.Dictionary, e.data.dict)
	opts := r.perSpec(e)
	base := e.run.target.apply(Target{Scheme: "http", Host: DefaultMockHost, Port: DefaultMockPort})
	if e.run.target.all != nil && base.Port == 0 {
		base.Port = map[string]int{"http": 80, "https": 443}[base.Scheme]
	}
	var out []*Mock
	byTarget := map[Target]*Mock{}
	for _, s := range e.specs {
		so := opts[s]
		t := base
		if so != nil && !so.target.empty() {
			t = so.target.apply(base)
		}
		m := byTarget[t]
		if m == nil {
			m = &Mock{Service: e.service, Type: typ, Target: t, TLS: e.run.tls, Examples: examples, Dictionary: dict, Settings: settings.Mock}
			byTarget[t] = m
			out = append(out, m)
			r.mtlsCheck(e.run, t, false)
		}
		m.Specs = append(m.Specs, effective(s, so, e.run.filter))
	}
	return out
}

// overlay is base with the keys of top replacing its own; nil when both
// are empty.
func overlay(base, top map[string]any) map[string]any {
	if len(top) == 0 {
		return base
	}
	if len(base) == 0 {
		return top
	}
	m := maps.Clone(base)
	maps.Copy(m, top)
	return m
}
