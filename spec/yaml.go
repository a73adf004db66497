package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// parseYAML parses one YAML document into a node tree. Aliases share the
// anchored node; their expanded size is bounded so an alias bomb is an error,
// not an allocation storm.
func parseYAML(data []byte, lim Limits) (*Node, error) {
	data = loneCRToLF(data)
	if !utf8.Valid(data) {
		return nil, invalidUTF8(data)
	}
	var doc yaml.Node
	if pieces, ok := parseInPieces(data, yamlPieces()); ok {
		doc = *pieces
	} else if err := decodeOne(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		if n, ok := convertInParallel(doc.Content[0], data, lim); ok {
			return n, nil
		}
		c := newYAMLConv(doc.Content[0], data, lim)
		n, err := c.node(doc.Content[0], 0)
		if err != nil {
			return nil, err
		}
		if err := c.checkAliases(n); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, &SyntaxError{Pos: Pos{1, 1}, Msg: "empty document"}
}

// decodeOne parses data, which must hold one YAML document, into doc.
func decodeOne(data []byte, doc *yaml.Node) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &SyntaxError{Pos: Pos{1, 1}, Msg: "empty document"}
		}
		return yamlError(err, data)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return &SyntaxError{Pos: Pos{int32(extra.Line), int32(extra.Column)}, Msg: "a second YAML document starts here; a specification file holds one document"}
	} else if !errors.Is(err, io.EOF) {
		return yamlError(err, data)
	}
	return nil
}

type yamlConv struct {
	lim     Limits
	src     []byte
	memo    map[*yaml.Node]*Node
	size    map[*Node]int64
	real    int
	aliases []yamlAlias // every alias converted, for the alias bomb check
	// mergeBudget is how many fields merge keys (<<) may still copy: a
	// multiple of the values written in the file (root), counted at the
	// first merge key.
	mergeBudget int64
	budgeted    bool
	root        *yaml.Node
	// shared is set when an anchor, an alias or a merge key was met: what
	// only one conversion of the whole tree can do right (see
	// convertInParallel).
	shared bool
	// given is a top-level value another converter converts, and get
	// waits for it (see convertInParallel).
	given *yaml.Node
	get   func() (*Node, error)
	// indent is the indentation of the block collection holding the value
	// being converted: continuation lines of its scalars are indented more.
	indent int
	// lineOff[i] is the byte offset of line i+1, built on first use.
	lineOff []int
	// strs interns keys and string values, as the JSON parser does: the
	// YAML parser allocates each scalar anew.
	strs *stringTable
}

func newYAMLConv(root *yaml.Node, src []byte, lim Limits) *yamlConv {
	return &yamlConv{lim: lim, src: src, root: root, memo: map[*yaml.Node]*Node{}, size: map[*Node]int64{}, strs: newStringTable()}
}

// intern returns the string equal to s that the tree already holds, if
// any.
func (c *yamlConv) intern(s string) string { return c.strs.string(s) }

// parallelYAML is the size from which a YAML file's largest top-level
// value is converted on a core of its own, so that one core does not
// convert it all while the other waits.
var parallelYAML = 1 << 20

// convertInParallel converts a large document's largest top-level value
// (the paths or the components of an API) beside the rest, on two cores.
// Anchors, aliases and merge keys tie parts of the tree together (an
// alias converts to its anchor's node, budgets count the whole file), and
// limits and errors are the whole tree's: when either side meets one of
// them, or fails, false is returned, and the caller converts the tree in
// one piece, which finds the same values and reports the first error in
// the file's order, as always.
func convertInParallel(root *yaml.Node, src []byte, lim Limits) (*Node, bool) {
	if len(src) < parallelYAML || runtime.GOMAXPROCS(0) < 2 || root.Kind != yaml.MappingNode || len(root.Content) < 4 {
		return nil, false
	}
	main, side := newYAMLConv(root, src, lim), newYAMLConv(root, src, lim)
	main.lineOff = main.lineOffsets() // built once, read by both
	side.lineOff = main.lineOff
	// The largest value, by the lines between its key and the next.
	big := 1
	span := func(i int) int {
		if i+1 < len(root.Content) {
			return root.Content[i+1].Line - root.Content[i-1].Line
		}
		return len(main.lineOff) - root.Content[i-1].Line
	}
	for i := 3; i < len(root.Content); i += 2 {
		if span(i) > span(big) {
			big = i
		}
	}
	var v *Node
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		side.indent = root.Content[big-1].Column - 1
		v, err = side.node(root.Content[big], 1)
	}()
	main.given, main.get = root.Content[big], func() (*Node, error) {
		<-done
		return v, err
	}
	n, mainErr := main.node(root, 0)
	<-done
	if mainErr != nil || err != nil || main.shared || side.shared || (lim.MaxNodes > 0 && main.real+side.real > lim.MaxNodes) {
		return nil, false
	}
	return n, true
}

func (c *yamlConv) pos(line, col int) Pos { return Pos{Line: int32(line), Col: int32(col)} }

