//go:build race

package schema_test

// raceEnabled: the race detector slows generation about tenfold, and the
// property test samples the large documents more sparsely under it.
const raceEnabled = true
