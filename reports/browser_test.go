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

	"github.com/specgate/specgate/reports"
)

// TestHTMLInBrowser opens the html report in headless Chromium through
// chromedriver (Debian's chromium and chromium-driver packages) and uses it
// as a person would: filters, sorting, the operation links and the rule
// links, checking the counts after each step. It skips when chromedriver is
// not installed, unless SPECGATE_REQUIRE_BROWSER is set (CI sets it).
func TestHTMLInBrowser(t *testing.T) {
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

func (b *browser) click(css string) {
	b.t.Helper()
	b.must(http.MethodPost, "/element/"+b.find(css)+"/click", map[string]any{}, nil)
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
