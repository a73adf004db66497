package examples

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/yamlvalue"
	"github.com/specgate/specgate/spec"
)

// editKind is what an edit of an example file does.
type editKind uint8

const (
	editSet    editKind = iota // replace the value at segs
	editRemove                 // remove the object member at segs
	editAdd                    // add the member key to the object at segs
)

// edit is one change of an example file, at keys and indices from its
// root; values are plain JSON.
type edit struct {
	kind  editKind
	segs  []any
	key   string
	value any
}

// applyEdits changes the text of an example file: a JSON file in place,
// so that everything else keeps its bytes (key order, layout, spacing);
// a YAML file through yaml.v3's nodes, which keep comments, key order and
// the style of each value, written with the file's indentation. Edits
// that overlap an earlier one are left for another round.
func applyEdits(name string, data []byte, edits []edit) ([]byte, error) {
	if strings.EqualFold(filepath.Ext(name), ".json") {
		return applyJSON(name, data, edits)
	}
	return applyYAML(data, edits)
}

// nodeAt returns the node at segs, or nil.
func nodeAt(n *spec.Node, segs []any) *spec.Node {
	for _, s := range segs {
		if n == nil {
			return nil
		}
		switch s := s.(type) {
		case string:
			if n.Kind != spec.Object {
				return nil
			}
			n = n.Get(s)
		case int:
			if n.Kind != spec.Array || s < 0 || s >= len(n.Items) {
				return nil
			}
			n = n.Items[s]
		}
	}
	return n
}

// splice is one replacement of a byte range.
type splice struct {
	start, end int
	text       string
}

func applyJSON(name string, data []byte, edits []edit) ([]byte, error) {
	root, err := spec.Parse(name, data, DefaultLimits())
	if err != nil {
		return nil, err
	}
	src := newSource(name, data)
	unit := indentUnit(data)
	off := func(p spec.Pos) int { return src.offset(p) }
	lineIndent := func(p spec.Pos) string {
		start := src.lines[p.Line-1]
		end := start
		for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
			end++
		}
		return string(data[start:end])
	}
	oneLine := func(n *spec.Node) bool { return n.Range.Start.Line == n.Range.End.Line }
	var splices []splice
	for _, e := range edits {
		switch e.kind {
		case editSet:
			n := nodeAt(root, e.segs)
			if n == nil || len(e.segs) == 0 {
				continue
			}
			parent := nodeAt(root, e.segs[:len(e.segs)-1])
			text := encodeJSON(e.value, lineIndent(n.Range.Start), unit, oneLine(parent))
			splices = append(splices, splice{off(n.Range.Start), off(n.Range.End), text})
		case editRemove:
			if len(e.segs) == 0 {
				continue
			}
			parent := nodeAt(root, e.segs[:len(e.segs)-1])
			key, ok := e.segs[len(e.segs)-1].(string)
			if parent == nil || parent.Kind != spec.Object || !ok {
				continue
			}
			i := slices.IndexFunc(parent.Fields, func(f spec.Field) bool { return f.Key == key })
			if i < 0 {
				continue
			}
			f := parent.Fields[i]
			switch {
			case i+1 < len(parent.Fields):
				splices = append(splices, splice{off(f.KeyRange.Start), off(parent.Fields[i+1].KeyRange.Start), ""})
			case i > 0:
				splices = append(splices, splice{off(parent.Fields[i-1].Value.Range.End), off(f.Value.Range.End), ""})
			default:
				splices = append(splices, splice{off(parent.Range.Start), off(parent.Range.End), "{}"})
			}
		case editAdd:
			n := nodeAt(root, e.segs)
			if n == nil || n.Kind != spec.Object {
				continue
			}
			key, _ := json.Marshal(e.key)
			if len(n.Fields) == 0 {
				text := encodeJSON(map[string]any{e.key: e.value}, lineIndent(n.Range.Start), unit, true)
				splices = append(splices, splice{off(n.Range.Start), off(n.Range.End), text})
				continue
			}
			last := n.Fields[len(n.Fields)-1]
			at := off(last.Value.Range.End)
			if oneLine(n) {
				splices = append(splices, splice{at, at, ", " + string(key) + ": " + encodeJSON(e.value, "", unit, true)})
				continue
			}
			indent := lineIndent(last.KeyRange.Start)
			splices = append(splices, splice{at, at, ",\n" + indent + string(key) + ": " + encodeJSON(e.value, indent, unit, false)})
		}
	}
	// A splice inside a larger one (a value repaired in a member that is
	// removed) gives way to it. Then later places first, so that earlier
	// offsets hold (of two insertions at one place, the later edit first,
	// so that they read in order); a splice overlapping one already made
	// waits for the next round.
	var kept []splice
	for _, s := range splices {
		if !slices.ContainsFunc(splices, func(o splice) bool { return covers(o, s) }) {
			kept = append(kept, s)
		}
	}
	splices = kept
	order := make([]int, len(splices))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if splices[a].start != splices[b].start {
			return splices[b].start - splices[a].start
		}
		return b - a
	})
	out := slices.Clone(data)
	bound := len(data)
	for _, i := range order {
		s := splices[i]
		if s.start < 0 || s.end < s.start || s.end > bound {
			continue
		}
		out = slices.Concat(out[:s.start], []byte(s.text), out[s.end:])
		bound = s.start
	}
	return out, nil
}

