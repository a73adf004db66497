package dsl

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

type cursor struct {
	file, path, value, key string // Rego expressions
	root                   bool   // a file's root, which is never a reference
}

// given compiles one JSONPath (expanding aliases) into rule bodies that
// bind f, p and v.
func (g *gen) given(n Name) [][]string {
	paths := g.expand(n, nil)
	var bodies [][]string
	for _, ap := range paths {
		var lines []string
		if len(ap.formats) > 0 {
			lines = append(lines, "some fmt in input.formats", "fmt in "+regoSet(ap.formats))
		}
		c := cursor{file: `""`, path: "[]", value: "input.document", key: "null", root: true}
		if g.def.Resolved && len(ap.path.Segments) > 0 && ap.path.Segments[0].Descend {
			lines = append(lines, "some rf, rv in dsl.roots")
			c = cursor{file: "rf", path: "[]", value: "rv", key: "null", root: true}
		}
		body, end, ok := g.steps(ap.path, c, n)
		if !ok {
			continue
		}
		lines = append(lines, body...)
		if ap.path.KeyOf {
			lines = append(lines, "f := "+end.file, "p := "+end.path, "v := "+end.key)
		} else if g.def.Resolved {
			lines = append(lines, fmt.Sprintf("[f, p, v] := dsl.deref(%s, %s, %s)", end.file, end.path, end.value))
		} else {
			lines = append(lines, "f := "+end.file, "p := "+end.path, "v := "+end.value)
		}
		bodies = append(bodies, lines)
	}
	return bodies
}

type aliasedPath struct {
	path    *Path
	formats []string
}

// expand parses a given path and replaces a leading #Alias by its
// definitions (recursively), keeping the rest of the path.
func (g *gen) expand(n Name, seen []string) []aliasedPath {
	p, err := ParsePath(n.Value)
	if err != nil {
		g.e.at(n.Pos, "%v", err)
		return nil
	}
	if p.Alias == "" {
		return []aliasedPath{{path: p}}
	}
	a := g.env.Aliases[p.Alias]
	if a == nil {
		g.e.at(n.Pos, "unknown alias #%s%s", p.Alias, Suggest(p.Alias, slices.Sorted(maps.Keys(g.env.Aliases))))
		return nil
	}
	if slices.Contains(seen, p.Alias) {
		g.e.at(n.Pos, "alias #%s refers to itself (through %s)", p.Alias, strings.Join(seen, " -> "))
		return nil
	}
	seen = append(seen, p.Alias)
	var out []aliasedPath
	add := func(defs []Name, formats []string) {
		for _, d := range defs {
			for _, ap := range g.expand(d, seen) {
				ap.path.Segments = append(slices.Clip(ap.path.Segments), p.Segments...)
				ap.path.KeyOf = ap.path.KeyOf || p.KeyOf
				if len(formats) > 0 {
					ap.formats = formats
				}
				out = append(out, ap)
			}
		}
	}
	add(a.Given, nil)
	for _, t := range a.Targets {
		add(t.Given, t.Formats)
	}
	return out
}

// steps compiles the segments of a path from cursor c.
func (g *gen) steps(p *Path, c cursor, at Name) ([]string, cursor, bool) {
	var lines []string
	for _, s := range p.Segments {
		if s.Descend {
			q, w := g.fresh("q"), g.fresh("w")
			lines = append(lines, fmt.Sprintf("walk(%s, [%s, %s])", c.value, q, w))
			c = cursor{file: c.file, path: fmt.Sprintf("array.concat(%s, %s)", c.path, q), value: w,
				key: fmt.Sprintf("dsl.last_key(%s, %s)", q, c.key)}
		} else if g.def.Resolved && !c.root {
			f, pp, v := g.fresh("f"), g.fresh("p"), g.fresh("v")
			lines = append(lines, fmt.Sprintf("[%s, %s, %s] := dsl.deref(%s, %s, %s)", f, pp, v, c.file, c.path, c.value))
			c = cursor{file: f, path: pp, value: v, key: c.key}
		}
		k, v := g.fresh("k"), g.fresh("v")
		next := cursor{file: c.file, path: fmt.Sprintf("array.concat(%s, [%s])", c.path, k), value: v, key: k}
		switch s.Kind {
		case Child:
			if len(s.Names) == 1 {
				lines = append(lines, fmt.Sprintf("%s := %s", k, quote(s.Names[0])))
			} else {
				lines = append(lines, fmt.Sprintf("some %s in %s", k, regoArray(s.Names)))
			}
			lines = append(lines, fmt.Sprintf("%s := %s[%s]", v, c.value, k))
		case Wildcard:
			lines = append(lines, fmt.Sprintf("some %s, %s in %s", k, v, c.value))
		case Index:
			lines = append(lines, "is_array("+c.value+")")
			if len(s.Indices) == 1 {
				i := s.Indices[0]
				if i < 0 {
					lines = append(lines, fmt.Sprintf("%s := count(%s) - %d", k, c.value, -i))
				} else {
					lines = append(lines, fmt.Sprintf("%s := %d", k, i))
				}
			} else {
				ids := make([]string, len(s.Indices))
				for j, i := range s.Indices {
					ids[j] = strconv.Itoa(i)
				}
				lines = append(lines, fmt.Sprintf("some %s in [%s]", k, strings.Join(ids, ", ")))
			}
			lines = append(lines, fmt.Sprintf("%s := %s[%s]", v, c.value, k))
		case Slice:
			lines = append(lines, "is_array("+c.value+")", fmt.Sprintf("some %s, %s in %s", k, v, c.value))
			if s.Start != nil {
				lines = append(lines, fmt.Sprintf("%s >= %s", k, bound(*s.Start, c.value)))
			}
			if s.End != nil {
				lines = append(lines, fmt.Sprintf("%s < %s", k, bound(*s.End, c.value)))
			}
		case Filter:
			lines = append(lines, fmt.Sprintf("some %s, %s in %s", k, v, c.value))
			name, ok := g.filter(s.Expr, at)
			if !ok {
				return nil, c, false
			}
			lines = append(lines, fmt.Sprintf("%s(%s, %s, %s)", name, v, k, c.key))
		}
		c = next
	}
	return lines, c, true
}
func bound(i int, arr string) string {
	if i < 0 {
		return fmt.Sprintf("count(%s) - %d", arr, -i)
	}
	return strconv.Itoa(i)
}
