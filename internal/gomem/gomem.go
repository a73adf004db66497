// Package gomem reads how much memory the Go runtime holds, as its memory
// limit counts it, for the code that paces the collector (linter) and the
// code that budgets requests by memory (server).
package gomem

import "runtime/metrics"

// InUse is the memory the Go runtime counts against its memory limit:
// everything it mapped, less what it returned to the system.
func InUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}
