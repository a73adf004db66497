package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// measureFlag, as the first argument, makes this program the helper that
// runs one measured command (see measure).
const measureFlag = "-measure-helper"

// measurement is what the helper reports of the command it ran.
type measurement struct {
	Wall   time.Duration `json:"wall"`
	CPU    time.Duration `json:"cpu"`    // user + system
	RSSKiB int64         `json:"rssKiB"` // peak resident set size
	Exit   int           `json:"exit"`
	Err    string        `json:"err,omitempty"` // the command could not be started
}

// measure runs argv, with env added to this process's environment, and
// reports its wall time, CPU time and peak memory.
//
// The command is started by a helper process (this program, run again
// with measureFlag) rather than by the bench itself: on Linux a child's
// ru_maxrss starts at the resident size of the process that forked it
// (the kernel keeps the high-water mark of the memory the child shared
// until exec), so after the bench has read a large report every command it
// forks would report at least the bench's own size (118 MiB was the floor
// of every small spec once github.json's reports had been read). The
// helper is a few MiB, forks nothing else, and holds no output.
func measure(argv, env []string, stdout, stderr io.Writer) (measurement, error) {
	self, err := os.Executable()
	if err != nil {
		return measurement{}, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return measurement{}, err
	}
	defer r.Close()
	cmd := exec.Command(self, append([]string{measureFlag}, argv...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.ExtraFiles = []*os.File{w} // fd 3 in the helper
	err = cmd.Start()
	w.Close()
	if err != nil {
		return measurement{}, err
	}
	var m measurement
	decodeErr := json.NewDecoder(r).Decode(&m)
	if err := cmd.Wait(); err != nil {
		return measurement{}, fmt.Errorf("measuring helper: %v", err)
	}
	if decodeErr != nil {
		return measurement{}, fmt.Errorf("measuring helper's report: %v", decodeErr)
	}
	if m.Err != "" {
		return m, errors.New(m.Err)
	}
	return m, nil
}

// measureHelper is the helper's side of measure: it runs the command of
// its arguments with this process's standard streams and writes the
// measurement to file descriptor 3.
func measureHelper(argv []string) {
	report := os.NewFile(3, "measurement")
	var m measurement
	if len(argv) == 0 {
		m.Err = "no command to measure"
	} else {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		start := time.Now()
		err := cmd.Run()
		m.Wall = time.Since(start)
		if cmd.ProcessState == nil {
			m.Err = err.Error()
		} else {
			m.Exit = cmd.ProcessState.ExitCode()
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				m.RSSKiB = ru.Maxrss // KiB on Linux
				m.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			}
		}
	}
	if err := json.NewEncoder(report).Encode(m); err != nil {
		fmt.Fprintln(os.Stderr, "bench helper:", err)
		os.Exit(2)
	}
}
