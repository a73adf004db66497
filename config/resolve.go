package config

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
