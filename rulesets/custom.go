package rulesets

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/specgate/specgate/internal/fsroot"
	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/dsl"
	"github.com/specgate/specgate/spec"
)

// Fetcher reads a ruleset named by an https URL. Nil refuses URLs.
type Fetcher func(url string) ([]byte, error)

// FileOverride changes severities for the linted files matching Globs
// (absolute patterns, or patterns relative to the working directory).
type FileOverride struct {
	Globs      []string
	Severities Severities
}

// Matches reports whether the override applies to a linted file.
func (o FileOverride) Matches(file string) bool {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	for _, g := range o.Globs {
		if ok, _ := doublestar.Match(g, filepath.ToSlash(abs)); ok {
			return true
		}
	}
	return false
}

// SkippedRule is a rule left out because specgate cannot run it as
// written (only with SkipMissingFunctions): a custom function with no Rego
// implementation (Function names it), or another Reason.
type SkippedRule struct {
	Rule, Function, Reason, File string
	Pos                          spec.Pos
}

// customSet is what a chain of ruleset files adds up to.
type customSet struct {
	defs      []*dsl.RuleDef // in order; a later definition of an id replaces an earlier one
	sev       Severities     // severities set by the chain, for custom and built-in rules
	aliases   map[string]*dsl.Alias
	funcs     map[string]string // custom function -> Rego reference
	modules   map[string]string // Rego source by file: functions and users' own rules
	overrides []FileOverride
	builtins  []string // built-in rulesets named in extends, in order
	spectral  bool     // the chain extends spectral:oas or spectral:asyncapi
}

func newCustomSet() *customSet {
	return &customSet{sev: Severities{}, aliases: map[string]*dsl.Alias{}, funcs: map[string]string{}, modules: map[string]string{}}
}

// merge adds a child (extended) set under the current one.
func (c *customSet) merge(child *customSet) {
	for _, d := range child.defs {
		c.addDef(d)
	}
	for id, s := range child.sev {
		c.sev[id] = s
	}
	for k, v := range child.aliases {
		c.aliases[k] = v
	}
	for k, v := range child.funcs {
		c.funcs[k] = v
	}
	for k, v := range child.modules {
		c.modules[k] = v
	}
	c.overrides = append(c.overrides, child.overrides...)
	c.builtins = append(c.builtins, child.builtins...)
	c.spectral = c.spectral || child.spectral
}

func (c *customSet) addDef(d *dsl.RuleDef) {
	c.defs = slices.DeleteFunc(c.defs, func(x *dsl.RuleDef) bool { return x.ID == d.ID })
	c.defs = append(c.defs, d)
}

func (c *customSet) def(id string) *dsl.RuleDef {
	for _, d := range c.defs {
		if d.ID == id {
			return d
		}
	}
	return nil
}

// rulesetLoader reads ruleset files and their extends chains.
type rulesetLoader struct {
	reg      *policy.Registry // built-in rules, for mapping names
	fetch    Fetcher
	stack    []string // files being loaded, for cycles
	errs     []error
	warnings []string
}

func (l *rulesetLoader) fail(err error) { l.errs = append(l.errs, err) }

