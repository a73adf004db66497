package config

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// Version 2 is the legacy, contract-list shape: contracts name a source and
// the specs the service provides (to test) and consumes (to mock), beside
// global examples and test and stub settings. It is read by rewriting its
// tree as version 3 (upgradeTree), which both loading and `config upgrade`
// use, so that a version 2 file and its upgrade resolve alike.

var (
	v2Keys         = []string{"version", "contracts", "examples", "strictMode", "test", "stub", "report"}
	v2Unsupported  = []string{"auth", "pipeline", "environments", "hooks", "sources", "license"}
	v2ContractKeys = []string{"git", "filesystem", "provides", "consumes"}
	v2GroupKeys    = append([]string{"specs", "type"}, targetKeys...)
	v2SpecKeys     = []string{"id", "path", "securitySchemes"}
	v2StubKeys     = []string{"delayInMilliseconds", "generative", "strictMode", "startTimeoutInMilliseconds"}
)

// upgrader builds the version 3 tree of a version 2 file. Values move
// as they are, with their positions, so that the version 3 decoder reports
// problems where they are written and `config upgrade` keeps their comments.
type upgrader struct {
	decoder
	sources  []spec.Field
	names    map[string]bool
	sut      *service3
	plain    *service3 // the mock of plain consumes entries
	mocks    []*service3
	keyRange map[string]spec.Range // of the V2 keys that become V3 keys
}

// service3 is a version 3 service being built, with its run options.
type service3 struct {
	name     string
	defs     []*spec.Node
	run      []spec.Field // runOptions.openapi
	specOpts []*spec.Node
}

func upgradeTree(file string, root *spec.Node) (*spec.Node, []*spec.Error) {
	u := &upgrader{decoder: decoder{file: file}, names: map[string]bool{}, keyRange: map[string]spec.Range{}}
	u.index(root)
	for _, f := range root.Fields {
		switch {
		case slices.Contains(v2Unsupported, f.Key):
			u.errorAt(f.KeyRange.Start, "", "specgate does not read the legacy key %q: remove it", f.Key)
		case !slices.Contains(v2Keys, f.Key):
			u.errorAt(f.KeyRange.Start, "", "unknown key %q in the configuration (version 2)%s", f.Key, suggest.Hint(f.Key, v2Keys))
		}
	}
	if c := root.Get("contracts"); c != nil {
		u.keyRange["contracts"] = root.Field("contracts").KeyRange
		u.list(c, "", "contracts", func(i int, it *spec.Node, _ string) { u.contract(i, it) })
	}
	if st := root.Get("stub"); st != nil && u.object(st, "", "stub settings", v2StubKeys...) {
		if sm := st.Get("strictMode"); sm != nil && sm.Kind != spec.Bool {
			u.errorf(sm, "", "strictMode must be a boolean (true or false), found %s", found(sm))
		}
	}
	if len(u.errs) > 0 {
		return nil, u.errs
	}
	return u.tree(root), nil
}

func (u *upgrader) contract(i int, n *spec.Node) {
	if !u.object(n, "", "a contract", v2ContractKeys...) {
		return
	}
	var src *spec.Node // a $ref to the source, nil for the file's folder
	g, fs := n.Field("git"), n.Field("filesystem")
	switch {
	case g != nil && fs != nil:
		u.errorf(n, "", "a contract's source is git or filesystem, not both")
		return
	case g != nil || fs != nil:
		f := g
		if f == nil {
			f = fs
		}
		name := u.sourceName(f)
		u.sources = append(u.sources, spec.Field{Key: name, KeyRange: f.KeyRange, Value: object(*f)})
		src = ref("sources", name)
	}
	if p := n.Field("provides"); p != nil {
		if u.sut == nil {
			u.sut = &service3{name: "systemUnderTest"}
			u.keyRange["provides"] = p.KeyRange
		}
		u.list(p.Value, "", "provides", func(_ int, it *spec.Node, _ string) {
			u.entry(u.sut, it, src, "provides", false)
		})
	}
	if c := n.Field("consumes"); c != nil {
		if _, ok := u.keyRange["consumes"]; !ok {
			u.keyRange["consumes"] = c.KeyRange
		}
		u.list(c.Value, "", "consumes", func(_ int, it *spec.Node, _ string) {
			if it.Kind == spec.String {
				if u.plain == nil {
					u.plain = &service3{name: "mock"}
					u.mocks = append(u.mocks, u.plain)
				}
				u.entry(u.plain, it, src, "consumes", true)
				return
			}
			s := &service3{name: "mock" + strconv.Itoa(len(u.mocks)+1)}
			if u.entry(s, it, src, "consumes", true) {
				u.mocks = append(u.mocks, s)
			}
		})
	}
}

