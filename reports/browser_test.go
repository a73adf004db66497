package reports_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// chromedriver finds chromedriver (Debian's chromium and chromium-driver
// packages). The browser tests skip when it is not installed, unless
// SPECGATE_REQUIRE_BROWSER is set (CI sets it).
func chromedriver(t *testing.T) string {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	driver, err := exec.LookPath("chromedriver")
	if err != nil {
		if os.Getenv("SPECGATE_REQUIRE_BROWSER") != "" {
			t.Fatal("SPECGATE_REQUIRE_BROWSER is set but chromedriver is not on PATH: apt-get install chromium chromium-driver")
		}
		t.Skip("chromedriver is not on PATH (apt-get install chromium chromium-driver); set SPECGATE_REQUIRE_BROWSER=1 to make this a failure")
	}
	return driver
}

// TestHTMLInBrowser opens the lint html report in headless Chromium
// through chromedriver and uses it as a person would: filters, sorting,
// the operation links and the rule links, checking the counts after each
// step.
func TestHTMLInBrowser(t *testing.T) {
	driver := chromedriver(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := reports.WriteHTML(f, testRun(t)); err != nil {
		t.Fatal(err)
	}
	f.Close()

	b := startBrowser(t, driver, filepath.Join(dir, "profile"))
	b.open((&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String())

	// Nothing is fetched: no resource entries besides the page itself.
	if n := b.script(`return performance.getEntriesByType("resource").length`); n != 0.0 {
		t.Errorf("the page loaded %v resources", n)
	}
	b.wantCounts("initial", 7, 4, 3)
	if got := b.text("#filter-rule option[value=media-type-xml]"); got != "media-type-xml (1)" {
		t.Errorf("rule choice reads %q, want it to count its findings", got)
	}

	b.choose("filter-rule", "media-type-xml")
	b.wantCounts("rule media-type-xml", 1, 0, 1)
	b.wantRules("rule media-type-xml", "media-type-xml")
	if got := b.text("#filter-severity option[value=error]"); got != "error (0)" {
		t.Errorf("with the rule filter on, the error choice reads %q, want error (0)", got)
	}

	b.click("#filter-clear")
	b.wantCounts("cleared", 7, 4, 3)
	b.choose("filter-severity", "error")
	b.wantCounts("severity error", 4, 4, 0)
	b.choose("filter-category", "Naming")
	b.wantCounts("severity error, category Naming", 1, 1, 0)
	b.wantRules("severity error, category Naming", "path-parameters-snake-case")

	b.click("#filter-clear")
	b.choose("filter-file", "broken.yaml")
	b.wantCounts("file broken.yaml", 1, 1, 0)
	b.wantRules("file broken.yaml", "load-error")

	b.click("#filter-clear")
	b.typeInto("#filter-path", "RESPONSES")
	b.wantCounts("path contains RESPONSES", 1, 1, 0)
	b.wantRules("path contains RESPONSES", "error-response-schema")
	b.choose("filter-severity", "warn")
	b.wantCounts("path and severity with no match", 0, 0, 0)
	if b.script(`return document.getElementById("no-findings").hidden`) != false {
		t.Error("the empty-table message is hidden when no finding matches")
	}

	b.click("#filter-clear")
	b.click("#findings thead tr:first-child th:nth-child(1) button")
	b.wantRules("sorted by severity, ascending", "health-endpoint", "operation-summary", "media-type-xml",
		"error-response-schema", "path-parameters-snake-case", "load-error", "load-error")
	b.click("#findings thead tr:first-child th:nth-child(5) button")
	b.click("#findings thead tr:first-child th:nth-child(5) button")
	b.wantRules("sorted by line, descending", "media-type-xml", "error-response-schema", "operation-summary",
		"health-endpoint", "path-parameters-snake-case", "load-error", "load-error")

	// Each combination counts the findings of its operation that concern
	// it: the 404 has its own error, the XML body its own warning, and the
	// missing summary of GET /pets concerns both of its responses.
	ops := b.script(`return Array.from(document.querySelectorAll(".operations tbody tr"), function (r) {
		return Array.from(r.querySelectorAll("td.num"), function (c) { return c.textContent; }).join("/"); })`)
	if got := fmt.Sprint(ops); got != "[0/1 1/1 0/0 0/1 1/0]" {
		t.Errorf("operation rows errors/warnings = %s, want [0/1 1/1 0/0 0/1 1/0]", got)
	}

	// The operation GET /pets/{petId} lives in parts/pet.yaml; its link
	// filters the findings to it.
	b.click(`a.op-link[data-path="/get"]`)
	b.wantCounts("operation GET /pets/{petId}", 1, 1, 0)
	b.wantRules("operation GET /pets/{petId}", "path-parameters-snake-case")
	if got := b.script(`return [document.getElementById("filter-file").value, document.getElementById("filter-path").value]`); fmt.Sprint(got) != "[testdata/parts/pet.yaml /get]" {
		t.Errorf("operation link set the filters to %v", got)
	}

	// A rule's documentation is one click from its findings.
	b.click("#filter-clear")
	b.click(`#findings a[href="#rule-media-type-xml"]`)
	if got := b.script(`var r = document.querySelector(":target"); return r ? r.id + " " + r.querySelector("h3").textContent : ""`); got != "rule-media-type-xml media-type-xml Bodies are not XML" {
		t.Errorf("after clicking the rule link the target is %q", got)
	}
}

// TestTestRunHTMLInBrowser opens the html report of a test run, written
// by a Sink a test at a time, in headless Chromium: the tests grouped by
// the five identifiers, the filters and their counts, an operation's
// "Show" link, and a test's requests and responses.
func TestTestRunHTMLInBrowser(t *testing.T) {
	driver := chromedriver(t)
	dir := t.TempDir()
	page := sinkRun(t, testResults(t), dir)["html"]
	b := startBrowser(t, driver, filepath.Join(dir, "profile"))
	b.open((&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String())

	if n := b.script(`return performance.getEntriesByType("resource").length`); n != 0.0 {
		t.Errorf("the page loaded %v resources", n)
	}
	counts := func(step, want string) {
		t.Helper()
		got := fmt.Sprint(b.script(`var s = document.getElementById("tests-section");
			return ["shown", "passed", "failed", "skipped"].map(function (k) { return s.querySelector("[data-count=" + k + "]").textContent; })
				.concat([document.querySelectorAll("#tests tbody tr[data-status]:not([hidden])").length])`))
		if got != want {
			t.Errorf("%s: counts shown, passed, failed, skipped and visible rows = %s, want %s", step, got, want)
		}
	}
	rows := func(step string, want ...string) {
		t.Helper()
		got := fmt.Sprint(b.script(`return Array.from(document.querySelectorAll("#tests tbody tr[data-status]:not([hidden])"), function (r) {
			return (r.classList.contains("cont") ? "+" : "") + r.cells[5].firstChild.textContent; })`))
		if w := fmt.Sprint(want); got != w {
			t.Errorf("%s: visible tests %s, want %s", step, got, w)
		}
	}
	counts("initial", "[9 5 3 1 9]")
	// The second test of GET /pets ran last; it is shown under the first,
	// its identifiers not repeated.
	rows("grouped", "GET /pets -> 200", "+GET /pets?limit=1 -> 200", "POST /pets -> 201", "GET /pets/{id} -> 200",
		"GET /pets/{id} -> 404 (not declared)", "GET /slow -> 200", "GET /broken -> 500", "DELETE /slow -> 204", "GET /down -> 200")
	if got := b.script(`var r = document.querySelector("#tests tr.cont td.key span"); return getComputedStyle(r).visibility`); got != "hidden" {
		t.Errorf("a grouped row's identifiers are %v, want hidden", got)
	}
	if got := b.text(`#tests-filter-method option[value="POST"]`); got != "POST (1)" {
		t.Errorf("method choice reads %q", got)
	}

	b.choose("tests-filter-result", "failed")
	counts("result failed", "[3 0 3 0 3]")
	if got := b.text(`#tests-filter-path option[value="/pets"]`); got != "/pets (0)" {
		t.Errorf("with failed chosen, the /pets choice reads %q", got)
	}
	b.click(`[data-clear="tests"]`)
	b.typeInto("#tests-filter-name", "SLOW")
	counts("name contains SLOW", "[2 1 0 1 2]")

	// An operation's Show link filters the tests to its five identifiers.
	b.click(`#coverage a.op-link[data-filters*="%2Fpets%2F%7Bid%7D"][data-filters*="404"]`)
	rows("GET /pets/{id} 404", "GET /pets/{id} -> 404 (not declared)")
	b.click(`#coverage a.op-link[data-filters*="0=%2Fpets&"]`)
	rows("GET /pets 200", "GET /pets -> 200", "+GET /pets?limit=1 -> 200")
	if got := b.script(`return ["path", "method", "request", "status", "response", "name"].map(function (k) {
		return document.getElementById("tests-filter-" + k).value; })`); fmt.Sprint(got) != "[/pets GET - 200 application/json ]" {
		t.Errorf("the Show link set the filters to %v", got)
	}

	// A test's requests and responses are one click away.
	b.click(`[data-clear="tests"]`)
	b.choose("tests-filter-path", "/broken")
	if b.script(`return document.querySelector("#tests tbody tr:not([hidden]) details").open`) != false {
		t.Error("the exchanges are open before a click")
	}
	b.click(`#tests tbody tr:not([hidden]) details summary`)
	got := fmt.Sprint(b.script(`var d = document.querySelector("#tests tbody tr:not([hidden]) details");
		return [d.open, d.querySelector("pre.request").innerText.trim(), d.querySelector("pre.response").innerText.split("\n")[0],
			d.querySelector("ul.problems").innerText]`))
	want := "[true GET http://pets.test/broken\nAccept: application/json 500 Internal Server Error body $.id: must be integer, found string (schema at slow.yaml:18:15)]"
	if got != want {
		t.Errorf("the failed test's details read %q, want %q", got, want)
	}
	if got := b.script(`return document.querySelector("#coverage h3 + p").textContent`); got != "3 of 3 operations covered (4 in the specification, 1 missing in spec)" {
		t.Errorf("coverage of pets.yaml reads %q", got)
	}
}

// TestCompatHTMLInBrowser opens a compatibility report: a choice or a text
// box above each column of the changes narrows them, and the counts follow.
func TestCompatHTMLInBrowser(t *testing.T) {
	driver := chromedriver(t)
	change := func(rule, lvl, file string, line int, side string, fails bool, ops ...string) reports.Finding {
		sev := map[string]level.Severity{"breaking": level.Error, "warning": level.Warn, "info": level.Off}[lvl]
		return reports.Finding{Rule: rule, Severity: sev, Message: rule + " happened", File: file,
			Range:  spec.Range{Start: spec.Pos{Line: int32(line), Col: 3}},
			Change: &reports.Change{Level: lvl, Fails: fails, Why: "consumers notice", Operations: ops, Side: side}}
	}
	run := &reports.Run{Tool: reports.Tool{Name: "specgate", Version: "test"}, Kind: reports.Compat,
		Compat: &reports.CompatRun{Mode: "git", Base: "main", Commit: "abc1234", ShowInfo: true, Verdict: "incompatible",
			Totals: reports.CompatTotals{Specs: 2, Compatible: 1, Incompatible: 1, Breaking: 1, Warnings: 1, Info: 1}},
		Files: []reports.File{
			{Name: "api.yaml", Format: "OpenAPI 3.1.0", Loaded: true,
				Verdict: &reports.Verdict{Verdict: "incompatible", Reason: "breaking-changes", Message: "api.yaml is NOT backward compatible with main", Base: "main", BaseFile: "api.yaml"},
				Findings: []reports.Finding{
					change("operation-removed", "breaking", "api.yaml", 12, "base", true, "DELETE /pets"),
					change("operation-id-changed", "warning", "api.yaml", 20, "revision", false, "GET /pets"),
					change("response-property-added", "info", "api.yaml", 31, "revision", false, "GET /pets"),
				}},
			{Name: "events.yaml", Format: "AsyncAPI 3.0.0", Loaded: true,
				Verdict: &reports.Verdict{Verdict: "compatible", Reason: "unchanged", Message: "events.yaml is backward compatible with main", Base: "main", BaseFile: "events.yaml"}},
		}}
	dir := t.TempDir()
	page := filepath.Join(dir, "compat.html")
	if err := os.WriteFile(page, write(t, reports.WriteHTML, run), 0o644); err != nil {
		t.Fatal(err)
	}
	b := startBrowser(t, driver, filepath.Join(dir, "profile"))
	b.open((&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String())
	counts := func(step, want string) {
		t.Helper()
		got := fmt.Sprint(b.script(`var s = document.getElementById("changes-section");
			return ["shown", "breaking", "warning", "info"].map(function (k) { return s.querySelector("[data-count=" + k + "]").textContent; })
				.concat(Array.from(document.querySelectorAll("#changes tbody tr[data-level]:not([hidden]) td.rule"), function (c) { return c.textContent; }))`))
		if got != want {
			t.Errorf("%s: counts and visible rules = %s, want %s", step, got, want)
		}
	}
	counts("initial", "[3 1 1 1 operation-removed operation-id-changed response-property-added]")
	if got := b.text("h1"); got != "Backward compatibility against main (abc1234): INCOMPATIBLE" {
		t.Errorf("title reads %q", got)
	}
	// A change in the base names the branch its location is on.
	if got := b.text("#changes tbody tr td.loc"); got != "api.yaml:12:3 (on main)" {
		t.Errorf("the removed operation's location reads %q", got)
	}
	b.click(`#changes select[data-col="1"] option[value="warning"]`)
	counts("level warning", "[1 0 1 0 operation-id-changed]")
	b.click(`[data-clear="changes"]`)
	b.typeInto(`#changes input[data-col="3"]`, "get /PETS")
	counts("operations contain get /PETS", "[2 0 1 1 operation-id-changed response-property-added]")
	b.typeInto(`#changes input[data-col="4"]`, ":31:")
	counts("and location contains :31:", "[1 0 0 1 response-property-added]")
}

// browser is a WebDriver session on a chromedriver started for one test.
type browser struct {
	t       *testing.T
	base    string // http://127.0.0.1:port/session/id
	elemKey string
}

// startBrowser starts chromedriver on a free loopback port and a headless
// Chromium session with a fresh profile; both stop when the test ends.
func startBrowser(t *testing.T, driver, profile string) *browser {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var logs bytes.Buffer
	cmd := exec.Command(driver, "--port="+strconv.Itoa(port), "--allowed-ips=127.0.0.1")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("chromedriver output:\n%s", logs.String())
		}
	})
	root := "http://127.0.0.1:" + strconv.Itoa(port)
	b := &browser{t: t, base: root, elemKey: "element-6066-11e4-a52e-4f735466cecf"}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var status struct {
			Ready bool `json:"ready"`
		}
		if err := b.do(http.MethodGet, "/status", nil, &status); err == nil && status.Ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("chromedriver did not become ready:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	opts := map[string]any{"args": []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--user-data-dir=" + profile}}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if bin, err := exec.LookPath(name); err == nil {
			opts["binary"] = bin
			break
		}
	}
	var session struct {
		SessionID string `json:"sessionId"`
	}
	caps := map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{"browserName": "chrome", "goog:chromeOptions": opts}}}
	if err := b.do(http.MethodPost, "/session", caps, &session); err != nil {
		t.Fatalf("starting Chromium: %v\n%s", err, logs.String())
	}
	b.base = root + "/session/" + session.SessionID
	t.Cleanup(func() { _ = b.do(http.MethodDelete, "", nil, nil) })
	return b
}

