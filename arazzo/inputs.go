package arazzo

import (
	"fmt"

	"github.com/specgate/specgate/schema"
)

// ExampleInputs generates, for each workflow that declares inputs, a value
// its inputs schema accepts (deterministic for the seed): the file that
// specgate test --inputs and run-suite --inputs read, keyed by workflowId.
// specgate examples generate writes it for an Arazzo document.
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
