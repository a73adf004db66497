// Package rulesets turns rule metadata into severities: the built-in
// rulesets lenient, recommended and strict are transformations of each
// rule's original severity and family, and a user's profile layers extends,
// include, exclude and override on top, in that order. It also loads the
// lint configuration file.
package rulesets

import (
	"fmt"
	"slices"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rules"
)

// Names of the built-in rulesets, from the most forgiving.
const (
	Lenient     = "lenient"
	Recommended = "recommended"
	Strict      = "strict"
)

// Names lists the built-in rulesets.
var Names = []string{Lenient, Recommended, Strict}

// Default is the ruleset used when nothing else is configured.
const Default = Lenient

// Integrity is the family of rules that find a document unreadable as
// written (an unresolved $ref): every built-in ruleset keeps them at their
// original severity.
const Integrity = "integrity"

// Severities maps rule ids to severities; a rule missing from the map is
// off.
type Severities map[string]level.Severity

// Enabled returns the ids of the rules that are not off, sorted.
func (s Severities) Enabled() []string {
	var ids []string
	for id, sev := range s {
		if sev != level.Off {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// Builtin computes a built-in ruleset from the registry's metadata:
//   - lenient: every rule, its severity capped at warn (integrity rules
//     excepted: they keep theirs in every ruleset);
//   - recommended: original severities, naming rules off;
//   - strict: recommended, with naming and documentation rules at error.
func Builtin(reg *policy.Registry, name string) (Severities, error) {
	out := Severities{}
	for _, r := range reg.Rules {
		if !r.Builtin {
			continue
		}
		sev, err := builtinSeverity(r, name)
		if err != nil {
			return nil, err
		}
		out[r.ID] = sev
	}
	return out, nil
}

func builtinSeverity(r *policy.Rule, name string) (level.Severity, error) {
	if r.Family == Integrity && IsBuiltin(name) {
		// A document that tools cannot read as written fails under every
		// ruleset: lenient's cap is for style, not for broken documents.
		return r.Severity, nil
	}
	switch name {
	case Lenient:
		return min(r.Severity, level.Warn), nil
	case Recommended:
		if r.Family == "naming" {
			return level.Off, nil
		}
		return r.Severity, nil
	case Strict:
		if r.Family == "naming" || r.Family == "documentation" {
			return level.Error, nil
		}
		return r.Severity, nil
	}
	return level.Off, fmt.Errorf("unknown ruleset %q (known: lenient, recommended, strict)", name)
}

// IsBuiltin reports whether name is a built-in ruleset.
func IsBuiltin(name string) bool { return slices.Contains(Names, name) }

// BuiltinRegistry loads and validates the rules embedded in the binary.
func BuiltinRegistry() (*policy.Registry, error) {
	return policy.LoadFS(rules.FS, ".", true, nil)
}
