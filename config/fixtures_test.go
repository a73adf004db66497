package config

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// testEnv is the environment of the fixtures: SET is set, nothing else.
func testEnv(name string) string {
	return map[string]string{"SET": "value"}[name]
}

// want is an expectation written in a fixture as # want "regexp" on the
// line where a problem must be reported.
type want struct {
	line int
	re   *regexp.Regexp
	hit  bool
}

var wantRE = regexp.MustCompile(`# want ((?:"(?:[^"\\]|\\.)*"\s*)+)$`)
var quotedRE = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)

func readWants(t *testing.T, file string) []*want {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var wants []*want
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		m := wantRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		for _, q := range quotedRE.FindAllStringSubmatch(m[1], -1) {
			// The pattern is written as a YAML-style quoted string: \" is a
			// quote, \\ a backslash.
			pat := strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(q[1])
			wants = append(wants, &want{line: line, re: regexp.MustCompile(pat)})
		}
	}
	return wants
}

// checkProblems fails on a problem no want expects and on a want no problem
// meets: the fixture says which problems, on which lines, with which
// messages.
func checkProblems(t *testing.T, file string, problems []*spec.Error) {
	t.Helper()
	wants := readWants(t, file)
	if len(wants) == 0 {
		t.Fatalf("%s has no # want", file)
	}
	for _, p := range problems {
		if p.File != file {
			t.Errorf("problem names file %q, want %q: %v", p.File, file, p)
		}
		matched := false
		for _, w := range wants {
			if w.line == int(p.Pos.Line) && w.re.MatchString(p.Msg) {
				w.hit, matched = true, true
			}
		}
		if !matched {
			t.Errorf("unexpected problem %v", p)
		}
	}
	for _, w := range wants {
		if !w.hit {
			t.Errorf("%s:%d: no problem matches %q", file, w.line, w.re)
		}
	}
}

func fixtures(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/%s: %v", dir, err)
	}
	return files
}

// TestInvalidFixtures loads each bad configuration and checks that every
// problem is reported, where it is written, with its message, and nothing
// else.
func TestInvalidFixtures(t *testing.T) {
	for _, dir := range []string{"invalid", "semantic"} {
		for _, file := range fixtures(t, dir) {
			t.Run(filepath.Base(dir)+"/"+filepath.Base(file), func(t *testing.T) {
				cfg, err := Load(file, Options{Getenv: testEnv})
				if err == nil {
					t.Fatalf("loaded without error: %+v", cfg)
				}
				var errs Errors
				if !errors.As(err, &errs) {
					t.Fatalf("error is %T, want Errors: %v", err, err)
				}
				checkProblems(t, file, errs)
			})
		}
	}
}

// TestValidFixtures loads each good configuration without errors or
// warnings.
func TestValidFixtures(t *testing.T) {
	for _, dir := range []string{"v3", "v2"} {
		for _, file := range fixtures(t, dir) {
			t.Run(dir+"/"+filepath.Base(file), func(t *testing.T) {
				cfg, err := Load(file, Options{Getenv: func(name string) string { return map[string]string{"API_KEY": "key-1"}[name] }})
				if err != nil {
					t.Fatal(err)
				}
				if len(cfg.Warnings) > 0 {
					t.Errorf("warnings: %v", cfg.Warnings)
				}
				if len(cfg.Tests)+len(cfg.Mocks) == 0 {
					t.Errorf("no test and no mock")
				}
			})
		}
	}
}
