package studio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/specgate/specgate/internal/yamlvalue"
	"github.com/specgate/specgate/spec"
)

// The actions edit YAML and JSON files as text: each change is a splice at
// the positions the loader gives, so that everything the change does not
// touch (comments, key order, quoting, indentation, blank lines) stays
// byte-identical. Inserted values are written in the file's own style:
// block YAML indented as its neighbours, or JSON indented as its siblings.

// omap is an object whose keys keep their order; the values actions write
// are omap, []any, string, json.Number, bool and nil.
type omap []kv

type kv struct {
	Key   string
	Value any
}

// decodeOrdered decodes JSON keeping the order of object keys.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			out := omap{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, kv{kt.(string), v})
			}
			_, err := dec.Token()
			return out, err
		case '[':
			out := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token()
			return out, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// fromNode converts a spec node into an ordered value.
func fromNode(n *spec.Node) any {
	switch n.Kind {
	case spec.Object:
		out := make(omap, 0, len(n.Fields))
		for _, f := range n.Fields {
			out = append(out, kv{f.Key, fromNode(f.Value)})
		}
		return out
	case spec.Array:
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = fromNode(it)
		}
		return out
	case spec.Bool:
		return n.Value == "true"
	case spec.Number:
		return json.Number(n.Value)
	case spec.String:
		return n.Value
	}
	return nil
}

// textFile is one file being edited: its text, its parsed tree, and the
// splices to make.
type textFile struct {
	name    string
	data    []byte
	root    *spec.Node
	json    bool
	lines   []int // byte offset of each line's start
	unit    string
	splices []splice
}

type splice struct {
	start, end int
	text       string
}

func newTextFile(name string, data []byte, root *spec.Node) *textFile {
	t := &textFile{name: name, data: data, root: root}
	t.lines = append(t.lines, 0)
	for i, b := range data {
		if b == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	t.json = len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
	t.unit = t.indentUnit()
	return t
}

// parseTextFile parses data and returns it ready for edits.
func parseTextFile(name string, data []byte) (*textFile, error) {
	root, err := spec.Parse(name, data, spec.DefaultLimits())
	if err != nil {
		return nil, err
	}
	return newTextFile(name, data, root), nil
}

// indentUnit is the file's indentation step: the first indentation
// written, else two spaces.
func (t *textFile) indentUnit() string {
	for i := 1; i < len(t.lines); i++ {
		line := t.line(i + 1)
		n := len(line) - len(strings.TrimLeft(line, " "))
		if n > 0 && n < len(line) && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			return strings.Repeat(" ", n)
		}
	}
	return "  "
}

// line is the text of a 1-based line, without its line break.
func (t *textFile) line(n int) string {
	if n < 1 || n > len(t.lines) {
		return ""
	}
	start, end := t.lines[n-1], len(t.data)
	if n < len(t.lines) {
		end = t.lines[n] - 1
	}
	return strings.TrimRight(string(t.data[start:end]), "\r")
}

// offset is the byte offset of a position (columns count characters).
func (t *textFile) offset(p spec.Pos) int {
	line := int(p.Line)
	if line < 1 {
		return 0
	}
	if line > len(t.lines) {
		return len(t.data)
	}
	off := t.lines[line-1]
	for col := int32(1); col < p.Col && off < len(t.data) && t.data[off] != '\n'; col++ {
		_, size := utf8.DecodeRune(t.data[off:])
		off += size
	}
	return off
}

