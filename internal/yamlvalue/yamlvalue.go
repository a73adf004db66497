// Package yamlvalue writes JSON values as YAML nodes, for the YAML files
// specgate writes or edits in place: the inputs and starter workflows of
// Arazzo documents, the external examples a fix or a completion rewrites.
// A value is what encoding/json decodes with UseNumber.
package yamlvalue

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Node is v as a YAML node: an object as a mapping with its keys sorted,
// an array as a sequence, a json.Number as the integer or float it is
// written as, a string always as a string (the encoder quotes one YAML
// would read as something else: "true", "1.0"), nil as null. Any other Go
// value (an int, a struct) is written as its JSON encoding decodes; the
// error is that encoding's.
func Node(v any) (*yaml.Node, error) {
	scalar := func(tag, value string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
	}
	switch x := v.(type) {
	case nil:
		return scalar("!!null", "null"), nil
	case bool:
		if x {
			return scalar("!!bool", "true"), nil
		}
		return scalar("!!bool", "false"), nil
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return scalar("!!float", string(x)), nil
		}
		return scalar("!!int", string(x)), nil
	case string:
		return scalar("!!str", x), nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, it := range x {
			c, err := Node(it)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			c, err := Node(x[k])
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, scalar("!!str", k), c)
		}
		return n, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var j any
	if err := d.Decode(&j); err != nil {
		return nil, err
	}
	return Node(j) // a decoded value is one of the kinds above
}
