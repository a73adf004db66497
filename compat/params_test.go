package compat

import (
	"math"
	"testing"
)

// TestTextLength pins the length of the text of a scalar schema's values,
// which a parameter that became a string judges by its own limits.
func TestTextLength(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		schema string
		lo, hi float64
	}{
		{"{type: integer}", 1, inf},
		{"{type: integer, format: int64}", 1, inf},
		{"{type: integer, minimum: 0, maximum: 999}", 1, 3},
		{"{type: integer, minimum: 0, maximum: 1000}", 1, 4},
		{"{type: integer, minimum: 0, maximum: 1000, exclusiveMaximum: true}", 1, 3},
		{"{type: integer, minimum: 100}", 3, inf},
		{"{type: integer, minimum: -99, maximum: 99}", 1, 3},
		{"{type: integer, minimum: -1000, maximum: -10}", 3, 5},
		{"{type: integer, minimum: 0.5, maximum: 9.5}", 1, 1},
		{"{type: integer, enum: [1, 22, 333]}", 1, 3},
		{"{type: boolean}", 4, 5},
		{"{type: boolean, enum: [true]}", 4, 4},
		{"{type: number, minimum: 0, maximum: 9}", 1, inf},
		{"{type: [integer, boolean], minimum: 0, maximum: 9}", 1, 5},
	}
	for _, tt := range tests {
		t.Run(tt.schema, func(t *testing.T) {
			_, a, _ := schemaPair(t, "3.0.3", "A: "+tt.schema+"\nB: {}\n")
			lo, hi, loText, hiText := textLength(a)
			if lo != tt.lo || hi != tt.hi {
				t.Errorf("text length %v to %v (%s; %s), want %v to %v", lo, hi, loText, hiText, tt.lo, tt.hi)
			}
		})
	}
}
