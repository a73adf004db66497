package spec_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/spec"
)

// TestSchemaUsage checks which schemas the operations under paths reach
// from their requests and from their responses.
func TestSchemaUsage(t *testing.T) {
	type usage struct{ request, response bool }
	cases := map[string]map[string]usage{
		"usage.oas3.1.yaml": {
			"/paths/~1pets~1{id}/parameters/0/schema":                           {true, false},
			"/components/schemas/PetInput":                                      {true, true},
			"/components/schemas/PetInput/properties/name":                      {true, true},
			"/components/schemas/PetInput/properties/code":                      {true, true},
			"/components/schemas/PetInput/properties/code/not":                  {false, false},
			"/components/schemas/PetInput/properties/code/if":                   {false, false},
			"/components/schemas/PetInput/properties/code/then":                 {true, true},
			"/components/schemas/Owner":                                         {true, true},
			"/components/schemas/Owner/properties/tags":                         {true, true},
			"/components/schemas/Owner/properties/tags/items":                   {true, true},
			"/components/schemas/Pet":                                           {false, true},
			"/components/schemas/Pet/allOf/1":                                   {false, true},
			"/components/schemas/Pet/allOf/1/properties/id":                     {false, true},
			"/paths/~1pets~1{id}/put/responses/200/headers/X-Rate-Limit/schema": {false, true},
			"/components/schemas/Event":                                         {false, false},
			"/components/schemas/Event/properties/kind":                         {false, false},
			"/components/schemas/Unused":                                        {false, false},
		},
		"usage.swagger2.yaml": {
			"/paths/~1pets/get/parameters/0/items":   {true, false},
			"/paths/~1pets/get/responses/200/schema": {false, true},
			"/definitions/Pet":                       {true, true},
			"/definitions/Pet/properties/name":       {true, true},
			"/paths/~1pets/post/parameters/1/items":  {true, false},
			"/definitions/Unused":                    {false, false},
		},
	}
	for file, want := range cases {
		t.Run(file, func(t *testing.T) {
			doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join("testdata", "usage", file))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]usage{}
			for _, s := range doc.Views().Schemas {
				got[spec.Pointer(s.Source)] = usage{s.Request, s.Response}
			}
			for ptr, w := range want {
				g, ok := got[ptr]
				if !ok {
					t.Errorf("no schema at %s (schemas: %v)", ptr, got)
					continue
				}
				if g != w {
					t.Errorf("%s: request=%v response=%v, want request=%v response=%v", ptr, g.request, g.response, w.request, w.response)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d schemas, want %d: %v", len(got), len(want), got)
			}
		})
	}
}