// do sends one WebDriver command and decodes its "value" into out.
func (b *browser) do(method, path string, body, out any) error {
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, b.base+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	client := http.Client{Timeout: 60 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var reply struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		return fmt.Errorf("%s %s: %s: %w", method, path, resp.Status, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, reply.Value)
	}
	if out != nil {
		return json.Unmarshal(reply.Value, out)
	}
	return nil
}

func (b *browser) must(method, path string, body, out any) {
	b.t.Helper()
	if err := b.do(method, path, body, out); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) open(u string) {
	b.t.Helper()
	b.must(http.MethodPost, "/url", map[string]string{"url": u}, nil)
}

func (b *browser) find(css string) string {
	b.t.Helper()
	var el map[string]string
	b.must(http.MethodPost, "/element", map[string]string{"using": "css selector", "value": css}, &el)
	return el[b.elemKey]
}

// click clicks an element after scrolling it to the middle of the window,
// where no sticky table header covers it, as a person would.
func (b *browser) click(css string) {
	b.t.Helper()
	el := b.find(css)
	b.must(http.MethodPost, "/execute/sync", map[string]any{"script": `arguments[0].scrollIntoView({block: "center"})`,
		"args": []any{map[string]string{b.elemKey: el}}}, nil)
	b.must(http.MethodPost, "/element/"+el+"/click", map[string]any{}, nil)
}

