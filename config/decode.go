package config

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// Errors is every problem found in a configuration file, in the order of the
// file: each a *spec.Error with the file, line and column, and the JSON
// pointer of the value in the file when it is known.
type Errors []*spec.Error

func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, p := range e {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// sorted orders problems by position and drops repeats (a component used
// twice is checked twice).
func sorted(ps []*spec.Error) []*spec.Error {
	slices.SortStableFunc(ps, func(a, b *spec.Error) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return slices.CompactFunc(ps, func(a, b *spec.Error) bool {
		return a.File == b.File && a.Pos == b.Pos && a.Msg == b.Msg
	})
}

// decoder reads a parsed configuration, collecting every problem rather
// than stopping at the first. Strings go through template expansion as they
// are read, so that a template can stand for any scalar.
type decoder struct {
	file   string
	getenv func(string) string
	strict bool
	errs   []*spec.Error
	warns  []*spec.Error
	// noPointers leaves JSON pointers out of messages: a version 2 file is
	// read through its version 3 form, whose pointers it does not have.
	noPointers bool
	// keys holds where the key of each mapping or list is written: a
	// problem with a whole block (a missing key) is reported there.
	keys map[*spec.Node]spec.Pos
}

// index notes the keys of the blocks of a tree.
func (d *decoder) index(n *spec.Node) {
	if d.keys == nil {
		d.keys = map[*spec.Node]spec.Pos{}
	}
	for _, f := range n.Fields {
		if (f.Value.Kind == spec.Object || f.Value.Kind == spec.Array) && f.KeyRange.Start.Line > 0 {
			d.keys[f.Value] = f.KeyRange.Start
		}
		d.index(f.Value)
	}
	for _, it := range n.Items {
		d.index(it)
	}
}

func (d *decoder) errorAt(pos spec.Pos, ptr, format string, args ...any) {
	if d.noPointers {
		ptr = ""
	}
	d.errs = append(d.errs, &spec.Error{File: d.file, Pos: pos, Pointer: ptr, Msg: fmt.Sprintf(format, args...)})
}

// errorf reports a problem with n: at its key for a block, which may start
// lines below it, else where n is written.
func (d *decoder) errorf(n *spec.Node, ptr, format string, args ...any) {
	pos, ok := d.keys[n]
	if !ok {
		pos = n.Range.Start
	}
	d.errorAt(pos, ptr, format, args...)
}

func (d *decoder) warnf(n *spec.Node, ptr, format string, args ...any) {
	if d.noPointers {
		ptr = ""
	}
	d.warns = append(d.warns, &spec.Error{File: d.file, Pos: n.Range.Start, Pointer: ptr, Msg: fmt.Sprintf(format, args...)})
}

// join extends a JSON pointer by one key or index.
func join(ptr string, seg any) string {
	switch s := seg.(type) {
	case int:
		return ptr + "/" + strconv.Itoa(s)
	case string:
		return ptr + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
	}
	return ptr
}

// found describes a value for "… must be X, found Y" messages.
func found(n *spec.Node) string {
	switch n.Kind {
	case spec.String:
		return fmt.Sprintf("string %q", n.Value)
	case spec.Number:
		return "number " + n.Value
	case spec.Bool:
		return "boolean " + n.Value
	case spec.Object:
		return "a mapping"
	case spec.Array:
		return "a list"
	}
	return "null"
}

// object checks that n is a mapping with only the known keys; an unknown key
// is an error with the closest known one as a suggestion.
func (d *decoder) object(n *spec.Node, ptr, what string, known ...string) bool {
	if n.Kind != spec.Object {
		d.errorf(n, ptr, "%s must be a mapping, found %s", what, found(n))
		return false
	}
	for _, f := range n.Fields {
		if !slices.Contains(known, f.Key) {
			d.errorAt(f.KeyRange.Start, join(ptr, f.Key), "unknown key %q in %s%s", f.Key, what, suggest.Hint(f.Key, known))
		}
	}
	return true
}

// require reports the keys of an object that are missing.
func (d *decoder) require(n *spec.Node, ptr, what string, keys ...string) bool {
	ok := true
	for _, k := range keys {
		if n.Get(k) == nil {
			d.errorf(n, ptr, "%s has no %q (required)", what, k)
			ok = false
		}
	}
	return ok
}

// expand expands the templates of a string node, reporting a missing
// variable as an error in strict mode and as a warning otherwise.
func (d *decoder) expand(n *spec.Node, ptr string) (string, bool) {
	out, missing, err := Expand(n.Value, d.getenv)
	if err != nil {
		d.errorf(n, ptr, "%v", err)
		return "", false
	}
	for _, name := range missing {
		if d.strict {
			d.errorf(n, ptr, "${%s} is not set and has no default (strictMode is on)", name)
		} else {
			d.warnf(n, ptr, "${%s} is not set and has no default: using %q (set strictMode: true to make this an error)", name, Placeholder(name))
		}
	}
	if len(missing) > 0 && d.strict {
		return "", false
	}
	return out, true
}

// str reads a string, templates expanded.
func (d *decoder) str(n *spec.Node, ptr, what string) (string, bool) {
	if n.Kind != spec.String {
		d.errorf(n, ptr, "%s must be a string, found %s", what, found(n))
		return "", false
	}
	return d.expand(n, ptr)
}

// scalar reads a value of another type than string: the node itself, or a
// string holding a template, expanded. unset is true when the template
// named a missing variable (lenient mode): the caller then uses its zero.
func (d *decoder) scalar(n *spec.Node, ptr, what, typ string, kind spec.Kind) (text string, unset, ok bool) {
	if n.Kind == kind {
		return n.Value, false, true
	}
	if n.Kind == spec.String && HasTemplate(n.Value) {
		out, missing, err := Expand(n.Value, d.getenv)
		if err != nil {
			d.errorf(n, ptr, "%v", err)
			return "", false, false
		}
		if len(missing) > 0 {
			if d.strict {
				for _, name := range missing {
					d.errorf(n, ptr, "${%s} is not set and has no default (strictMode is on)", name)
				}
				return "", false, false
			}
			for _, name := range missing {
				d.warnf(n, ptr, "${%s} is not set and has no default: %s is left at its default (set strictMode: true to make this an error)", name, what)
			}
			return "", true, true
		}
		return out, false, true
	}
	d.errorf(n, ptr, "%s must be %s, found %s", what, typ, found(n))
	return "", false, false
}

// integer reads a non-negative integer (a count, a port, milliseconds).
func (d *decoder) integer(n *spec.Node, ptr, what string) (int, bool) {
	text, unset, ok := d.scalar(n, ptr, what, "an integer", spec.Number)
	if !ok || unset {
		return 0, ok
	}
	v, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil {
		if n.Kind == spec.String {
			d.errorf(n, ptr, "%s must be an integer, found %q (from %s)", what, text, n.Value)
		} else {
			d.errorf(n, ptr, "%s must be an integer, found number %s", what, text)
		}
		return 0, false
	}
	if v < 0 {
		d.errorf(n, ptr, "%s must not be negative, found %d", what, v)
		return 0, false
	}
	return v, true
}

// boolean reads true or false.
func (d *decoder) boolean(n *spec.Node, ptr, what string) (bool, bool) {
	text, unset, ok := d.scalar(n, ptr, what, "a boolean (true or false)", spec.Bool)
	if !ok || unset {
		return false, ok
	}
	switch strings.TrimSpace(text) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	d.errorf(n, ptr, "%s must be a boolean (true or false), found %q (from %s)", what, text, n.Value)
	return false, false
}

// enum reads a string that must be one of values.
func (d *decoder) enum(n *spec.Node, ptr, what string, values ...string) (string, bool) {
	s, ok := d.str(n, ptr, what)
	if !ok {
		return "", false
	}
	if !slices.Contains(values, s) {
		d.errorf(n, ptr, "%s must be one of %s, found %q%s", what, strings.Join(values, ", "), s, suggest.Hint(s, values))
		return "", false
	}
	return s, true
}

// list checks that n is a list and calls each on its items.
func (d *decoder) list(n *spec.Node, ptr, what string, each func(i int, it *spec.Node, ptr string)) {
	if n.Kind != spec.Array {
		d.errorf(n, ptr, "%s must be a list, found %s", what, found(n))
		return
	}
	for i, it := range n.Items {
		each(i, it, join(ptr, i))
	}
}

// strings reads a list of strings.
func (d *decoder) strings(n *spec.Node, ptr, what string) []string {
	var out []string
	d.list(n, ptr, what, func(_ int, it *spec.Node, p string) {
		if s, ok := d.str(it, p, "each of "+what); ok {
			out = append(out, s)
		}
	})
	return out
}

// value converts a node into a JSON value (as encoding/json decodes with
// UseNumber), expanding the templates of its strings.
func (d *decoder) value(n *spec.Node, ptr string) any {
	switch n.Kind {
	case spec.Bool:
		return n.Value == "true"
	case spec.Number:
		return json.Number(n.Value)
	case spec.String:
		s, _ := d.expand(n, ptr)
		return s
	case spec.Object:
		m := make(map[string]any, len(n.Fields))
		for _, f := range n.Fields {
			m[f.Key] = d.value(f.Value, join(ptr, f.Key))
		}
		return m
	case spec.Array:
		s := make([]any, len(n.Items))
		for i, it := range n.Items {
			s[i] = d.value(it, join(ptr, i))
		}
		return s
	}
	return nil
}