var nameChars = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// sourceName names a source after its repository or folder.
func (u *upgrader) sourceName(f *spec.Field) string {
	base := "local"
	if f.Key == "git" {
		base = "git"
		if s := f.Value.GetStr("url"); s != "" {
			base = strings.TrimSuffix(path.Base(strings.TrimRight(s, "/")), ".git")
		}
	} else if d := f.Value.GetStr("directory"); d != "" && path.Base(d) != "." {
		base = path.Base(d)
	}
	base = nameChars.ReplaceAllString(base, "-")
	if base == "" || base == "-" {
		base = "source"
	}
	name := base
	for i := 2; u.names[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	u.names[name] = true
	return name
}

// entry adds one provides or consumes item to a service: a path, or a group
// {specs, baseUrl or its parts, type} whose specs are paths or
// {spec: {id, path, securitySchemes}}.
func (u *upgrader) entry(s *service3, n, src *spec.Node, what string, mock bool) bool {
	var specs []*spec.Node
	var target []spec.Field
	switch n.Kind {
	case spec.String:
		specs = []*spec.Node{n}
	case spec.Object:
		keys := v2GroupKeys
		if !mock {
			keys = append([]string{"specs"}, targetKeys...)
		}
		if !u.object(n, "", "a "+what+" entry", keys...) || !u.require(n, "", "the "+what+" entry", "specs") {
			return false
		}
		specsNode := n.Get("specs")
		if specsNode.Kind != spec.Array {
			u.errorf(specsNode, "", "specs must be a list, found %s", found(specsNode))
			return false
		}
		specs = specsNode.Items
		for _, f := range n.Fields {
			if f.Key != "specs" {
				target = append(target, f)
			}
		}
	default:
		u.errorf(n, "", "a %s entry must be a spec path or {specs: [...], baseUrl: ...}, found %s", what, found(n))
		return false
	}
	var list []*spec.Node
	for _, it := range specs {
		decl, opts := u.spec(it, target, mock)
		if decl == nil {
			continue
		}
		list = append(list, decl)
		if opts != nil {
			s.specOpts = append(s.specOpts, opts)
		}
	}
	if mock && n.Kind == spec.Object {
		// A group of consumes is a mock service of its own: its address
		// and type are the service's.
		s.run = target
	}
	def := []spec.Field{}
	if src != nil {
		def = append(def, field("source", src))
	}
	def = append(def, field("specs", &spec.Node{Kind: spec.Array, Items: list}))
	s.defs = append(s.defs, object(field("definition", object(def...))))
	return true
}

// spec reads one spec of a group: its declaration in the definition, and its
// run options (a group's address, its credentials) when it has any.
func (u *upgrader) spec(n *spec.Node, target []spec.Field, mock bool) (decl, opts *spec.Node) {
	var sel spec.Field
	var extra []spec.Field
	switch n.Kind {
	case spec.String:
		decl = n
		sel = field("path", n)
	case spec.Object:
		if !u.object(n, "", "a spec entry", "spec") || !u.require(n, "", "the spec entry", "spec") {
			return nil, nil
		}
		sp := n.Get("spec")
		if !u.object(sp, "", "a spec", v2SpecKeys...) || !u.require(sp, "", "the spec", "path") {
			return nil, nil
		}
		var declFields []spec.Field
		for _, f := range sp.Fields {
			switch f.Key {
			case "id", "path":
				declFields = append(declFields, f)
			case "securitySchemes":
				extra = append(extra, f)
			}
		}
		decl = &spec.Node{Kind: spec.Object, Range: n.Range, Fields: []spec.Field{{Key: "spec", KeyRange: n.Field("spec").KeyRange, Value: &spec.Node{Kind: spec.Object, Range: sp.Range, Fields: declFields}}}}
		if id := sp.Field("id"); id != nil {
			sel = *id
		} else {
			sel = *sp.Field("path")
		}
	default:
		u.errorf(n, "", "a spec entry must be a path or {spec: {id, path, securitySchemes}}, found %s", found(n))
		return nil, nil
	}
	if mock {
		target = nil // a mock group's address is its service's
	}
	if len(target) == 0 && len(extra) == 0 {
		return decl, nil
	}
	fields := append([]spec.Field{sel}, target...)
	fields = append(fields, extra...)
	return decl, object(field("spec", object(fields...)))
}

// tree assembles the version 3 tree.
func (u *upgrader) tree(root *spec.Node) *spec.Node {
	vf := root.Field("version")
	out := []spec.Field{{Key: "version", KeyRange: vf.KeyRange, Value: &spec.Node{Kind: spec.Number, Value: "3", Range: vf.Value.Range}}}
	var services, runOptions []spec.Field
	addService := func(s *service3, typ string) *spec.Node {
		services = append(services, field(s.name, object(field("definitions", &spec.Node{Kind: spec.Array, Items: s.defs}))))
		oa := []spec.Field{}
		hasType := false
		for _, f := range s.run {
			if f.Key == "type" {
				hasType = true
			}
		}
		if !hasType {
			oa = append(oa, field("type", str(typ)))
		}
		oa = append(oa, s.run...)
		if len(s.specOpts) > 0 {
			oa = append(oa, field("specs", &spec.Node{Kind: spec.Array, Items: s.specOpts}))
		}
		runOptions = append(runOptions, field(s.name, object(field("openapi", object(oa...)))))
		return object(field("service", ref("services", s.name)), field("runOptions", ref("runOptions", s.name)))
	}
	if u.sut != nil {
		out = append(out, spec.Field{Key: "systemUnderTest", KeyRange: u.keyRange["provides"], Value: addService(u.sut, "test")})
	}
	if len(u.mocks) > 0 {
		var items []*spec.Node
		for _, m := range u.mocks {
			items = append(items, addService(m, string(Stateless)))
		}
		out = append(out, spec.Field{Key: "dependencies", KeyRange: u.keyRange["consumes"],
			Value: object(field("services", &spec.Node{Kind: spec.Array, Items: items}))})
	}
	var comps []spec.Field
	if len(u.sources) > 0 {
		comps = append(comps, spec.Field{Key: "sources", KeyRange: u.keyRange["contracts"], Value: object(u.sources...)})
	}
	if len(services) > 0 {
		comps = append(comps, field("services", object(services...)), field("runOptions", object(runOptions...)))
	}
	if len(comps) > 0 {
		out = append(out, field("components", object(comps...)))
	}
	var settings, sg []spec.Field
	for _, f := range root.Fields {
		switch f.Key {
		case "strictMode":
			settings = append(settings, f)
		case "test":
			settings = append(settings, f)
		case "stub":
			settings = append(settings, spec.Field{Key: "mock", KeyRange: f.KeyRange, Value: u.stub(f.Value)})
		}
	}
	if len(settings) > 0 {
		sg = append(sg, field("settings", object(settings...)))
	}
	if f := root.Field("examples"); f != nil {
		ex := object(field("directories", f.Value))
		sg = append(sg, field("data", object(spec.Field{Key: "examples", KeyRange: f.KeyRange, Value: &spec.Node{Kind: spec.Array, Items: []*spec.Node{ex}}})))
	}
	if f := root.Field("report"); f != nil {
		sg = append(sg, *f)
	}
	if len(sg) > 0 {
		out = append(out, field("specgate", object(sg...)))
	}
	return &spec.Node{Kind: spec.Object, Range: root.Range, Fields: out}
}

// stub turns the legacy stub settings into mock settings: strictMode: true
// (no generated fallback) is lenient: false.
func (u *upgrader) stub(n *spec.Node) *spec.Node {
	if n.Kind != spec.Object {
		return n
	}
	out := &spec.Node{Kind: spec.Object, Range: n.Range}
	for _, f := range n.Fields {
		if f.Key == "strictMode" && f.Value.Kind == spec.Bool {
			v := "true"
			if f.Value.IsTrue() {
				v = "false"
			}
			f = spec.Field{Key: "lenient", KeyRange: f.KeyRange, Value: &spec.Node{Kind: spec.Bool, Value: v, Range: f.Value.Range}}
		}
		out.Fields = append(out.Fields, f)
	}
	return out
}

func field(key string, v *spec.Node) spec.Field { return spec.Field{Key: key, Value: v} }

func object(fields ...spec.Field) *spec.Node { return &spec.Node{Kind: spec.Object, Fields: fields} }

func str(s string) *spec.Node { return &spec.Node{Kind: spec.String, Value: s} }

func ref(kind, name string) *spec.Node {
	return object(field("$ref", str("#/components/"+kind+"/"+name)))
}