// lineEnd is the offset just past the line break of the line holding off
// (the end of the text on the last line).
func (t *textFile) lineEnd(off int) int {
	if i := bytes.IndexByte(t.data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(t.data)
}

func (t *textFile) lineStart(off int) int {
	return bytes.LastIndexByte(t.data[:off], '\n') + 1
}

// indentOf is the leading spaces of a 1-based line.
func (t *textFile) indentOf(line int32) string {
	l := t.line(int(line))
	return l[:len(l)-len(strings.TrimLeft(l, " "))]
}

func (t *textFile) add(start, end int, text string) {
	t.splices = append(t.splices, splice{start, end, text})
}

// result applies the splices.
func (t *textFile) result() ([]byte, error) {
	sp := slices.Clone(t.splices)
	sort.SliceStable(sp, func(i, j int) bool { return sp[i].start < sp[j].start })
	var out bytes.Buffer
	at := 0
	for _, s := range sp {
		if s.start < at {
			return nil, fmt.Errorf("%s: two edits overlap at byte %d", t.name, s.start)
		}
		out.Write(t.data[at:s.start])
		out.WriteString(s.text)
		at = s.end
	}
	out.Write(t.data[at:])
	return out.Bytes(), nil
}

func (t *textFile) isFlow(n *spec.Node) bool {
	off := t.offset(n.Range.Start)
	return off < len(t.data) && (t.data[off] == '{' || t.data[off] == '[')
}

// addField adds key: value at the end of the object obj.
func (t *textFile) addField(obj *spec.Node, key string, value any) error {
	if obj.Kind != spec.Object {
		return fmt.Errorf("%s:%d: %s is not an object", t.name, obj.Range.Start.Line, key)
	}
	if obj.Field(key) != nil {
		return fmt.Errorf("%s:%d: %q is there already", t.name, obj.Range.Start.Line, key)
	}
	if t.json {
		return t.addJSONField(obj, key, value)
	}
	if len(obj.Fields) == 0 || t.isFlow(obj) {
		if len(obj.Fields) > 0 {
			return fmt.Errorf("%s:%d: the studio adds keys to block mappings, not to flow ones ({…}); write this one as a block", t.name, obj.Range.Start.Line)
		}
		// key: {} becomes a block under its key.
		indent := t.indentOf(obj.Range.Start.Line) + t.unit
		start, end := t.offset(obj.Range.Start), t.offset(obj.Range.End)
		for start > 0 && t.data[start-1] == ' ' {
			start-- // no space is left at the end of the key's line
		}
		t.add(start, end, strings.TrimRight("\n"+yamlField(indent, t.unit, key, value), "\n"))
		return nil
	}
	last := obj.Fields[len(obj.Fields)-1]
	indent := strings.Repeat(" ", int(obj.Fields[0].KeyRange.Start.Col)-1)
	if first := t.offset(obj.Fields[0].KeyRange.Start); strings.TrimSpace(string(t.data[t.lineStart(first):first])) != "" {
		// The first key follows "- " on its line: its column is the
		// indentation of the mapping's keys.
		indent = strings.Repeat(" ", utf8.RuneCount(t.data[t.lineStart(first):first]))
	}
	at := t.lineEnd(t.offset(last.Value.Range.End))
	text := yamlField(indent, t.unit, key, value)
	if at == len(t.data) && (len(t.data) == 0 || t.data[len(t.data)-1] != '\n') {
		text = "\n" + strings.TrimRight(text, "\n")
	}
	t.add(at, at, text)
	return nil
}

func (t *textFile) addJSONField(obj *spec.Node, key string, value any) error {
	start, end := t.offset(obj.Range.Start), t.offset(obj.Range.End)
	k := jsonScalar(key)
	if len(obj.Fields) == 0 {
		indent := t.indentOf(obj.Range.Start.Line)
		t.add(start, end, "{\n"+indent+t.unit+string(k)+": "+jsonText(value, indent+t.unit, t.unit)+"\n"+indent+"}")
		return nil
	}
	last := obj.Fields[len(obj.Fields)-1]
	at := t.offset(last.Value.Range.End)
	if obj.Fields[0].KeyRange.Start.Line == obj.Range.Start.Line {
		// An object written on one line gets its new key on that line.
		t.add(at, at, ", "+string(k)+": "+jsonText(value, "", ""))
		return nil
	}
	indent := strings.Repeat(" ", int(obj.Fields[0].KeyRange.Start.Col)-1)
	t.add(at, at, ",\n"+indent+string(k)+": "+jsonText(value, indent, t.unit))
	return nil
}

// removeFields removes keys from obj. Removing every key of a YAML block
// mapping leaves its key with an empty mapping ({}); callers remove the
// parent instead when that is wanted.
func (t *textFile) removeFields(obj *spec.Node, keys []string) error {
	gone := make([]bool, len(obj.Fields))
	count := 0
	for i, f := range obj.Fields {
		if slices.Contains(keys, f.Key) {
			gone[i] = true
			count++
		}
	}
	if count == 0 {
		return nil
	}
	if count == len(obj.Fields) {
		start, end := t.offset(obj.Range.Start), t.offset(obj.Range.End)
		if !t.json && !t.isFlow(obj) {
			// The block goes; its key keeps an empty mapping.
			keyLineEnd := t.lineStart(start) - 1
			if keyLineEnd < 0 {
				keyLineEnd = 0
			}
			blockEnd := t.lineEnd(end)
			if blockEnd > 0 && t.data[blockEnd-1] == '\n' {
				blockEnd--
			}
			t.add(keyLineEnd, blockEnd, " {}")
			return nil
		}
		t.add(start, end, "{}")
		return nil
	}
	if t.json || t.isFlow(obj) {
		for i := 0; i < len(obj.Fields); {
			if !gone[i] {
				i++
				continue
			}
			j := i
			for j+1 < len(obj.Fields) && gone[j+1] {
				j++
			}
			if i > 0 {
				t.add(t.offset(obj.Fields[i-1].Value.Range.End), t.offset(obj.Fields[j].Value.Range.End), "")
			} else {
				t.add(t.offset(obj.Fields[0].KeyRange.Start), t.offset(obj.Fields[j+1].KeyRange.Start), "")
			}
			i = j + 1
		}
		return nil
	}
	for i, f := range obj.Fields {
		if !gone[i] {
			continue
		}
		start := t.lineStart(t.offset(f.KeyRange.Start))
		end := t.lineEnd(t.offset(f.Value.Range.End))
		if i+1 < len(obj.Fields) {
			// Comment lines between this key and the next belong to the
			// next one.
			end = min(end, t.lineStart(t.offset(obj.Fields[i+1].KeyRange.Start)))
		}
		if i == 0 && strings.TrimSpace(string(t.data[start:t.offset(f.KeyRange.Start)])) != "" {
			return fmt.Errorf("%s:%d: the first key of a list item cannot be removed alone", t.name, f.KeyRange.Start.Line)
		}
		t.add(start, end, "")
	}
	return nil
}

// replace replaces a value's text.
func (t *textFile) replace(n *spec.Node, text string) {
	t.add(t.offset(n.Range.Start), t.offset(n.Range.End), text)
}

// yamlField writes key: value as block YAML at indent, ending in a line
// break.
func yamlField(indent, unit, key string, value any) string {
	k := yamlScalar(key)
	switch v := value.(type) {
	case omap:
		if len(v) == 0 {
			return indent + k + ": {}\n"
		}
	case []any:
		if len(v) == 0 {
			return indent + k + ": []\n"
		}
	default:
		return indent + k + ": " + yamlScalar(value) + "\n"
	}
	var b strings.Builder
	b.WriteString(indent + k + ":\n")
	for _, line := range strings.Split(strings.TrimRight(yamlBlock(value, len(unit)), "\n"), "\n") {
		b.WriteString(indent + unit + line + "\n")
	}
	return b.String()
}

// yamlBlock renders a container as block YAML with yaml.v3, whose quoting
// rules keep every string a string.
func yamlBlock(v any, indent int) string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(max(indent, 2))
	_ = enc.Encode(yamlNode(v))
	_ = enc.Close()
	return b.String()
}

