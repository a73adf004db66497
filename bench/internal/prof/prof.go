// Package prof holds what the bench commands share about profiling one
// process: writing a CPU profile and reading the CPU time used.
package prof

import (
	"os"
	"runtime/pprof"
	"syscall"
	"time"
)

// StartCPU starts writing a CPU profile to path; stop ends the profile and
// closes the file, and says whether it was written.
func StartCPU(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// CPUTime is the CPU time (user and system) the process has used; 0 when
// the system does not say. On a busy machine, where a run waits for a core
// for much of its wall time, it is what a change of the work changes.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
