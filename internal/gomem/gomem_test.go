package gomem

import (
	"runtime"
	"testing"
)

// InUse grows by at least what a live allocation holds, and never counts
// more than the runtime mapped.
func TestInUse(t *testing.T) {
	runtime.GC()
	before := InUse()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if before <= 0 || uint64(before) > ms.Sys {
		t.Fatalf("InUse = %d, want within (0, %d]", before, ms.Sys)
	}
	const size = 64 << 20
	buf := make([]byte, size)
	for i := range buf {
		buf[i] = 1
	}
	if after := InUse(); after-before < size {
		t.Errorf("InUse grew by %d with %d bytes live, want at least that", after-before, size)
	}
	runtime.KeepAlive(buf)
}