func yamlScalar(v any) string {
	s := strings.TrimSuffix(yamlBlock(v, 2), "\n")
	if strings.Contains(s, "\n") {
		// A multi-line string: write it as a JSON string, which YAML reads.
		return string(jsonScalar(v))
	}
	return s
}

// yamlNode is v as a YAML node, an omap's keys in their order and a map's
// sorted.
func yamlNode(v any) *yaml.Node {
	switch x := v.(type) {
	case omap:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, e := range x {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.Key}, yamlNode(e.Value))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, it := range x {
			n.Content = append(n.Content, yamlNode(it))
		}
		return n
	case map[string]any:
		return yamlNode(yamlOrdered(x))
	}
	// Scalars are written as everywhere else (yamlvalue.Node); a value
	// that has no JSON encoding is written as Go prints it.
	if n, err := yamlvalue.Node(v); err == nil {
		return n
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprint(v)}
}

// jsonText renders v as JSON whose nested lines start at indent plus unit;
// an empty unit writes it on one line.
func jsonText(v any, indent, unit string) string {
	var b strings.Builder
	writeJSONValue(&b, v, indent, unit)
	return b.String()
}

func writeJSONValue(b *strings.Builder, v any, indent, unit string) {
	nl := func(in string) {
		if unit != "" {
			b.WriteString("\n" + in)
		}
	}
	sep := ", "
	if unit != "" {
		sep = ","
	}
	// members writes an object or array of n members between its brackets,
	// each on its own line when unit is set.
	members := func(open, close string, n int, member func(i int)) {
		b.WriteString(open)
		for i := range n {
			if i > 0 {
				b.WriteString(sep)
			}
			nl(indent + unit)
			member(i)
		}
		if n > 0 {
			nl(indent)
		}
		b.WriteString(close)
	}
	switch x := v.(type) {
	case omap:
		members("{", "}", len(x), func(i int) {
			b.Write(jsonScalar(x[i].Key))
			b.WriteString(": ")
			writeJSONValue(b, x[i].Value, indent+unit, unit)
		})
	case []any:
		members("[", "]", len(x), func(i int) { writeJSONValue(b, x[i], indent+unit, unit) })
	case map[string]any:
		writeJSONValue(b, yamlOrdered(x), indent, unit)
	default:
		b.Write(jsonScalar(x))
	}
}

// jsonScalar encodes a key or scalar as JSON without HTML escaping: a
// value "<a&b>" is written as is, as people write it in a spec.
func jsonScalar(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// yamlOrdered is a map's entries in the order of their keys.
func yamlOrdered(m map[string]any) omap {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(omap, 0, len(keys))
	for _, k := range keys {
		out = append(out, kv{k, m[k]})
	}
	return out
}

// child returns the value at key of obj, or nil.
func child(obj *spec.Node, key string) *spec.Node {
	if obj == nil || obj.Kind != spec.Object {
		return nil
	}
	return obj.Get(key)
}