func (l *rulesetLoader) failAt(file string, pos spec.Pos, format string, args ...any) {
	l.fail(&spec.Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// load reads one ruleset file (a path or an https URL) with its extends.
func (l *rulesetLoader) load(name string, from string, at spec.Pos, mode string) *customSet {
	key := name
	var data []byte
	var err error
	if isURL(name) {
		if l.fetch == nil {
			l.failAt(from, at, "ruleset %s is a URL, which this command does not fetch", name)
			return nil
		}
		data, err = l.fetch(name)
	} else {
		if key, err = filepath.Abs(name); err == nil {
			data, err = os.ReadFile(name)
		}
	}
	if err != nil {
		if from == "" {
			l.fail(fmt.Errorf("cannot read ruleset %s: %w", name, err))
		} else {
			l.failAt(from, at, "cannot read ruleset %s: %v", name, fsroot.UnwrapPath(err))
		}
		return nil
	}
	if slices.Contains(l.stack, key) {
		l.failAt(from, at, "ruleset %s extends itself (through %s)", name, strings.Join(l.stack, " -> "))
		return nil
	}
	l.stack = append(l.stack, key)
	defer func() { l.stack = l.stack[:len(l.stack)-1] }()
	rs, err := dsl.ParseRuleset(name, data)
	if err != nil {
		l.fail(err)
		if rs == nil {
			return nil
		}
	}
	return l.resolve(rs, mode)
}

// resolve builds the set of one parsed ruleset: its extends first, then
// its own aliases, functions, rules and overrides.
func (l *rulesetLoader) resolve(rs *dsl.Ruleset, mode string) *customSet {
	set := newCustomSet()
	dir := baseDir(rs.File)
	for _, ext := range rs.Extends {
		switch {
		case IsBuiltin(ext.Name):
			if ext.Mode != "off" {
				set.builtins = append(set.builtins, ext.Name)
			}
		case strings.HasPrefix(ext.Name, "spectral:"):
			l.spectral(set, rs.File, ext)
		default:
			child := l.load(join(dir, ext.Name), rs.File, ext.Pos, ext.Mode)
			if child == nil {
				continue
			}
			set.merge(child)
		}
	}
	for k, v := range rs.Aliases {
		set.aliases[k] = v
	}
	if len(rs.Functions) > 0 {
		l.functions(set, rs, dir)
	}
	for _, r := range rs.Rego {
		l.regoModules(set, rs.File, r, join(dir, r.Value))
	}
	for _, d := range rs.Rules {
		l.rule(set, rs, d, mode)
	}
	for _, o := range rs.Overrides {
		fo := FileOverride{Severities: Severities{}}
		for _, g := range o.Files {
			if strings.Contains(g.Value, "#") {
				l.failAt(rs.File, g.Pos, "override %q: overrides by JSON pointer are not supported; name whole files", g.Value)
				continue
			}
			glob := g.Value
			if !isURL(dir) {
				glob = join(dir, g.Value)
				if abs, err := filepath.Abs(glob); err == nil {
					glob = abs
				}
			}
			fo.Globs = append(fo.Globs, filepath.ToSlash(glob))
		}
		for _, d := range o.Rules {
			if !d.SeverityOnly {
				if len(d.Formats) == 0 {
					d.Formats = rs.Formats
				}
				set.addDef(d)
				if _, ok := set.sev[d.ID]; !ok {
					set.sev[d.ID] = level.Off
				}
				fo.Severities[d.ID] = defSeverity(d, "all")
				continue
			}
			for _, id := range l.ids(set, rs.File, d) {
				fo.Severities[id] = entrySeverity(d, set.def(id), l.reg.Rule(id))
			}
		}
		set.overrides = append(set.overrides, fo)
	}
	if mode == "off" {
		for id := range set.sev {
			set.sev[id] = level.Off
		}
	}
	return set
}

func (l *rulesetLoader) rule(set *customSet, rs *dsl.Ruleset, d *dsl.RuleDef, mode string) {
	if !d.SeverityOnly {
		if len(d.Formats) == 0 {
			d.Formats = rs.Formats
		}
		set.addDef(d)
		set.sev[d.ID] = defSeverity(d, mode)
		return
	}
	for _, id := range l.ids(set, rs.File, d) {
		set.sev[id] = entrySeverity(d, set.def(id), l.reg.Rule(id))
	}
}

// defSeverity is a definition's severity: as written (warn by default, as
// in Spectral), off when recommended: false unless the ruleset is
// extended with "all".
func defSeverity(d *dsl.RuleDef, mode string) level.Severity {
	if !d.Recommended && mode != "all" {
		return level.Off
	}
	s, ok := level.ParseSeverity(d.Severity)
	if !ok {
		return level.Warn
	}
	return s
}

// entrySeverity is the severity a severity-only entry sets: as written, or
// true (enable) for the rule's own severity.
func entrySeverity(d *dsl.RuleDef, def *dsl.RuleDef, builtin *policy.Rule) level.Severity {
	if s, ok := level.ParseSeverity(d.Severity); ok {
		return s
	}
	if def != nil {
		return defSeverity(def, "all")
	}
	if builtin != nil {
		return builtin.Severity
	}
	return level.Warn
}

// ids maps the id of a severity-only entry to rules: a definition of the
// chain, a built-in rule (with or without the specgate/ prefix), or the
// built-in rules that are equivalent to a Spectral, vacuum or Redocly rule
// of that name.
func (l *rulesetLoader) ids(set *customSet, file string, d *dsl.RuleDef) []string {
	if set.def(d.ID) != nil {
		return []string{d.ID}
	}
	id := strings.TrimPrefix(d.ID, BuiltinPrefix)
	if l.reg.Rule(id) != nil {
		return []string{id}
	}
	if peers := peerRules(l.reg, d.ID); len(peers) > 0 {
		return peers
	}
	candidates := l.reg.IDs()
	for _, x := range set.defs {
		candidates = append(candidates, x.ID)
	}
	if reason := peerReason(d.ID); reason != "" {
		l.warnings = append(l.warnings, fmt.Sprintf("%s:%d:%d: rule %q is not mirrored by specgate (%s); its severity is ignored",
			file, d.Pos.Line, d.Pos.Col, d.ID, reason))
		return nil
	}
	if set.spectral && !strings.HasPrefix(d.ID, BuiltinPrefix) {
		// Most likely a rule of the Spectral ruleset the chain extends that
		// specgate has no equivalent for: setting its severity changes
		// nothing, which is worth a warning, not a failure.
		l.warnings = append(l.warnings, fmt.Sprintf("%s:%d:%d: rule %q has no specgate equivalent; its severity is ignored (see docs/rules/parity.md)",
			file, d.Pos.Line, d.Pos.Col, d.ID))
		return nil
	}
	l.failAt(file, d.Pos, "unknown rule %q: it is neither defined in this ruleset chain nor a built-in rule%s", d.ID, Suggest(d.ID, candidates))
	return nil
}

// peerRules returns the built-in rules whose METADATA names a peer rule
// with this name.
func peerRules(reg *policy.Registry, name string) []string {
	var out []string
	for _, r := range reg.Rules {
		for _, p := range r.Peers {
			if _, peer, ok := strings.Cut(p, ":"); ok && peer == name {
				out = append(out, r.ID)
				break
			}
		}
	}
	return out
}

// spectral maps `extends: spectral:oas` and `spectral:asyncapi` to the
// built-in rules equivalent to that ruleset's rules (their METADATA peers),
// at their original severity. The mode follows Spectral: "recommended" (the
// default) maps the rules Spectral enables by default, "all" every rule,
// "off" turns the equivalents off (which matters when a later entry
// re-enables some).
func (l *rulesetLoader) spectral(set *customSet, file string, ext dsl.Extend) {
	var prefix string
	switch ext.Name {
	case "spectral:oas":
		prefix = "oas"
	case "spectral:asyncapi":
		prefix = "asyncapi"
	default:
		l.failAt(file, ext.Pos, "unknown ruleset %q (known: spectral:oas, spectral:asyncapi, %s)%s", ext.Name, strings.Join(Names, ", "),
			Suggest(ext.Name, append([]string{"spectral:oas", "spectral:asyncapi"}, Names...)))
		return
	}
	set.spectral = true
	inRuleset := map[string]bool{} // spectral rule id -> enabled by default
	if peers, err := Peers(); err == nil {
		for _, p := range peers {
			if p.Peer == "spectral" && p.Ruleset == prefix {
				inRuleset[p.ID] = p.Severity != "off"
			}
		}
	}
	for _, r := range l.reg.Rules {
		if !r.Builtin {
			continue
		}
		enabled, mapped := false, false
		for _, peer := range r.Peers {
			id, ok := strings.CutPrefix(peer, "spectral:")
			if !ok {
				continue
			}
			if on, ok := inRuleset[id]; ok {
				mapped = true
				enabled = enabled || on || ext.Mode == "all"
			}
		}
		switch {
		case !mapped:
		case ext.Mode == "off":
			set.sev[r.ID] = level.Off
		case enabled:
			set.sev[r.ID] = r.Severity
		}
	}
}

// peerReason is why specgate deliberately does not mirror a peer rule of
// this name, "" when it does or the name is unknown.
func peerReason(name string) string {
	peers, err := Peers()
	if err != nil {
		return ""
	}
	for _, p := range peers {
		if p.ID == name && p.Reason != "" {
			return p.Reason
		}
	}
	return ""
}

// functions loads the Rego files of a ruleset's functions folder and
// finds, for each name in `functions:`, the Rego function of that name.
func (l *rulesetLoader) functions(set *customSet, rs *dsl.Ruleset, dir string) {
	fdir := join(dir, rs.FunctionsDir)
	found := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(fdir, "*.rego"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.rego") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			l.fail(err)
			continue
		}
		funcs, err := policy.Functions(f, string(src))
		if err != nil {
			l.fail(err)
			continue
		}
		set.modules[f] = string(src)
		maps.Copy(found, funcs)
	}
	for _, fn := range rs.Functions {
		if ref, ok := found[fn.Value]; ok {
			set.funcs[fn.Value] = ref
		}
		// A name with no implementation is reported where a rule uses it,
		// with every rule that does (see compileAll).
	}
}

// regoModules loads users' own Rego: a folder (recursively) or one file.
func (l *rulesetLoader) regoModules(set *customSet, from string, at dsl.Name, path string) {
	st, err := os.Stat(path)
	if err != nil {
		l.failAt(from, at.Pos, "rego %s: %v", at.Value, fsroot.UnwrapPath(err))
		return
	}
	add := func(p string) {
		if !strings.HasSuffix(p, ".rego") || strings.HasSuffix(p, "_test.rego") {
			return
		}
		src, err := os.ReadFile(p)
		if err != nil {
			l.fail(err)
			return
		}
		set.modules[p] = string(src)
	}
	if !st.IsDir() {
		add(path)
		return
	}
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			add(p)
		}
		return nil
	})
}