// covers reports whether splice o covers splice s and is larger: an
// insertion is covered only strictly inside.
func covers(o, s splice) bool {
	if o.end-o.start <= s.end-s.start {
		return false
	}
	if s.start == s.end {
		return o.start < s.start && s.end < o.end
	}
	return o.start <= s.start && s.end <= o.end
}

// indentUnit is the indentation a file uses per level: the leading
// whitespace of its first indented line, two spaces when it has none.
func indentUnit(data []byte) string {
	for _, line := range bytes.Split(data, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) > 0 && len(trimmed) < len(line) && trimmed[0] != '#' {
			return string(line[:len(line)-len(trimmed)])
		}
	}
	return "  "
}

// encodeJSON writes a value: compact with spaces after separators, as
// people write one-line objects, or indented under indent.
func encodeJSON(v any, indent, unit string, compact bool) string {
	var b strings.Builder
	writeJSON(&b, v, indent, unit, compact)
	return b.String()
}

func writeJSON(b *strings.Builder, v any, indent, unit string, compact bool) {
	// item starts the i-th member or element; end closes the container.
	item := func(i int) {
		if i > 0 {
			b.WriteByte(',')
		}
		if !compact {
			b.WriteString("\n" + indent + unit)
		} else if i > 0 {
			b.WriteByte(' ')
		}
	}
	end := func(c byte) {
		if !compact {
			b.WriteString("\n" + indent)
		}
		b.WriteByte(c)
	}
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			item(i)
			writeString(b, k)
			b.WriteString(": ")
			writeJSON(b, v[k], indent+unit, unit, compact)
		}
		end('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, it := range v {
			item(i)
			writeJSON(b, it, indent+unit, unit, compact)
		}
		end(']')
	case string:
		writeString(b, v)
	default:
		b.WriteString(contract.InlineText(v))
	}
}

func writeString(b *strings.Builder, s string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func applyYAML(data []byte, edits []edit) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("not a YAML document")
	}
	root := doc.Content[0]
	changed := false
	for _, e := range edits {
		switch e.kind {
		case editSet:
			if len(e.segs) == 0 {
				continue
			}
			parent := yamlAt(root, e.segs[:len(e.segs)-1])
			slot := yamlSlot(parent, e.segs[len(e.segs)-1])
			if slot == nil {
				continue
			}
			n, err := yamlvalue.Node(e.value)
			if err != nil {
				return nil, err
			}
			if (*slot).Style&yaml.FlowStyle != 0 || parent.Style&yaml.FlowStyle != 0 {
				n.Style |= yaml.FlowStyle
			}
			n.LineComment, n.HeadComment, n.FootComment = (*slot).LineComment, (*slot).HeadComment, (*slot).FootComment
			*slot = n
			changed = true
		case editRemove:
			if len(e.segs) == 0 {
				continue
			}
			parent := yamlAt(root, e.segs[:len(e.segs)-1])
			key, ok := e.segs[len(e.segs)-1].(string)
			if parent == nil || parent.Kind != yaml.MappingNode || !ok {
				continue
			}
			for i := 0; i+1 < len(parent.Content); i += 2 {
				if parent.Content[i].Value == key {
					parent.Content = slices.Delete(parent.Content, i, i+2)
					changed = true
					break
				}
			}
		case editAdd:
			n := yamlAt(root, e.segs)
			if n == nil || n.Kind != yaml.MappingNode {
				continue
			}
			v, err := yamlvalue.Node(e.value)
			if err != nil {
				return nil, err
			}
			if n.Style&yaml.FlowStyle != 0 {
				v.Style |= yaml.FlowStyle
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.key}, v)
			changed = true
		}
	}
	if !changed {
		return data, nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(len(strings.ReplaceAll(indentUnit(data), "\t", "  ")))
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// yamlAt returns the node at segs, through aliases.
func yamlAt(n *yaml.Node, segs []any) *yaml.Node {
	for _, s := range segs {
		if n == nil {
			return nil
		}
		slot := yamlSlot(n, s)
		if slot == nil {
			return nil
		}
		n = *slot
	}
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// yamlSlot returns where the child seg of a mapping or sequence is held.
func yamlSlot(n *yaml.Node, seg any) **yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil {
		return nil
	}
	switch s := seg.(type) {
	case string:
		if n.Kind != yaml.MappingNode {
			return nil
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == s {
				return &n.Content[i+1]
			}
		}
	case int:
		if n.Kind != yaml.SequenceNode || s < 0 || s >= len(n.Content) {
			return nil
		}
		return &n.Content[s]
	}
	return nil
}
