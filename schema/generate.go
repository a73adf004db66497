package schema

import (
	"errors"
	"math/rand/v2"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Generator draws generated values. It is deterministic: the same seed and
// the same sequence of calls give the same values. It is not safe for
// concurrent use; make one per goroutine (or per request) from a seed.
type Generator struct {
	rng *rand.Rand
}

// NewGenerator returns a generator seeded with seed.
func NewGenerator(seed uint64) *Generator {
	return &Generator{rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

func (g *Generator) generate(sc *Schema, js *jsonschema.Schema, dir Direction) (any, error) {
	return nil, errors.New("schema: generation is not implemented yet")
}
