package apitest

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func progressRun(p *Progress, total int) {
	p.Begin(&RunInfo{Total: total})
	p.Result(&Result{Test: &Test{Path: "/pets", Method: "GET", Status: "200", ResponseType: "application/json", Kind: Generated, Name: "generated"},
		Outcome: Passed, Status: 200, Duration: 3 * time.Millisecond})
	p.Result(&Result{Test: &Test{Path: "/pets", Method: "POST", RequestType: "application/json", Status: "201", Kind: Generated, Name: "generated"},
		Outcome: Failed, Status: 200, Duration: 2 * time.Millisecond, Attempts: make([]Exchange, 2),
		Failures: []Failure{{Check: "status_code_conformance", Message: "status 200 is not declared by POST /pets (declared: 201)"}}})
	p.End(&Summary{})
}

func TestProgressLines(t *testing.T) {
	var out bytes.Buffer
	progressRun(NewProgress(&out, false, false), 2)
	want := "PASS GET /pets -> 200 application/json (generated) got 200 3ms\n" +
		"FAIL POST /pets [application/json] -> 201 (generated) got 200 after 1 retry 2ms\n" +
		"    status_code_conformance: status 200 is not declared by POST /pets (declared: 201)\n"
	if out.String() != want {
		t.Errorf("got:\n%q\nwant:\n%q", out.String(), want)
	}
}

func TestProgressBar(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, true, false)
	clock := time.Unix(0, 0)
	p.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	progressRun(p, 2)
	got := out.String()
	// The bar is drawn, the failure printed in its place (the pass is
	// not), the bar drawn again complete, and the line ended.
	for _, want := range []string{
		"\r\x1b[K[>                             ]   0% 0/2  passed 0  failed 0",
		"\r\x1b[KFAIL POST /pets [application/json] -> 201 (generated) got 200 after 1 retry 2ms\n    status_code_conformance:",
		"\r\x1b[K[==============================] 100% 2/2  passed 1  failed 1",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the output lacks %q:\n%q", want, got)
		}
	}
	if strings.Contains(got, "PASS") || !strings.HasSuffix(got, "\n") {
		t.Errorf("output:\n%q", got)
	}
}
