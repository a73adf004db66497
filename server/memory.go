package server

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/specgate/specgate/internal/gomem"
)

// The estimated memory cost of a lint request: a fixed part (the request,
// the report, the rules' working set on a small spec) and a part in
// proportion to the spec's size, which its text, node tree, input and the
// rules' collections take. TestMemoryEstimate checks it against the corpus
// (the measurements are in docs/lint-server.md).
const (
	memoryPerRequest = 4 << 20
	memoryPerByte    = 60
)

// DefaultMaxMemory is the lint requests' memory budget when neither
// --max-memory nor GOMEMLIMIT sets one: enough for the largest request
// body the defaults admit, and then some.
const DefaultMaxMemory = 2 << 30

// memoryCost is the estimated memory cost of linting a spec of n bytes.
func memoryCost(n int64) int64 { return memoryPerRequest + memoryPerByte*max(n, 0) }

// largestSpec is the size of the largest spec whose cost fits in budget,
// rounded down to a KiB (a MiB from 1 MiB up), so that limits read well.
func largestSpec(budget int64) int64 {
	n := max((budget-memoryPerRequest)/memoryPerByte, 0)
	if n >= 1<<20 {
		return n &^ (1<<20 - 1)
	}
	return n &^ (1<<10 - 1)
}

// memoryBudget admits lint requests by their estimated cost: a request
// runs only when its cost fits in what the requests in flight leave of
// the budget.
type memoryBudget struct {
	limit int64
	mu    sync.Mutex
	used  int64
}

// reserve takes n bytes of the budget, or nothing when they do not fit.
func (b *memoryBudget) reserve(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.limit {
		return false
	}
	b.used += n
	return true
}

func (b *memoryBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}

func (b *memoryBudget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// reservation is what one request holds of the budget; it grows as the
// request learns the size of its spec, and is released when it ends.
type reservation struct {
	budget *memoryBudget
	held   int64
}

// growTo makes the reservation hold n bytes, if they fit.
func (r *reservation) growTo(n int64) bool {
	if n <= r.held {
		return true
	}
	if !r.budget.reserve(n - r.held) {
		return false
	}
	r.held = n
	return true
}

func (r *reservation) release() {
	r.budget.release(r.held)
	r.held = 0
}

// sizeLimit is a size limit and the flag that sets it, for messages.
type sizeLimit struct {
	bytes int64
	flag  string
}

// fitMemory lowers a size limit (of a request body or a fetched spec) to
// the largest spec the memory budget admits.
func fitMemory(bytes int64, flag string, budget int64) sizeLimit {
	if fit := largestSpec(budget); fit < bytes {
		return sizeLimit{fit, flag + ", lowered to fit --max-memory"}
	}
	return sizeLimit{bytes, flag}
}

// baselineMemory is what the process holds with nothing in flight: the
// runtime, the loaded configuration and the compiled rules.
func baselineMemory() int64 {
	runtime.GC()
	return gomem.InUse()
}

// goMemLimit is the Go runtime's memory limit (GOMEMLIMIT, or what
// debug.SetMemoryLimit set), or 0 when there is none.
func goMemLimit() int64 {
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		return l
	}
	return 0
}

// ParseMemory reads a memory size as GOMEMLIMIT writes it: a number of
// bytes with an optional unit, B, KiB, MiB, GiB or TiB.
func ParseMemory(s string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}, {"B", 0}}
	num, shift := strings.TrimSpace(s), uint(0)
	for _, u := range units {
		if strings.HasSuffix(num, u.suffix) {
			num, shift = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q is not a memory size: a positive number of bytes with an optional unit (B, KiB, MiB, GiB, TiB), such as 1536MiB", s)
	}
	return n << shift, nil
}