// choose picks an option of a select filter by clicking it, as a person
// would.
func (b *browser) choose(selectID, value string) {
	b.t.Helper()
	b.click(fmt.Sprintf("#%s option[value=%q]", selectID, value))
}

func (b *browser) typeInto(css, text string) {
	b.t.Helper()
	b.must(http.MethodPost, "/element/"+b.find(css)+"/value", map[string]string{"text": text}, nil)
}

func (b *browser) text(css string) string {
	b.t.Helper()
	var s string
	b.must(http.MethodGet, "/element/"+b.find(css)+"/text", nil, &s)
	return s
}

func (b *browser) script(src string) any {
	b.t.Helper()
	var v any
	b.must(http.MethodPost, "/execute/sync", map[string]any{"script": src, "args": []any{}}, &v)
	return v
}

// wantCounts checks the counts line and the number of visible rows.
func (b *browser) wantCounts(step string, shown, errors, warnings int) {
	b.t.Helper()
	got := fmt.Sprint(b.script(`return [document.getElementById("count-shown").textContent,
		document.getElementById("count-errors").textContent, document.getElementById("count-warnings").textContent,
		document.querySelectorAll("#findings tbody tr[data-rule]:not([hidden])").length]`))
	if want := fmt.Sprintf("[%d %d %d %d]", shown, errors, warnings, shown); got != want {
		b.t.Errorf("%s: counts shown, errors, warnings and visible rows = %s, want %s", step, got, want)
	}
}

// wantRules checks the rule ids of the visible rows, in order.
func (b *browser) wantRules(step string, ids ...string) {
	b.t.Helper()
	got := fmt.Sprint(b.script(`return Array.from(document.querySelectorAll("#findings tbody tr[data-rule]:not([hidden])"), function (r) { return r.dataset.rule; })`))
	if want := fmt.Sprint(ids); got != want {
		b.t.Errorf("%s: visible rules %s, want %s", step, got, want)
	}
}
