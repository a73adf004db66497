package arazzo

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// TestExampleInputs: every workflow with inputs gets a value its schema
// accepts, the same for the same seed.
func TestExampleInputs(t *testing.T) {
	c := checked(t, "testdata/shop.arazzo.yaml")
	in, err := ExampleInputs(c.Description, 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 2 || in["login"] == nil || in["order"] == nil {
		t.Fatalf("inputs of %d workflows: %v", len(in), in)
	}
	set := schema.NewSet(c.Doc)
	for _, w := range c.Workflows {
		if w.Inputs == nil {
			continue
		}
		sch, err := set.Compile(w.Inputs, w.InputsPath)
		if err != nil {
			t.Fatal(err)
		}
		if probs := sch.Validate(in[w.ID], schema.Request); len(probs) > 0 {
			t.Errorf("%s: %v", w.ID, probs)
		}
	}
	again, _ := ExampleInputs(c.Description, 7)
	if a, b := canonicalJSON(in), canonicalJSON(again); a != b {
		t.Errorf("not deterministic: %s then %s", a, b)
	}
}

// TestMarshalInputs checks the inputs file of the specification's
// examples and of shop.arazzo.yaml: it reads back as the inputs it was
// written from (numbers as numbers, strings as strings), each workflow's
// inputs fit its schema, and the workflows come in the document's order
// under a comment naming the document.
func TestMarshalInputs(t *testing.T) {
	files := []string{"testdata/shop.arazzo.yaml"}
	if examples, _ := filepath.Glob(filepath.Join("..", "..", "shared", "arazzo", "examples", "1.0.0", "*arazzo*.yaml")); len(examples) > 0 {
		files = append(files, examples...)
	} else {
		t.Log("../shared/arazzo is not beside the repository: its examples are not read")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), file)
			if err != nil {
				t.Fatal(err)
			}
			d := Read(doc)
			in, err := ExampleInputs(d, 1)
			if err != nil {
				t.Fatal(err)
			}
			data, err := MarshalInputs(d, in)
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			if !strings.HasPrefix(text, "# Inputs of the workflows of "+file+", by workflowId:\n") {
				t.Errorf("no comment naming the document:\n%s", text)
			}
			root, err := spec.Parse("inputs.yaml", data, spec.DefaultLimits())
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if got, want := canonicalJSON(NodeValue(root)), canonicalJSON(in); got != want {
				t.Errorf("read back %s\nwritten from %s", got, want)
			}
			last := -1
			set := schema.NewSet(doc)
			for _, w := range d.Workflows {
				if w.Inputs == nil {
					continue
				}
				at := strings.Index(text, "\n"+w.ID+":\n")
				if at < last {
					t.Errorf("workflow %s is not in the document's order", w.ID)
				}
				last = at
				sch, err := set.Compile(w.Inputs, w.InputsPath)
				if err != nil {
					t.Fatal(err)
				}
				var v any
				dec := json.NewDecoder(strings.NewReader(canonicalJSON(NodeValue(root.Get(w.ID)))))
				dec.UseNumber()
				if err := dec.Decode(&v); err != nil {
					t.Fatal(err)
				}
				if probs := sch.Validate(v, schema.Request); len(probs) > 0 {
					t.Errorf("the inputs of %s read back do not fit its schema: %v", w.ID, probs)
				}
			}
		})
	}
}
