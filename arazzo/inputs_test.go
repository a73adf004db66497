package arazzo

import (
	"testing"

	"github.com/specgate/specgate/schema"
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
	if describeValue(again) != describeValue(in) {
		t.Errorf("not deterministic: %v then %v", in, again)
	}
}
