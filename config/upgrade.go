package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/specgate/specgate/spec"
)

// ErrVersion3 is Upgrade's answer for a file that is version 3 already.
var ErrVersion3 = errors.New("the configuration is version 3 already: nothing to upgrade")

// Upgrade rewrites a version 2 configuration as version 3: YAML for a YAML
// file, with its comments kept where the values they belong to went, JSON
// for a JSON file. The file is loaded first, as every command loads it, so
// a file with problems is not upgraded (the error is Errors); the returned
// Config carries the warnings of that load. Every setting is kept: sources
// and specs become components, provides the system under test, consumes the
// dependencies, and the global test, stub (now mock) and strictMode
// settings go under specgate.settings, the global examples under
// specgate.data. Templates are written as they were, not expanded. A
// version 3 file is checked and gives ErrVersion3.
func Upgrade(path string, data []byte, opts Options) ([]byte, *Config, error) {
	root, version, err := parse(path, data)
	if err != nil {
		return nil, nil, err
	}
	if version == 3 {
		cfg, errs := resolve(path, root, 3, opts, false)
		if len(errs) > 0 {
			return nil, nil, errs
		}
		return nil, cfg, ErrVersion3
	}
	v3, errs := upgradeTree(path, root)
	if len(errs) > 0 {
		return nil, nil, Errors(sorted(errs))
	}
	cfg, rerrs := resolve(path, v3, 2, opts, true)
	if len(rerrs) > 0 {
		return nil, nil, rerrs
	}
	if t := bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		var b bytes.Buffer
		writeJSON(&b, v3, "")
		b.WriteByte('\n')
		return b.Bytes(), cfg, nil
	}
	out, err := writeYAML(v3, data)
	if err != nil {
		return nil, nil, Errors{{File: path, Msg: "cannot write the upgraded configuration: " + err.Error(), Err: err}}
	}
	return out, cfg, nil
}

// commentKey finds the node of the original file at a position: a key, or
// a value of a kind (a mapping starts where its first key does).
type commentKey struct {
	line, col int
	key       bool
	kind      yaml.Kind
}

// writeYAML writes a tree as YAML, giving each node the comments of the
// original node at its position (values moved by the upgrade keep theirs).
func writeYAML(n *spec.Node, original []byte) ([]byte, error) {
	comments := map[commentKey]*yaml.Node{}
	var doc yaml.Node
	if yaml.Unmarshal(original, &doc) == nil {
		indexComments(&doc, false, comments)
	}
	w := yamlWriter{comments: comments, used: map[*yaml.Node]bool{}}
	out := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{w.node(n)}}
	out.HeadComment, out.FootComment = doc.HeadComment, doc.FootComment
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func indexComments(y *yaml.Node, key bool, idx map[commentKey]*yaml.Node) {
	if y.HeadComment != "" || y.LineComment != "" || y.FootComment != "" {
		idx[commentKey{y.Line, y.Column, key, y.Kind}] = y
	}
	for i, c := range y.Content {
		indexComments(c, y.Kind == yaml.MappingNode && i%2 == 0, idx)
	}
}

type yamlWriter struct {
	comments map[commentKey]*yaml.Node
	used     map[*yaml.Node]bool // each comment is written once
}

// comment gives y the comments of the original node at its position. A
// key also takes those of a mapping that starts there and is not written
// itself (an item of a version 2 list that the upgrade dissolved).
func (w yamlWriter) comment(y *yaml.Node, at spec.Pos, key bool) {
	if at.Line == 0 {
		return
	}
	c := w.comments[commentKey{int(at.Line), int(at.Col), key, y.Kind}]
	if c == nil && key {
		c = w.comments[commentKey{int(at.Line), int(at.Col), false, yaml.MappingNode}]
	}
	if c == nil || w.used[c] {
		return
	}
	w.used[c] = true
	y.HeadComment, y.LineComment, y.FootComment = c.HeadComment, c.LineComment, c.FootComment
}

func (w yamlWriter) node(n *spec.Node) *yaml.Node {
	y := &yaml.Node{}
	switch n.Kind {
	case spec.Object:
		y.Kind, y.Tag = yaml.MappingNode, "!!map"
		for _, f := range n.Fields {
			k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.Key}
			w.comment(k, f.KeyRange.Start, true)
			y.Content = append(y.Content, k, w.node(f.Value))
		}
	case spec.Array:
		y.Kind, y.Tag = yaml.SequenceNode, "!!seq"
		for _, it := range n.Items {
			y.Content = append(y.Content, w.node(it))
		}
	case spec.String:
		y.Kind, y.Tag, y.Value = yaml.ScalarNode, "!!str", n.Value
		if strings.Contains(n.Value, "\n") {
			y.Style = yaml.LiteralStyle
		}
	case spec.Number:
		y.Kind, y.Tag, y.Value = yaml.ScalarNode, "!!int", n.Value
		if strings.ContainsAny(n.Value, ".eE") {
			y.Tag = "!!float"
		}
	case spec.Bool:
		y.Kind, y.Tag, y.Value = yaml.ScalarNode, "!!bool", n.Value
	default:
		y.Kind, y.Tag, y.Value = yaml.ScalarNode, "!!null", "null"
	}
	w.comment(y, n.Range.Start, false)
	return y
}

// writeJSON writes a tree as indented JSON, keys in their order.
func writeJSON(b *bytes.Buffer, n *spec.Node, indent string) {
	switch n.Kind {
	case spec.Object, spec.Array:
		open, close, count := byte('{'), byte('}'), len(n.Fields)
		if n.Kind == spec.Array {
			open, close, count = '[', ']', len(n.Items)
		}
		b.WriteByte(open)
		for i := 0; i < count; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n" + indent + "  ")
			if n.Kind == spec.Object {
				writeString(b, n.Fields[i].Key)
				b.WriteString(": ")
				writeJSON(b, n.Fields[i].Value, indent+"  ")
			} else {
				writeJSON(b, n.Items[i], indent+"  ")
			}
		}
		if count > 0 {
			b.WriteString("\n" + indent)
		}
		b.WriteByte(close)
	case spec.String:
		writeString(b, n.Value)
	case spec.Null:
		b.WriteString("null")
	default:
		b.WriteString(n.Value)
	}
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)           //nolint:errcheck // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}
