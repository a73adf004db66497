// Package policy runs rules written in Rego over specifications in an
// embedded OPA engine: it reads the rule registry from the rules' METADATA
// annotations, compiles the enabled rules once into one program with
// sandboxed capabilities, builds the OPA input from a spec.Document, and
// evaluates every rule on it (in parallel, sharing library values) into
// violations {rule, path, message}. specgate's own builtins are package
// builtins', the program cache and its codec package progcache's, the
// inlining compiler stage package inline's, and the custom-rule DSL
// package dsl's.
package policy

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/internal/level"
)

// Categories group rules in reports and docs.
var Categories = []string{"Operations", "Parameters", "Requests", "Responses", "Schemas", "Security",
	"Documentation", "Naming", "Servers", "Structure", "References", "Pagination", "Channels", "Messages", "Workflows", "General"}

// Families decide how the rulesets treat a rule (see package rulesets).
var Families = []string{"integrity", "correctness", "documentation", "naming", "security", "health", "pagination", "headers", "structure", "custom"}

// FormatTags are the format names a rule may declare (see
// spec.Document.FormatTags).
var FormatTags = []string{"oas", "oas2", "oas3", "oas3.0", "oas3.1", "oas3.2", "asyncapi", "asyncapi2", "asyncapi3", "arazzo", "arazzo1",
	"proto", "graphql", "wsdl"}

// Rule is one rule: its metadata and its compiled-to-be module.
type Rule struct {
	ID          string
	Title       string
	Description string
	Category    string
	Maturity    string
	Family      string
	Severity    level.Severity // the rule's original severity
	Formats     []string
	HowToFix    string
	Peers       []string // equivalent rule ids of other linters, "vacuum:…", "spectral:…"
	Builtin     bool

	File   string  // the .rego file the rule is defined in
	Source *Source `json:"-"` // its text, parsed when first needed

	validated bool // Validate passed: it is not checked again
}

// Source is the text of a Rego module, parsed when first needed: a rule
// set found in the cache is evaluated without parsing its modules.
type Source struct {
	File, Text string

	once   sync.Once
	module *ast.Module
	err    error

	digestOnce sync.Once
	digest     [sha256.Size]byte // of Text
}

// textDigest is the SHA-256 of the source's text, which names it in cache
// keys (see Cache.key): computed once, as three keys of a run name most
// sources.
func (s *Source) textDigest() [sha256.Size]byte {
	s.digestOnce.Do(func() { s.digest = sha256.Sum256([]byte(s.Text)) })
	return s.digest
}

// Module parses the source once.
func (s *Source) Module() (*ast.Module, error) {
	s.once.Do(func() {
		s.module, s.err = ast.ParseModuleWithOpts(s.File, s.Text, parseOpts)
	})
	return s.module, s.err
}

// AppliesTo reports whether the rule runs on a document with these format
// tags.
func (r *Rule) AppliesTo(tags []string) bool {
	for _, f := range r.Formats {
		if slices.Contains(tags, f) {
			return true
		}
	}
	return false
}

// Registry is a validated set of rules plus the library modules they share.
type Registry struct {
	Rules []*Rule // sorted by id
	Libs  []*Source
	byID  map[string]*Rule
}

// Rule returns the rule with this id, or nil.
func (r *Registry) Rule(id string) *Rule { return r.byID[id] }

// IDs returns every rule id, sorted.
func (r *Registry) IDs() []string {
	ids := make([]string, len(r.Rules))
	for i, rule := range r.Rules {
		ids[i] = rule.ID
	}
	return ids
}

// isRulePackage reports whether a package is under specgate.rules: a rule
// (rules are exactly one level below it; ruleFromModule checks that).
func isRulePackage(p ast.Ref) bool {
	return len(p) >= 3 && p[1].Value.Compare(ast.String("specgate")) == 0 && p[2].Value.Compare(ast.String("rules")) == 0
}

// parseOpts are the parser options for rule modules.
var parseOpts = ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1}

// LoadFS reads every .rego file under root of fsys (not _test.rego files):
// modules whose package is specgate.rules["<id>"] are rules, others are
// libraries. builtin marks the rules as specgate's own. With a cache, the
// metadata of a set of files seen before is read back, and the modules are
// parsed only when compiled.
func LoadFS(fsys fs.FS, root string, builtin bool, cache *Cache) (*Registry, error) {
	var sources []*Source
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".rego") || strings.HasSuffix(p, "_test.rego") {
			return nil
		}
		text, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		s := &Source{File: p, Text: string(text)}
		s.digestOnce.Do(func() { s.digest = sha256.Sum256(text) }) // without a copy of the text
		sources = append(sources, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var key string
	if cache != nil {
		key = cache.key("registry", sources)
		if reg := cache.loadRegistry(key, sources, builtin); reg != nil {
			return reg, nil
		}
	}
	if _, err := parseSources(sources); err != nil {
		return nil, err
	}
	reg := &Registry{byID: map[string]*Rule{}}
	for _, s := range sources {
		if err := reg.addSource(s, builtin); err != nil {
			return nil, err
		}
	}
	if err := reg.Validate(); err != nil {
		return nil, err
	}
	cache.storeRegistry(key, reg)
	return reg, nil
}

// AddModule parses one module into the registry.
func (r *Registry) AddModule(file, text string, builtin bool) error {
	if r.byID == nil {
		r.byID = map[string]*Rule{}
	}
	return r.addSource(&Source{File: file, Text: text}, builtin)
}

