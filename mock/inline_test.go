package mock

import (
	"strings"
	"testing"
)

// Paired inline examples of real specs answer the requests that hold
// their values as a client sends them: a 422 example for a request the
// schema allows (completed with the members its schema requires and it
// leaves out), an object written for a text body, form fields the schema
// does not declare written as numbers, a number written for a string
// parameter.
func TestPairedInlineExamples(t *testing.T) {
	m := start(t, Options{Specs: []SpecSource{{Path: "testdata/inline.yaml"}}})
	k := newChecker(t, "testdata/inline.yaml")
	const advisory = "/repos/octo/hello/security-advisories/GHSA-abcd-1234-efgh"
	const calls = "/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Calls.json"
	json := map[string]string{"Content-Type": "application/json"}
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	twilio := "To=%2B123456789&From=%2B987654321&Url=https%3A%2F%2Fexample.com&Timeout=1&Record=true&CallerId=Caller&IfMachine=if_machine&MachineDetectionMinWordLength=100"
	tests := []struct {
		name         string
		method, path string
		header       map[string]string
		body         string
		status       int
		want         string // the body, or a part of it after "…"
	}{
		{"the 200 of its request", "PATCH", advisory, json, `{"severity": "critical", "state": "published"}`, 200, `{"ghsa_id":"GHSA-abcd-1234-efgh","state":"published"}`},
		{"a 422 for a valid request", "PATCH", advisory, json, `{"state": "draft"}`, 422, "…\"message\":\"Invalid state transition from `published` to `draft`.\""},
		{"another 422", "PATCH", advisory, json, `{"severity": "low"}`, 422, `…"message":"Cannot update severity value when CVSS is set."`},
		{"an object for a text body", "POST", "/markdown/raw", map[string]string{"Content-Type": "text/plain"}, `{"text":"Hello **world**"}`, 200, "<p>Hello <strong>world</strong></p>"},
		{"undeclared form fields written as numbers", "POST", calls, form, twilio, 201, `{"sid":"CAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","status":"queued"}`},
		{"a number written for a string parameter", "GET", "/servers/testServerName/queryTexts/1?api-version=2018-06-01", nil, "", 200, `{"name":"1","queryText":"select 1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := m.do(t, tt.method, tt.path, tt.header, tt.body)
			body := string(r.body)
			if strings.HasSuffix(r.header.Get("Content-Type"), "json") {
				body = compact(r.json(t))
			}
			part, contains := strings.CutPrefix(tt.want, "…")
			if r.status != tt.status || contains && !strings.Contains(body, part) || !contains && body != tt.want {
				t.Errorf("%d %s, want %d %s", r.status, body, tt.status, tt.want)
			}
			k.valid(t, tt.method, tt.path, r)
		})
	}
	if logs := m.logs.String(); !strings.Contains(logs, "example completed") || !strings.Contains(logs, "documentation_url") {
		t.Errorf("the completed examples are not logged:\n%s", logs)
	}

	// With examples only (lenient: false), a request that matches none is
	// told why the nearest does not.
	strict := start(t, Options{Specs: []SpecSource{{Path: "testdata/inline.yaml"}}, StrictExamples: true})
	p := strict.do(t, "POST", calls, form, strings.Replace(twilio, "WordLength=100", "WordLength=200", 1)).problem(t, 400, kindNoExample)
	if want := `the nearest, "create" (testdata/inline.yaml:`; !strings.Contains(p.Detail, want) ||
		!strings.Contains(p.Detail, `differs in 1 place(s): body $.MachineDetectionMinWordLength: expected "100", found "200"`) {
		t.Errorf("detail %q", p.Detail)
	}
}
