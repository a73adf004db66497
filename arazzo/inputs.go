package arazzo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/specgate/specgate/schema"
)

// ExampleInputs generates, for each workflow that declares inputs, a value
// its inputs schema accepts (deterministic for the seed): the file that
// specgate test --inputs and run-suite --inputs read, keyed by workflowId.
// specgate examples generate writes it for an Arazzo document
// (MarshalInputs).
func ExampleInputs(d *Description, seed uint64) (map[string]any, error) {
	set := schema.NewSet(d.Doc)
	gen := schema.NewGenerator(seed)
	out := map[string]any{}
	for _, w := range d.Workflows {
		if w.Inputs == nil {
			continue
		}
		sch, err := set.Compile(w.Inputs, w.InputsPath)
		if err != nil {
			return nil, fmt.Errorf("workflow %q: %w", w.ID, err)
		}
		v, err := sch.Generate(gen, schema.Request)
		if err != nil {
			return nil, fmt.Errorf("workflow %q: %w", w.ID, err)
		}
		out[w.ID] = v
	}
	return out, nil
}

// MarshalInputs writes inputs by workflowId as the YAML file --inputs
// reads: the workflows in the document's order (those without inputs
// left out), the members of objects sorted, under a comment that says
// how to use it.
func MarshalInputs(d *Description, inputs map[string]any) ([]byte, error) {
	root := &yaml.Node{Kind: yaml.MappingNode,
		HeadComment: fmt.Sprintf("Inputs of the workflows of %s, by workflowId:\nspecgate test %[1]s --inputs FILE (or run-suite --inputs FILE)", d.Doc.Root.Name)}
	for _, w := range d.Workflows {
		v, ok := inputs[w.ID]
		if !ok {
			continue
		}
		n, err := yamlValue(v)
		if err != nil {
			return nil, fmt.Errorf("workflow %q: %w", w.ID, err)
		}
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: w.ID}
		if w.Summary != "" {
			key.HeadComment = w.Summary
		}
		root.Content = append(root.Content, key, n)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// yamlValue is the node of a JSON value: numbers keep their text, strings
// are always strings (quoted where YAML would read them otherwise).
func yamlValue(v any) (*yaml.Node, error) {
	switch x := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(x)}, nil
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(string(x), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(x)}, nil
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x}, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, it := range x {
			c, err := yamlValue(it)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			c, err := yamlValue(x[k])
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, c)
		}
		return n, nil
	}
	// Other Go values (int, float64, structs) go through their JSON.
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
	return yamlValue(j) // a decoded value is of the kinds above
}