// compileAll compiles the chain's definitions into the registry. Rules
// that use a function with no Rego implementation are an error naming the
// function and every rule using it, or are skipped when skipMissing.
func compileAll(reg *policy.Registry, set *customSet, skipMissing bool) ([]*dsl.Compiled, []SkippedRule, error) {
	var out []*dsl.Compiled
	var skipped []SkippedRule
	var errs []error
	missing := map[string][]*dsl.MissingFunctionError{}
	var missingOrder []string
	for _, d := range set.defs {
		c, err := dsl.Compile(d, &dsl.Env{Aliases: set.aliases, Functions: set.funcs, Formats: d.Formats})
		if err != nil {
			var only []*dsl.MissingFunctionError
			var unsupported []*dsl.UnsupportedError
			other := false
			for _, e := range dsl.Errors(err) {
				var mf *dsl.MissingFunctionError
				var ue *dsl.UnsupportedError
				switch {
				case errors.As(e, &mf):
					only = append(only, mf)
				case errors.As(e, &ue):
					unsupported = append(unsupported, ue)
				default:
					other = true
					errs = append(errs, e)
				}
			}
			if !other {
				for _, ue := range unsupported {
					if skipMissing {
						skipped = append(skipped, SkippedRule{Rule: ue.Rule, Reason: ue.Reason, File: ue.File, Pos: ue.Pos})
					} else {
						errs = append(errs, fmt.Errorf("%w (pass --skip-unsupported-rules to lint without it)", ue))
					}
				}
				for _, mf := range only {
					if missing[mf.Function] == nil {
						missingOrder = append(missingOrder, mf.Function)
					}
					missing[mf.Function] = append(missing[mf.Function], mf)
				}
			}
			continue
		}
		out = append(out, c)
	}
	for _, fn := range missingOrder {
		uses := missing[fn]
		if skipMissing {
			for _, u := range uses {
				skipped = append(skipped, SkippedRule{Rule: u.Rule, Function: fn, File: u.File, Pos: u.Pos,
					Reason: fmt.Sprintf("function %q has no Rego implementation", fn)})
			}
			continue
		}
		rules := make([]string, len(uses))
		for i, u := range uses {
			rules[i] = u.Rule
		}
		errs = append(errs, &spec.Error{File: uses[0].File, Pos: uses[0].Pos, Msg: fmt.Sprintf(
			"function %q has no Rego implementation; it is used by %s. Write it as a Rego function named %s in the ruleset's functions folder, or pass --skip-unsupported-rules to lint without these rules",
			fn, quoteList(rules), fn)})
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	if len(out) > 0 || len(set.modules) > 0 {
		if err := reg.AddModule(dsl.LibraryFile, dsl.Library(), false); err != nil {
			return nil, nil, fmt.Errorf("internal error: %w", err)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(set.modules)) {
		if err := reg.AddModule(f, set.modules[f], false); err != nil {
			errs = append(errs, err)
		}
	}
	for _, c := range out {
		if err := reg.AddModule(c.File, c.Source, false); err != nil {
			errs = append(errs, fmt.Errorf("internal error compiling rule %q: %w", c.ID, err))
		}
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return out, skipped, reg.Validate()
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func isURL(s string) bool { return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://") }

// join resolves name against dir, unless it is absolute or a URL.
func join(dir, name string) string {
	if isURL(name) || filepath.IsAbs(name) {
		return name
	}
	if isURL(dir) {
		base := dir
		if !strings.HasSuffix(base, "/") {
			base += "/"
		}
		return base + name
	}
	return filepath.Join(dir, name)
}

func baseDir(file string) string {
	if isURL(file) {
		if i := strings.LastIndexByte(file, '/'); i > len("https://") {
			return file[:i]
		}
		return file
	}
	return filepath.Dir(file)
}