func (c *yamlConv) node(y *yaml.Node, depth int) (*Node, error) {
	if depth > c.lim.MaxDepth {
		return nil, &SyntaxError{Pos: c.pos(y.Line, y.Column), Msg: fmt.Sprintf("nesting deeper than %d levels (--max-depth)", c.lim.MaxDepth)}
	}
	if y.Kind == yaml.AliasNode || y.Anchor != "" {
		c.shared = true
	}
	if y.Kind == yaml.AliasNode {
		if y.Alias == nil {
			return nil, &SyntaxError{Pos: c.pos(y.Line, y.Column), Msg: "alias to an unknown anchor"}
		}
		if n, ok := c.memo[y.Alias]; ok && n != nil {
			c.aliases = append(c.aliases, yamlAlias{y, n})
			return n, nil
		}
		if _, ok := c.memo[y.Alias]; ok {
			return nil, &SyntaxError{Pos: c.pos(y.Line, y.Column), Msg: fmt.Sprintf("alias *%s refers to a node that contains it", y.Value)}
		}
		n, err := c.node(y.Alias, depth)
		if err == nil {
			c.aliases = append(c.aliases, yamlAlias{y, n})
		}
		return n, err
	}
	if y.Anchor != "" {
		if n, ok := c.memo[y]; ok && n != nil {
			return n, nil
		}
		c.memo[y] = nil // in progress: an alias inside it is a cycle
	}
	c.real++
	if c.lim.MaxNodes > 0 && c.real > c.lim.MaxNodes {
		return nil, &SyntaxError{Pos: c.pos(y.Line, y.Column), Msg: fmt.Sprintf("document has more than %d values (--max-values)", c.lim.MaxNodes)}
	}
	n := &Node{Range: Range{Start: c.pos(y.Line, y.Column)}}
	switch y.Kind {
	case yaml.MappingNode:
		n.Kind = Object
		last, err := c.mapping(n, y, depth)
		if err != nil {
			return nil, err
		}
		n.Range.End = c.containerEnd(y, n.Range.Start, len(y.Content) == 0, last)
	case yaml.SequenceNode:
		n.Kind = Array
		n.Items = make([]*Node, 0, len(y.Content))
		var last Pos
		for _, it := range y.Content {
			c.indent = y.Column - 1
			v, err := c.node(it, depth+1)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, v)
			last = c.valueEnd(it, v)
		}
		n.Range.End = c.containerEnd(y, n.Range.Start, len(y.Content) == 0, last)
	case yaml.ScalarNode:
		c.scalar(n, y)
		n.Range.End = c.scalarEnd(y)
	default:
		return nil, &SyntaxError{Pos: c.pos(y.Line, y.Column), Msg: "unexpected YAML node"}
	}
	if y.Anchor != "" {
		c.memo[y] = n
	}
	return n, nil
}

// mapping converts the pairs of y into n.Fields and returns where the last
// value written in y ends.
func (c *yamlConv) mapping(n *Node, y *yaml.Node, depth int) (Pos, error) {
	n.Fields = make([]Field, 0, len(y.Content)/2)
	var merges []*Node
	var index map[string]int
	var last Pos
	for i := 0; i+1 < len(y.Content); i += 2 {
		ky, vy := y.Content[i], y.Content[i+1]
		key, keyEnd, err := c.key(ky)
		if err != nil {
			return Pos{}, err
		}
		c.indent = ky.Column - 1
		var v *Node
		if depth == 0 && vy == c.given {
			v, err = c.get()
		} else {
			v, err = c.node(vy, depth+1)
		}
		if err != nil {
			return Pos{}, err
		}
		last = c.valueEnd(vy, v)
		if ky.Kind == yaml.ScalarNode && ky.Tag == "!!merge" && ky.Value == "<<" {
			c.shared = true
			if !c.budgeted {
				c.mergeBudget, c.budgeted = aliasBudget(c.lim, countWritten(c.root)), true
			}
			if merges, err = c.merges(merges, ky, vy, v); err != nil {
				return Pos{}, err
			}
			continue
		}
		if f := findField(n.Fields, &index, key); f != nil {
			return Pos{}, &SyntaxError{Pos: c.pos(ky.Line, ky.Column), Msg: fmt.Sprintf("duplicate key %q (first defined at %d:%d)", key, f.KeyRange.Start.Line, f.KeyRange.Start.Col)}
		}
		start := c.pos(ky.Line, ky.Column)
		n.Fields = append(n.Fields, Field{Key: key, KeyRange: Range{Start: start, End: keyEnd}, Value: v})
		if index != nil {
			index[key] = len(n.Fields) - 1
		}
	}
	// Merge keys (<<) add the fields the mapping does not define itself.
	for _, m := range merges {
		for _, f := range m.Fields {
			if findField(n.Fields, &index, f.Key) == nil {
				n.Fields = append(n.Fields, f)
				if index != nil {
					index[f.Key] = len(n.Fields) - 1
				}
			}
		}
	}
	return last, nil
}

