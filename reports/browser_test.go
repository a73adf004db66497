package reports_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/specgate/specgate/internal/browsertest"
	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// TestHTMLInBrowser opens the lint html report in headless Chromium
// through chromedriver and uses it as a person would: filters, sorting,
// the operation links and the rule links, checking the counts after each
// step.
func TestHTMLInBrowser(t *testing.T) {
	driver := browsertest.Chromedriver(t)
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
	b.Open((&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String())

	// Nothing is fetched: no resource entries besides the page itself.
	if n := b.Script(`return performance.getEntriesByType("resource").length`); n != 0.0 {
		t.Errorf("the page loaded %v resources", n)
	}
	b.wantCounts("initial", 7, 4, 3)
	if got := b.Text("#filter-rule option[value=media-type-xml]"); got != "media-type-xml (1)" {
		t.Errorf("rule choice reads %q, want it to count its findings", got)
	}

	b.Choose("filter-rule", "media-type-xml")
	b.wantCounts("rule media-type-xml", 1, 0, 1)
	b.wantRules("rule media-type-xml", "media-type-xml")
	if got := b.Text("#filter-severity option[value=error]"); got != "error (0)" {
		t.Errorf("with the rule filter on, the error choice reads %q, want error (0)", got)
	}

	b.Click("#filter-clear")
	b.wantCounts("cleared", 7, 4, 3)
	b.Choose("filter-severity", "error")
	b.wantCounts("severity error", 4, 4, 0)
	b.Choose("filter-category", "Naming")
	b.wantCounts("severity error, category Naming", 1, 1, 0)
	b.wantRules("severity error, category Naming", "path-parameters-snake-case")

	b.Click("#filter-clear")
	b.Choose("filter-file", "broken.yaml")
	b.wantCounts("file broken.yaml", 1, 1, 0)
	b.wantRules("file broken.yaml", "load-error")

	b.Click("#filter-clear")
	b.TypeInto("#filter-path", "RESPONSES")
	b.wantCounts("path contains RESPONSES", 1, 1, 0)
	b.wantRules("path contains RESPONSES", "error-response-schema")
	b.Choose("filter-severity", "warn")
	b.wantCounts("path and severity with no match", 0, 0, 0)
	if b.Script(`return document.getElementById("no-findings").hidden`) != false {
		t.Error("the empty-table message is hidden when no finding matches")
	}

	b.Click("#filter-clear")
	b.Click("#findings thead tr:first-child th:nth-child(1) button")
	b.wantRules("sorted by severity, ascending", "health-endpoint", "operation-summary", "media-type-xml",
		"error-response-schema", "path-parameters-snake-case", "load-error", "load-error")
	b.Click("#findings thead tr:first-child th:nth-child(5) button")
	b.Click("#findings thead tr:first-child th:nth-child(5) button")
	b.wantRules("sorted by line, descending", "media-type-xml", "error-response-schema", "operation-summary",
		"health-endpoint", "path-parameters-snake-case", "load-error", "load-error")

	// Each combination counts the findings of its operation that concern
	// it: the 404 has its own error, the XML body its own warning, and the
	// missing summary of GET /pets concerns both of its responses.
	ops := b.Script(`return Array.from(document.querySelectorAll(".operations tbody tr"), function (r) {
		return Array.from(r.querySelectorAll("td.num"), function (c) { return c.textContent; }).join("/"); })`)
	if got := fmt.Sprint(ops); got != "[0/1 1/1 0/0 0/1 1/0]" {
		t.Errorf("operation rows errors/warnings = %s, want [0/1 1/1 0/0 0/1 1/0]", got)
	}

	// The operation GET /pets/{petId} lives in parts/pet.yaml; its link
	// filters the findings to it.
	b.Click(`a.op-link[data-path="/get"]`)
	b.wantCounts("operation GET /pets/{petId}", 1, 1, 0)
	b.wantRules("operation GET /pets/{petId}", "path-parameters-snake-case")
	if got := b.Script(`return [document.getElementById("filter-file").value, document.getElementById("filter-path").value]`); fmt.Sprint(got) != "[testdata/parts/pet.yaml /get]" {
		t.Errorf("operation link set the filters to %v", got)
	}

	// A rule's documentation is one click from its findings.
	b.Click("#filter-clear")
	b.Click(`#findings a[href="#rule-media-type-xml"]`)
	if got := b.Script(`var r = document.querySelector(":target"); return r ? r.id + " " + r.querySelector("h3").textContent : ""`); got != "rule-media-type-xml media-type-xml Bodies are not XML" {
		t.Errorf("after clicking the rule link the target is %q", got)
	}
}

// TestTestRunHTMLInBrowser opens the html report of a test run, written
// by a Sink a test at a time, in headless Chromium: the tests grouped by
// the five identifiers, the filters and their counts, an operation's
// "Show" link, and a test's requests and responses.
func TestTestRunHTMLInBrowser(t *testing.T) {
	driver := browsertest.Chromedriver(t)
	dir := t.TempDir()
	page := sinkRun(t, testResults(t), dir)["html"]
	b := startBrowser(t, driver, filepath.Join(dir, "profile"))
	b.Open((&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String())

	if n := b.Script(`return performance.getEntriesByType("resource").length`); n != 0.0 {
		t.Errorf("the page loaded %v resources", n)
	}
	counts := func(step, want string) {
		t.Helper()
		got := fmt.Sprint(b.Script(`var s = document.getElementById("tests-section");
			return ["shown", "passed", "failed", "skipped"].map(function (k) { return s.querySelector("[data-count=" + k + "]").textContent; })
				.concat([document.querySelectorAll("#tests tbody tr[data-status]:not([hidden])").length])`))
		if got != want {
			t.Errorf("%s: counts shown, passed, failed, skipped and visible rows = %s, want %s", step, got, want)
		}
	}
	rows := func(step string, want ...string) {
		t.Helper()
		got := fmt.Sprint(b.Script(`return Array.from(document.querySelectorAll("#tests tbody tr[data-status]:not([hidden])"), function (r) {
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
	if got := b.Script(`var r = document.querySelector("#tests tr.cont td.key span"); return getComputedStyle(r).visibility`); got != "hidden" {
		t.Errorf("a grouped row's identifiers are %v, want hidden", got)
	}
	if got := b.Text(`#tests-filter-method option[value="POST"]`); got != "POST (1)" {
		t.Errorf("method choice reads %q", got)
	}

	b.Choose("tests-filter-result", "failed")
	counts("result failed", "[3 0 3 0 3]")
	if got := b.Text(`#tests-filter-path option[value="/pets"]`); got != "/pets (0)" {
		t.Errorf("with failed chosen, the /pets choice reads %q", got)
	}
	b.Click(`[data-clear="tests"]`)
	b.TypeInto("#tests-filter-name", "SLOW")
	counts("name contains SLOW", "[2 1 0 1 2]")

	// An operation's Show link filters the tests to its five identifiers.
	b.Click(`#coverage a.op-link[data-filters*="%2Fpets%2F%7Bid%7D"][data-filters*="404"]`)
	rows("GET /pets/{id} 404", "GET /pets/{id} -> 404 (not declared)")
	b.Click(`#coverage a.op-link[data-filters*="0=%2Fpets&"]`)
	rows("GET /pets 200", "GET /pets -> 200", "+GET /pets?limit=1 -> 200")
	if got := b.Script(`return ["path", "method", "request", "status", "response", "name"].map(function (k) {
		return document.getElementById("tests-filter-" + k).value; })`); fmt.Sprint(got) != "[/pets GET - 200 application/json ]" {
		t.Errorf("the Show link set the filters to %v", got)
	}

	// A test's requests and responses are one click away.
	b.Click(`[data-clear="tests"]`)
	b.Choose("tests-filter-path", "/broken")
	if b.Script(`return document.querySelector("#tests tbody tr:not([hidden]) details").open`) != false {
		t.Error("the exchanges are open before a click")
	}
	b.Click(`#tests tbody tr:not([hidden]) details summary`)
	got := fmt.Sprint(b.Script(`var d = document.querySelector("#tests tbody tr:not([hidden]) details");
		return [d.open, d.querySelector("pre.request").innerText.trim(), d.querySelector("pre.response").innerText.split("\n")[0],
			d.querySelector("ul.problems").innerText]`))
	want := "[true GET http://pets.test/broken\nAccept: application/json 500 Internal Server Error body $.id: must be integer, found string (schema at slow.yaml:18:15)]"
	if got != want {
		t.Errorf("the failed test's details read %q, want %q", got, want)
	}
	if got := b.Script(`return document.querySelector("#coverage h3 + p").textContent`); got != "3 of 3 operations covered (4 in the specification, 1 missing in spec)" {
		t.Errorf("coverage of pets.yaml reads %q", got)
	}
}

// TestCompatHTMLInBrowser opens a compatibility report: a choice or a text
// box above each column of the changes narrows them, and the counts follow.
func TestCompatHTMLInBrowser(t *testing.T) {
	driver := browsertest.Chromedriver(t)
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
	b.Open((&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String())
	counts := func(step, want string) {
		t.Helper()
		got := fmt.Sprint(b.Script(`var s = document.getElementById("changes-section");
			return ["shown", "breaking", "warning", "info"].map(function (k) { return s.querySelector("[data-count=" + k + "]").textContent; })
				.concat(Array.from(document.querySelectorAll("#changes tbody tr[data-level]:not([hidden]) td.rule"), function (c) { return c.textContent; }))`))
		if got != want {
			t.Errorf("%s: counts and visible rules = %s, want %s", step, got, want)
		}
	}
	counts("initial", "[3 1 1 1 operation-removed operation-id-changed response-property-added]")
	if got := b.Text("h1"); got != "Backward compatibility against main (abc1234): INCOMPATIBLE" {
		t.Errorf("title reads %q", got)
	}
	// A change in the base names the branch its location is on.
	if got := b.Text("#changes tbody tr td.loc"); got != "api.yaml:12:3 (on main)" {
		t.Errorf("the removed operation's location reads %q", got)
	}
	b.Click(`#changes select[data-col="1"] option[value="warning"]`)
	counts("level warning", "[1 0 1 0 operation-id-changed]")
	b.Click(`[data-clear="changes"]`)
	b.TypeInto(`#changes input[data-col="3"]`, "get /PETS")
	counts("operations contain get /PETS", "[2 0 1 1 operation-id-changed response-property-added]")
	b.TypeInto(`#changes input[data-col="4"]`, ":31:")
	counts("and location contains :31:", "[1 0 0 1 response-property-added]")
}

// wantCounts checks the counts line and the number of visible rows.
func (b *browser) wantCounts(step string, shown, errors, warnings int) {
	b.T.Helper()
	got := fmt.Sprint(b.Script(`return [document.getElementById("count-shown").textContent,
		document.getElementById("count-errors").textContent, document.getElementById("count-warnings").textContent,
		document.querySelectorAll("#findings tbody tr[data-rule]:not([hidden])").length]`))
	if want := fmt.Sprintf("[%d %d %d %d]", shown, errors, warnings, shown); got != want {
		b.T.Errorf("%s: counts shown, errors, warnings and visible rows = %s, want %s", step, got, want)
	}
}

// wantRules checks the rule ids of the visible rows, in order.
func (b *browser) wantRules(step string, ids ...string) {
	b.T.Helper()
	got := fmt.Sprint(b.Script(`return Array.from(document.querySelectorAll("#findings tbody tr[data-rule]:not([hidden])"), function (r) { return r.dataset.rule; })`))
	if want := fmt.Sprint(ids); got != want {
		b.T.Errorf("%s: visible rules %s, want %s", step, got, want)
	}
}

// browser is a WebDriver session with this package's own steps.
type browser struct{ *browsertest.Browser }

func startBrowser(t *testing.T, driver, profile string) *browser {
	return &browser{browsertest.Start(t, driver, profile)}
}