// addSource adds a library or a rule.
func (r *Registry) addSource(src *Source, builtin bool) error {
	m, err := src.Module()
	if err != nil {
		return err
	}
	file := src.File
	if !isRulePackage(m.Package.Path) {
		r.Libs = append(r.Libs, src)
		return nil
	}
	rule, err := ruleFromModule(file, m)
	if err != nil {
		return err
	}
	rule.Builtin = builtin
	rule.Source = src
	return r.add(rule)
}

// add adds a rule, keeping the rules sorted by id.
func (r *Registry) add(rule *Rule) error {
	if prev := r.byID[rule.ID]; prev != nil {
		if prev.Builtin && !rule.Builtin {
			return fmt.Errorf("%s: rule %q is already defined as a built-in rule; choose another id (or change its severity in the profile)", rule.File, rule.ID)
		}
		return fmt.Errorf("%s: rule %q is already defined in %s", rule.File, rule.ID, prev.File)
	}
	r.byID[rule.ID] = rule
	r.Rules = append(r.Rules, rule)
	sort.Slice(r.Rules, func(i, j int) bool { return r.Rules[i].ID < r.Rules[j].ID })
	return nil
}

// ruleFromModule reads a rule's identity from its package path and its
// metadata from the package-scoped METADATA annotation.
func ruleFromModule(file string, m *ast.Module) (*Rule, error) {
	p := m.Package.Path
	if len(p) != 4 {
		return nil, fmt.Errorf("%s: a rule's package must be specgate.rules[\"<rule-id>\"], found %s", file, p)
	}
	id, ok := p[3].Value.(ast.String)
	if !ok {
		return nil, fmt.Errorf("%s: a rule's package must be specgate.rules[\"<rule-id>\"], found %s", file, p)
	}
	var ann *ast.Annotations
	for _, a := range m.Annotations {
		if a.Scope == "package" {
			ann = a
		}
	}
	if ann == nil {
		return nil, fmt.Errorf("%s: rule %q has no package METADATA annotation", file, string(id))
	}
	rule := &Rule{ID: string(id), Title: ann.Title, Description: strings.TrimSpace(ann.Description), File: file}
	c := ann.Custom
	rule.Category, _ = c["category"].(string)
	rule.Maturity, _ = c["maturity"].(string)
	rule.Family, _ = c["family"].(string)
	rule.HowToFix, _ = c["howToFix"].(string)
	rule.HowToFix = strings.TrimSpace(rule.HowToFix)
	sev, _ := c["severity"].(string)
	var sevOK bool
	if rule.Severity, sevOK = level.ParseSeverity(sev); !sevOK || rule.Severity == level.Off {
		return nil, fmt.Errorf("%s: rule %q: custom.severity must be warn or error, found %q", file, rule.ID, sev)
	}
	rule.Formats = stringList(c["formats"])
	rule.Peers = stringList(c["peers"])
	return rule, nil
}

func stringList(v any) []string {
	items, _ := v.([]any)
	out := make([]string, 0, len(items))
	for _, it := range items {
		if s, ok := it.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Validate checks the registry once: ids are kebab-case and unique, and
// every rule names a known category, maturity, family and formats, and has a
// title, a description and a violations rule.
func (r *Registry) Validate() error {
	var errs []string
	for _, rule := range r.Rules {
		if rule.validated {
			continue
		}
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Sprintf("%s: rule %q: %s", rule.File, rule.ID, fmt.Sprintf(format, args...)))
		}
		if rule.Builtin && !IsKebab(rule.ID) {
			bad("id must be kebab-case")
		}
		if rule.Title == "" {
			bad("METADATA title is missing")
		}
		if rule.Description == "" {
			bad("METADATA description is missing")
		}
		if !slices.Contains(Categories, rule.Category) {
			bad("unknown category %q (known: %s)", rule.Category, strings.Join(Categories, ", "))
		}
		if !slices.Contains(level.Maturities, rule.Maturity) {
			bad("unknown maturity %q (known: %s)", rule.Maturity, strings.Join(level.Maturities, ", "))
		}
		if !slices.Contains(Families, rule.Family) {
			bad("unknown family %q (known: %s)", rule.Family, strings.Join(Families, ", "))
		}
		if len(rule.Formats) == 0 {
			bad("custom.formats is empty")
		}
		for _, f := range rule.Formats {
			if !slices.Contains(FormatTags, f) {
				bad("unknown format %q (known: %s)", f, strings.Join(FormatTags, ", "))
			}
		}
		if m, err := rule.Source.Module(); err != nil || !definesViolations(m) {
			bad("the module defines no `violations` rule")
		}
		if rule.Builtin && !strings.HasSuffix(path.Dir(rule.File), rule.ID) {
			bad("a built-in rule lives in a folder named after its id, found %s", rule.File)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid rule registry:\n  %s", strings.Join(errs, "\n  "))
	}
	for _, rule := range r.Rules {
		rule.validated = true
	}
	return nil
}

func definesViolations(m *ast.Module) bool {
	for _, r := range m.Rules {
		if r.Head.Name == "violations" || (len(r.Head.Reference) > 0 && r.Head.Reference[0].Value.Compare(ast.Var("violations")) == 0) {
			return true
		}
	}
	return false
}

// IsKebab reports whether s is a kebab-case id: lower-case words and
// digits joined by single hyphens.
func IsKebab(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return !strings.Contains(s, "--")
}