// key reads a mapping key: a scalar, or an alias to one (an alias stands
// for its anchored value, wherever it is written).
func (c *yamlConv) key(ky *yaml.Node) (string, Pos, error) {
	switch {
	case ky.Kind == yaml.ScalarNode:
		return c.intern(ky.Value), c.scalarEnd(ky), nil
	case ky.Kind == yaml.AliasNode && ky.Alias != nil && ky.Alias.Kind == yaml.ScalarNode:
		return c.intern(ky.Alias.Value), c.valueEnd(ky, nil), nil
	case ky.Kind == yaml.AliasNode && ky.Alias != nil:
		return "", Pos{}, &SyntaxError{Pos: c.pos(ky.Line, ky.Column), Msg: fmt.Sprintf("mapping keys must be scalars; *%s stands for a %s", ky.Value, yamlKindName(ky.Alias.Kind))}
	}
	return "", Pos{}, &SyntaxError{Pos: c.pos(ky.Line, ky.Column), Msg: "mapping keys must be scalars"}
}

func yamlKindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	}
	return "scalar"
}

// merges adds the mappings a merge key (<<) names: a mapping or a sequence
// of mappings, as YAML's merge key type defines. Each copies its fields,
// which is charged to the merge budget so that many merges of a large
// mapping cannot cost the square of the file's size. vy is the value as
// written, for positions: an alias is reported where it is used.
func (c *yamlConv) merges(merges []*Node, ky, vy *yaml.Node, v *Node) ([]*Node, error) {
	add := func(m *Node, at *yaml.Node) error {
		if m.Kind != Object {
			return &SyntaxError{Pos: c.pos(at.Line, at.Column), Msg: fmt.Sprintf("the merge key << takes a mapping or a sequence of mappings, found %s", m.Kind)}
		}
		if c.mergeBudget -= int64(len(m.Fields)); c.mergeBudget < 0 {
			return &SyntaxError{Pos: c.pos(ky.Line, ky.Column), Msg: fmt.Sprintf("YAML merge keys copy more fields than %d times the values written plus 1000: an alias bomb? (--max-alias-expansion)", c.lim.MaxAliasFactor)}
		}
		merges = append(merges, m)
		return nil
	}
	if v.Kind != Array {
		return merges, add(v, vy)
	}
	for i, it := range v.Items {
		at := vy
		if vy.Kind == yaml.SequenceNode {
			at = vy.Content[i]
		}
		if err := add(it, at); err != nil {
			return nil, err
		}
	}
	return merges, nil
}

// findField returns the field for key: by a linear search in small
// mappings, through *index (built on first use) in large ones, so that a
// mapping of n keys is checked for duplicates in O(n).
func findField(fields []Field, index *map[string]int, key string) *Field {
	if *index == nil {
		if len(fields) < 16 {
			for i := range fields {
				if fields[i].Key == key {
					return &fields[i]
				}
			}
			return nil
		}
		*index = make(map[string]int, 2*len(fields))
		for i, f := range fields {
			(*index)[f.Key] = i
		}
	}
	if i, ok := (*index)[key]; ok {
		return &fields[i]
	}
	return nil
}

// scalar sets the kind and value of a scalar from its resolved YAML tag,
// giving YAML-only types their JSON meaning.
func (c *yamlConv) scalar(n *Node, y *yaml.Node) {
	n.Value = y.Value
	switch y.Tag {
	case "!!null":
		n.Kind, n.Value = Null, "null"
	case "!!bool":
		n.Kind = Bool
		if b, err := strconv.ParseBool(strings.ToLower(y.Value)); err == nil && b {
			n.Value = "true"
		} else {
			n.Value = "false"
		}
	case "!!int", "!!float":
		if lit, ok := jsonNumber(y.Value); ok {
			n.Kind, n.Value = Number, lit
		} else {
			n.Kind = String
		}
	case "!!str":
		n.Kind, n.Value = String, c.intern(y.Value)
		// yaml.v3 resolves a plain number beyond float64 (1e400) as a
		// string; YAML's core schema, and JSON, make it a number. Its
		// literal is kept as written, like every number's.
		if y.Style == 0 && isJSONNumber(y.Value) {
			n.Kind = Number
		}
	default:
		n.Kind, n.Value = String, c.intern(y.Value)
	}
}

// jsonNumber converts a YAML number literal into a JSON number literal.
func jsonNumber(s string) (string, bool) {
	if isJSONNumber(s) {
		return s, true
	}
	clean := strings.ReplaceAll(s, "_", "")
	if i, err := strconv.ParseInt(clean, 0, 64); err == nil {
		return strconv.FormatInt(i, 10), true
	}
	if f, err := strconv.ParseFloat(strings.TrimPrefix(clean, "+"), 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64), true
	}
	return "", false
}

func isJSONNumber(s string) bool {
	// One node of room: without it number() allocates a slab of 512.
	var room [1]Node
	p := &jsonParser{data: []byte(s), line: 1, slab: room[:]}
	if len(s) == 0 || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) {
		return false
	}
	_, err := p.number(Pos{})
	return err == nil && p.pos == len(s)
}
