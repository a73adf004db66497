package cli_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/specgate/specgate/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(ownCache{m}, map[string]func(){
		"specgate": func() {
			os.Exit(cli.Main(context.Background(), os.Args, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
		},
	})
}

// ownCache runs the tests with a cache directory of their own, so that
// they neither read nor fill the user's: tests that run the CLI in process
// use the user cache directory, which XDG_CACHE_HOME moves.
type ownCache struct{ m *testing.M }

func (o ownCache) Run() int {
	dir, err := os.MkdirTemp("", "specgate-test-cache-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_CACHE_HOME", dir)
	return o.m.Run()
}

// TestScripts runs the end-to-end scenarios in testdata/script: one
// .txtar file per scenario, with the real binary's behaviour, output files
// and exit codes.
//
// No scenario listens on a fixed port, so that two runs on one machine do
// not collide: a server the script starts itself takes --port 0 and
// --ready-file, and the ready command reads its URL; a port that must be
// written in the archive's files before anything listens (a specgate.yaml
// that run-suite reads, a spec's servers) is written ${PORT1}, ${PORT2}…,
// which the harness replaces with free ports before the script runs.
func TestScripts(t *testing.T) {
	corpus, err := filepath.Abs(filepath.Join("..", "..", "shared", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir() // shared: the scripts read what earlier ones wrote
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("..", "testdata", "script"),
		Setup: func(e *testscript.Env) error {
			e.Setenv("SPECGATE_CACHE_DIR", cache)
			e.Setenv("CORPUS", corpus)
			e.Setenv("EXAMPLES", examples)
			e.Setenv("NO_COLOR", "1")
			return expandPorts(e)
		},
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"ready": cmdReady, "exits": cmdExits, "overwrite": cmdOverwrite},
		RequireExplicitExec: true,
	})
}

// portRef is how an archive's file names the harness's nth free port.
var portRef = regexp.MustCompile(`\$\{PORT([1-9][0-9]?)\}`)

// expandPorts replaces ${PORTn} in the files of the script's archive with
// a free loopback port, the same for each n, and sets $PORTn to it for the
// script's commands.
func expandPorts(e *testscript.Env) error {
	type file struct {
		path string
		data []byte
	}
	var files []file
	var wanted []string
	err := filepath.WalkDir(e.WorkDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(data, []byte("${PORT")) {
			return err
		}
		for _, m := range portRef.FindAllSubmatch(data, -1) {
			if n := string(m[1]); !slices.Contains(wanted, n) {
				wanted = append(wanted, n)
			}
		}
		files = append(files, file{path, data})
		return nil
	})
	if err != nil || len(wanted) == 0 {
		return err
	}
	ports, err := freePorts(len(wanted))
	if err != nil {
		return err
	}
	byN := map[string]string{}
	for i, n := range wanted {
		byN[n] = strconv.Itoa(ports[i])
		e.Setenv("PORT"+n, byN[n])
	}
	for _, f := range files {
		data := portRef.ReplaceAllFunc(f.data, func(ref []byte) []byte {
			return []byte(byN[string(portRef.FindSubmatch(ref)[1])])
		})
		if err := os.WriteFile(f.path, data, 0o666); err != nil {
			return err
		}
	}
	return nil
}

// freePorts reserves n distinct free loopback ports by listening on port
// 0, and frees them for the script's servers. Between the close and the
// server's listen another process could take one, but the kernel hands
// out a port to listen on at a random place in its range, so two runs at
// once do not pick the same ones as fixed ports did.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("reserving a free port: %w", err)
		}
		defer ln.Close()
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// readyTimeout bounds how long the ready command waits for a server.
const readyTimeout = 30 * time.Second

// cmdReady is the script command
//
//	ready FILE NAME…
//
// It waits until FILE holds a line for each NAME (the URLs a server
// started with --port 0 --ready-file FILE writes, whole, once it listens)
// and sets $NAME to the line's URL, $NAME_PORT to its port, $NAME_BASE to
// the URL without its query (and a final slash), and $NAME_KEY to the
// value of each query parameter key (the studio's token is
// $STUDIO_TOKEN).
func cmdReady(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! ready")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: ready FILE NAME…")
	}
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(readyTimeout)
	var lines []string
	for {
		data, err := os.ReadFile(path)
		if err == nil && bytes.HasSuffix(data, []byte("\n")) {
			lines = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			break
		}
		if err != nil && !os.IsNotExist(err) {
			ts.Fatalf("ready: %v", err)
		}
		if time.Now().After(deadline) {
			ts.Fatalf("ready: %s not written after %s: the server did not start (its output shows once it is waited for)", args[0], readyTimeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	names := args[1:]
	if len(lines) < len(names) {
		ts.Fatalf("ready: %s holds %d lines, not one for each of %s", args[0], len(lines), strings.Join(names, ", "))
	}
	for i, name := range names {
		u, err := url.Parse(lines[i])
		if err != nil || u.Port() == "" {
			ts.Fatalf("ready: %s line %d: %q is not a URL with a port", args[0], i+1, lines[i])
		}
		ts.Setenv(name, lines[i])
		ts.Setenv(name+"_PORT", u.Port())
		for k, vs := range u.Query() {
			ts.Setenv(name+"_"+strings.ToUpper(k), vs[0])
		}
		u.RawQuery, u.Fragment = "", ""
		ts.Setenv(name+"_BASE", strings.TrimSuffix(u.String(), "/"))
	}
}

// cmdOverwrite is the script command
//
//	overwrite GLOB TEXT
//
// It writes TEXT over every file GLOB matches, and fails when none does: a
// script damages files whose names it cannot know (the cache's entries,
// named by a hash of their content) without a shell.
func cmdOverwrite(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: overwrite GLOB TEXT")
	}
	files, err := filepath.Glob(ts.MkAbs(args[0]))
	if err != nil || len(files) == 0 {
		ts.Fatalf("overwrite: no file matches %s", args[0])
	}
	for _, f := range files {
		ts.Check(os.WriteFile(f, []byte(args[1]), 0o644))
	}
}

// cmdExits is the script command
//
//	exits CODE PROGRAM ARGS…
//
// It runs PROGRAM as exec does, its output kept for stdout and stderr to
// check, and fails unless it exits with CODE: where ! exec takes any
// failure, a scenario can tell a failed test (1) from bad input (2).
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM ARGS…")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit code", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}
