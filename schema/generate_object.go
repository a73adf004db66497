package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// array generates an array.
func (gn *generation) array(v *view, depth int) (any, bool) {
	if v.maxItems >= 0 && v.minItems > v.maxItems {
		return nil, false
	}
	itemView := func(i int) []*jsonschema.Schema {
		if i < len(v.prefix) {
			return v.prefix[i]
		}
		return v.items
	}
	recursive := gn.recursive(v.items)
	n := v.minItems
	if !recursive && gn.left > 0 {
		hi := max(v.minItems, gn.g.opts.MaxItems)
		if v.maxItems >= 0 {
			hi = min(hi, v.maxItems)
		}
		n = max(v.minItems, min(hi, 1+gn.g.rng.IntN(max(hi, 1))))
	}
	// A tuple has all its items.
	n = max(n, v.minContains, len(v.prefix))
	if v.noMoreItems && n > len(v.prefix) {
		n = max(len(v.prefix), v.minItems)
	}
	if v.maxItems >= 0 {
		n = min(n, v.maxItems)
	}
	out := make([]any, 0, n)
	seen := map[string]bool{}
	for i := 0; len(out) < n && i < n+8; i++ {
		list := itemView(len(out))
		if len(out) < v.minContains && len(v.contains) > 0 {
			list = append(slices.Clone(list), v.contains...)
		}
		x, ok := gn.value(list, depth+1, nil)
		if !ok {
			return nil, false
		}
		if v.unique {
			key := canonical(x)
			if seen[key] {
				continue
			}
			seen[key] = true
		}
		out = append(out, x)
	}
	if len(out) < v.minItems {
		return nil, false
	}
	return out, true
}

// canonical is a value's JSON text with keys sorted, to compare values.
func canonical(x any) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// recursive reports whether a value of these schemas would nest a value
// being built.
func (gn *generation) recursive(list []*jsonschema.Schema) bool {
	if len(list) == 0 {
		return false
	}
	for _, s := range newView(list).schemas {
		if gn.ancestors[s] > 0 {
			return true
		}
	}
	return false
}

// object generates an object: its required properties, then (while the
// budget lasts and unless they would recurse) its optional ones, then
// extra properties up to minProperties. A first attempt has every
// optional property, a second none, later ones about half: a oneOf, anyOf
// or not over required lists (exactly one of a and b) takes one of them.
func (gn *generation) object(v *view, depth, attempt int) (any, bool) {
	out := map[string]any{}
	names := make([]string, 0, len(v.props)+len(v.required))
	for name := range v.required {
		names = append(names, name)
	}
	for name := range v.props {
		if !v.required[name] {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if v.required[names[i]] != v.required[names[j]] {
			return v.required[names[i]]
		}
		return names[i] < names[j]
	})
	for _, name := range names {
		required := v.required[name]
		if v.maxProps >= 0 && len(out) >= v.maxProps {
			if required {
				return nil, false
			}
			break
		}
		if !gn.allowed(v, name) {
			if required {
				return nil, false
			}
			continue
		}
		list := gn.propertySchemas(v, name)
		if !required {
			if gn.left <= 0 || depth > 8 || attempt == 1 || attempt > 1 && gn.g.rng.IntN(2) == 0 {
				continue
			}
			pv := newView(list)
			if gn.skipped(pv) || gn.recursive(list) {
				continue
			}
		}
		prefer := v.fixed[name]
		if prefer == nil {
			prefer = gn.subtype(v, name)
		}
		gn.name = name
		x, ok := gn.value(list, depth+1, prefer)
		if !ok {
			if required {
				return nil, false
			}
			continue
		}
		out[name] = x
	}
	for i := 0; len(out) < v.minProps && i < v.minProps+8; i++ {
		name, list, ok := gn.extraProperty(v, i)
		if !ok {
			return nil, false
		}
		if _, dup := out[name]; dup {
			continue
		}
		x, ok := gn.value(list, depth+1, nil)
		if !ok {
			return nil, false
		}
		out[name] = x
	}
	return out, true
}

// propertySchemas lists the schemas a property's value must satisfy: its
// properties entries, the patternProperties it matches, and
// additionalProperties where neither names it.
func (gn *generation) propertySchemas(v *view, name string) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	for _, s := range v.schemas {
		matched := false
		if p, ok := s.Properties[name]; ok {
			out = append(out, p)
			matched = true
		}
		for re, p := range s.PatternProperties {
			if re.MatchString(name) {
				out = append(out, p)
				matched = true
			}
		}
		if !matched {
			if a, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// allowed reports whether every schema of the view admits a property
// name: additionalProperties false admits only the names its own
// properties and patternProperties give; propertyNames must hold.
func (gn *generation) allowed(v *view, name string) bool {
	for _, s := range v.schemas {
		if b, ok := s.AdditionalProperties.(bool); ok && !b {
			if _, declared := s.Properties[name]; !declared {
				matched := false
				for re := range s.PatternProperties {
					if re.MatchString(name) {
						matched = true
						break
					}
				}
				if !matched {
					return false
				}
			}
		}
	}
	for _, pn := range v.propertyNames {
		if pn.Validate(name) != nil {
			return false
		}
	}
	return true
}

// extraProperty names a property beyond those declared, to reach
// minProperties: one a patternProperties expression draws, else a plain
// name that additionalProperties admits.
func (gn *generation) extraProperty(v *view, i int) (string, []*jsonschema.Schema, bool) {
	for _, s := range v.schemas {
		res := make([]jsonschema.Regexp, 0, len(s.PatternProperties))
		for re := range s.PatternProperties {
			res = append(res, re)
		}
		sort.Slice(res, func(a, b int) bool { return res[a].String() < res[b].String() })
		for _, re := range res {
			if p, ok := re.(*pattern); ok {
				if name, ok := gn.fromPattern([]jsonschema.Regexp{p}, 1, 40); ok && gn.allowed(v, name) {
					return name, gn.propertySchemas(v, name), true
				}
			}
		}
	}
	for j := 0; j < 16; j++ {
		name := fmt.Sprintf("%s%d", words[(i+j)%len(words)], i+j+1)
		if gn.allowed(v, name) {
			return name, gn.propertySchemas(v, name), true
		}
	}
	return "", nil, false
}

// subtype returns the value a discriminator without oneOf or anyOf gives
// a value of this view's schema (a subtype through allOf): the mapping
// value that names a schema of the view, else the name of the component
// the view's outermost schema is. nil when there is none.
func (gn *generation) subtype(v *view, name string) any {
	for _, b := range v.bases {
		if b.prop != name {
			continue
		}
		for _, m := range b.mapping {
			for _, s := range v.schemas {
				if s.Location == m.url+"#" {
					return m.value
				}
			}
		}
		for _, s := range v.schemas {
			if component := gn.componentName(s); component != "" {
				return component
			}
		}
	}
	return nil
}

// componentName returns the name under which a schema is a named
// component (components/schemas, definitions), or "".
func (gn *generation) componentName(s *jsonschema.Schema) string {
	base, frag, _ := strings.Cut(s.Location, "#")
	if frag != "" {
		return ""
	}
	uv, ok := gn.set.byURL.Load(base)
	if !ok {
		return ""
	}
	ptr := uv.(*unit).ptr
	for _, prefix := range []string{"/components/schemas/", "/definitions/"} {
		if rest, ok := strings.CutPrefix(ptr, prefix); ok && !strings.Contains(rest, "/") {
			return lastToken(ptr)
		}
	}
	return ""
}
