package studio

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The browser tests drive the page in headless Chromium through
// chromedriver (Debian's chromium and chromium-driver), as the HTML
// report's tests do: they skip when chromedriver is not installed, unless
// SPECGATE_REQUIRE_BROWSER is set (CI sets it). With
// SPECGATE_STUDIO_SCREENSHOTS=DIR (relative to the repository) they write
// the README's screenshots there.

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

// TestStudioInBrowser uses the studio as a person would: the tree, the
// markers of a broken spec and of a fix typed in, a save refused over a
// change on disk, unsaved edits surviving a reload, and every action.
func TestStudioInBrowser(t *testing.T) {
	driver := chromedriver(t)
	dir := workspace(t)
	gitInit(t, dir)
	c := start(t, dir)
	b := startBrowser(t, driver, filepath.Join(t.TempDir(), "profile"))
	b.open(c.url + "/?token=test-token")
	b.waitFor("the page to start", `return document.body.dataset.ready === "true"`)
	if got := b.script(`return location.search`); got != "" {
		t.Errorf("the token stays in the address bar: %v", got)
	}

	// The tree lists the folder's files, with their kinds.
	tree := fmt.Sprint(b.script(`return Array.from(document.querySelectorAll("#tree a"), a => a.dataset.path + ":" + a.dataset.kind)`))
	for _, want := range []string{"api.yaml:spec", "api_examples/create_pet.json:example", "specgate.yaml:config", "specgate-reports/ctrf-report.json:report", "parts/pet.yaml:file"} {
		if !strings.Contains(tree, want) {
			t.Errorf("the tree %s lacks %s", tree, want)
		}
	}

	// api.yaml opens first; its lint findings are markers and rows.
	b.waitChecked()
	if got := b.script(`return document.getElementById("file-name").textContent`); got != "api.yaml" {
		t.Errorf("the first file opened is %v", got)
	}
	if !strings.Contains(fmt.Sprint(b.markers()), "lint health-endpoint") {
		t.Errorf("api.yaml markers %v lack health-endpoint", b.markers())
	}
	// An inline example that breaks its schema is marked where it is
	// written; typing makes it so, and Backspace undoes it.
	b.script(`var v = studio.view(), l = v.state.doc.line(29); v.dispatch({selection: {anchor: l.from + l.text.indexOf("id: 2") + 4}}); v.focus()`)
	b.typeInto(".cm-content", "x")
	b.waitChecked()
	if got := fmt.Sprint(b.markers()); !strings.Contains(got, "{29 error examples example-body-invalid}") {
		t.Errorf("markers after the edit %s, want an example error on line 29", got)
	}
	b.screenshot("studio-editor.png")
	b.typeInto(".cm-content", "\uE003") // Backspace
	b.waitChecked()
	if got := fmt.Sprint(b.markers()); strings.Contains(got, "error examples") || b.script(`return document.getElementById("dirty").hidden`) != true {
		t.Errorf("markers after undoing the edit %s", got)
	}

	// A spec that does not parse shows its error at its line; typing the
	// missing brace clears it.
	b.click(`#tree a[data-path="broken.yaml"]`)
	b.waitChecked()
	if got := fmt.Sprint(b.markers()); !strings.Contains(got, "{7 error parse parse-error}") {
		t.Errorf("broken.yaml markers %s, want a parse error on line 7", got)
	}
	if got := b.text(`#problems-table tr[data-source="parse"] td.loc`); got != "broken.yaml:7:1" && !strings.HasPrefix(got, "broken.yaml:7:") {
		t.Errorf("the problem row reads %q", got)
	}
	b.script(`studio.cursorAtEnd(7)`)
	b.typeInto(".cm-content", "}}")
	b.waitChecked()
	if got := fmt.Sprint(b.markers()); strings.Contains(got, "parse") || !strings.Contains(got, "lint") {
		t.Errorf("after typing the fix, markers %s", got)
	}
	if b.script(`return document.getElementById("dirty").hidden`) != false {
		t.Error("the edited file is not marked unsaved")
	}

	// Unsaved edits survive a reload of the tab.
	b.script(`location.reload()`)
	b.waitFor("the page to start again", `return document.body.dataset.ready === "true"`)
	b.click(`#tree a[data-path="broken.yaml"]`)
	b.waitChecked()
	if got := b.script(`return studio.view().state.doc.line(7).text`); got != `    get: {responses: {"200": {description: ok}}}` {
		t.Errorf("after a reload line 7 reads %q", got)
	}

	// A save over a change made on disk is refused and shown; the person
	// chooses to keep their text.
	onDisk := c.read("broken.yaml") + "# changed by another program\n"
	writeFile(t, c.dir, "broken.yaml", onDisk)
	b.click("#save")
	b.waitFor("the conflict dialog", `return document.getElementById("dialog").open && document.getElementById("dialog-title").textContent === "Changed on disk"`)
	if got := c.read("broken.yaml"); got != onDisk {
		t.Fatal("the refused save wrote the file")
	}
	if got := b.text("#dialog-body .compare"); !strings.Contains(got, "# changed by another program") {
		t.Errorf("the dialog does not show the disk version: %q", got)
	}
	b.screenshot("studio-conflict.png")
	b.click("#conflict-mine")
	b.waitFor("the save", `return !document.getElementById("dialog").open && document.getElementById("dirty").hidden`)
	if got := c.read("broken.yaml"); !strings.Contains(got, `{description: ok}}}`) || strings.Contains(got, "another program") {
		t.Errorf("broken.yaml after overwriting:\n%s", got)
	}

	// Each action, through its menu item, its form, its diff and Apply.
	b.click(`#tree a[data-path="api.yaml"]`)
	b.waitChecked()
	b.action("generate", nil, func() { b.choose("generate-operation", "GET /pets/{id}") })
	if !c.exists("api_examples/getPet_200.json") {
		t.Error("generate wrote no getPet_200.json")
	}
	b.action("exportExamples", nil, nil)
	if !c.exists("api_examples/two.json") {
		t.Error("export wrote no two.json")
	}
	b.action("importExamples", nil, func() {
		// Keep the files this time.
		b.click("#import-remove")
	})
	if got := c.read("api.yaml"); !strings.Contains(got, "create_pet:\n") || !c.exists("api_examples/create_pet.json") {
		t.Errorf("import: api.yaml\n%s", got)
	}
	b.waitChecked()
	b.action("fix", func() { b.screenshot("studio-action.png") }, nil)
	if got := c.read("api_examples/bad_pet.json"); !strings.Contains(got, "Bearer abc") {
		t.Errorf("fix: bad_pet.json\n%s", got)
	}
	b.action("addResponse", nil, func() {}, func() {
		// The report's one test whose response the spec lacks is chosen.
		if got := b.script(`return document.querySelectorAll('#dialog-body input[name=test]:not([disabled])').length`); got != 1.0 {
			t.Errorf("%v tests offered", got)
		}
	})
	if got := c.read("api.yaml"); !strings.Contains(got, "        \"500\":\n          description: Internal Server Error\n") {
		t.Errorf("add response: api.yaml\n%s", got)
	}
	b.click(`#tree a[data-path="specgate.yaml"]`)
	b.waitChecked()
	b.action("upgrade", nil, nil)
	if got := c.read("specgate.yaml"); !strings.HasPrefix(got, "version: 3") {
		t.Errorf("upgrade: specgate.yaml\n%s", got)
	}
	b.click(`#tree a[data-path="api.yaml"]`)
	b.waitChecked()
	b.action("rename", nil, func() {
		b.script(`document.getElementById("rename-to").value = ""`)
		b.typeInto("#rename-to", "specs/petstore.yaml")
	})
	if !c.exists("specs/petstore.yaml") || !c.exists("specs/petstore_examples/create_pet.json") {
		t.Error("rename did not move the spec and its examples")
	}
	b.waitFor("the renamed file to open", `return document.getElementById("file-name").textContent === "specs/petstore.yaml"`)
	if got := c.read("specgate.yaml"); !strings.Contains(got, "specs/petstore.yaml") {
		t.Errorf("rename: specgate.yaml\n%s", got)
	}
	// Validate examples: the check runs and the panel shows the result.
	b.waitChecked()
	b.click("#actions-button")
	b.click(`#actions-menu button[data-action="validate"]`)
	b.waitFor("the validation", `return /example/.test(document.getElementById("status").textContent)`)
}

// action runs an action of the menu: its form (filled by fill), the diff
// preview (seen by preview), and Apply.
func (b *browser) action(id string, preview func(), fill func(), pick ...func()) {
	b.t.Helper()
	b.click("#actions-button")
	b.click(fmt.Sprintf(`#actions-menu button[data-action=%q]`, id))
	if id != "fix" && id != "upgrade" {
		b.waitFor("the form of "+id, `return document.getElementById("dialog").open && !!document.getElementById("ask-ok")`)
		if fill != nil {
			fill()
		}
		b.click("#ask-ok")
	}
	for _, p := range pick {
		b.waitFor("the choice of "+id, `return document.getElementById("dialog").open && !!document.querySelector("#dialog-body .pick")`)
		p()
		b.click("#ask-ok")
	}
	b.waitFor("the preview of "+id, `return document.getElementById("dialog").open && !!document.getElementById("plan")`)
	if n := b.script(`return document.querySelectorAll("#plan .change-head").length`); n == 0.0 {
		b.t.Fatalf("%s: the preview shows no change: %v", id, b.text("#plan"))
	}
	if preview != nil {
		preview()
	}
	b.click("#apply")
	b.waitFor("the apply of "+id, `return !document.getElementById("dialog").open && document.body.dataset.busy === "false"`)
}

// browser is a WebDriver session on a chromedriver started for one test.
type browser struct {
	t       *testing.T
	base    string
	elemKey string
}

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
		"--window-size=1400,860", "--user-data-dir=" + profile}}
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
	el := b.find(css)
	b.must(http.MethodPost, "/execute/sync", map[string]any{"script": `arguments[0].scrollIntoView({block: "center"})`,
		"args": []any{map[string]string{b.elemKey: el}}}, nil)
	b.must(http.MethodPost, "/element/"+el+"/click", map[string]any{}, nil)
}

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

// waitFor waits up to 20 s for a script to return true.
func (b *browser) waitFor(what, src string) {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for b.script(src) != true {
		if time.Now().After(deadline) {
			b.t.Fatalf("timed out waiting for %s (status %q)", what, b.script(`return document.getElementById("status").textContent + " " + document.getElementById("banner").textContent`))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitChecked waits for the check of the editor's current text to finish.
func (b *browser) waitChecked() {
	b.t.Helper()
	time.Sleep(checkSettle)
	b.waitFor("the check", `return document.body.dataset.checking === "false"`)
}

// markers lists the editor's markers as {line severity source}.
func (b *browser) markers() []string {
	b.t.Helper()
	var out []string
	list, _ := b.script(`return studio.markers()`).([]any)
	for _, m := range list {
		m := m.(map[string]any)
		out = append(out, fmt.Sprintf("{%v %v %v}", m["line"], m["severity"], m["source"]))
	}
	return out
}

// screenshot writes the window as PNG to $SPECGATE_STUDIO_SCREENSHOTS/name.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	dir := os.Getenv("SPECGATE_STUDIO_SCREENSHOTS")
	if dir == "" {
		return
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", dir) // relative to the repository, not to this package
	}
	var data string
	b.must(http.MethodGet, "/screenshot", nil, &data)
	png, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// checkSettle covers the page's pause before a check, so that a wait
// starts after the check began.
const checkSettle = 450 * time.Millisecond

// TestStripeInBrowser measures, in the page, the time from a keystroke in
// stripe.yaml (4 MB) to the markers of each stage: the numbers of
// docs/architecture-notes.md. It runs with SPECGATE_STUDIO_CORPUS=1.
func TestStripeInBrowser(t *testing.T) {
	if os.Getenv("SPECGATE_STUDIO_CORPUS") == "" {
		t.Skip("set SPECGATE_STUDIO_CORPUS=1 to time the page on stripe.yaml")
	}
	driver := chromedriver(t)
	data, err := os.ReadFile("../../shared/corpus/stripe.yaml")
	if err != nil {
		t.Skip("no ../shared/corpus/stripe.yaml")
	}
	dir := t.TempDir()
	writeFile(t, dir, "stripe.yaml", string(data))
	gitInit(t, dir)
	c := start(t, dir)
	c.s.checker.warm(context.Background())
	b := startBrowser(t, driver, filepath.Join(t.TempDir(), "profile"))
	b.open(c.url + "/?token=test-token")
	b.waitFor("the page to start", `return document.body.dataset.ready === "true"`)
	b.waitChecked()
	for i := range 3 {
		b.script(`studio.cursorAtEnd(5)`) // in a description
		b.typeInto(".cm-content", "x")
		b.waitFor("the check", `return document.body.dataset.checking === "false" && parseInt(document.body.dataset.editToDone) > 0 && document.body.dataset.checked !== window.lastChecked`)
		b.script(`window.lastChecked = document.body.dataset.checked`)
		t.Logf("edit %d: %v", i+1, b.script(`var d = document.body.dataset; return ["Parse", "Validate", "Examples", "Compat", "Lint", "Done"].map(s => s.toLowerCase() + " " + d["editTo" + s] + " ms").join(", ") + "; headers after " + d.fetchMs + " ms, drawing " + d.showMs + " ms"`))
		b.script(`for (const k of Object.keys(document.body.dataset)) if (k.startsWith("editTo")) delete document.body.dataset[k]`)
	}
}

// TestTabsInBrowser opens one file in two tabs: each names the other, with
// its unsaved edits, and a save in one reloads the file in the other.
func TestTabsInBrowser(t *testing.T) {
	driver := chromedriver(t)
	c := start(t, workspace(t))
	b := startBrowser(t, driver, filepath.Join(t.TempDir(), "profile"))
	b.open(c.url + "/?token=test-token#api.yaml")
	b.waitFor("the first tab", `return document.body.dataset.ready === "true"`)
	first := b.window()
	firstName := b.script(`return document.getElementById("tab-label").textContent`)
	var opened struct {
		Handle string `json:"handle"`
	}
	b.must(http.MethodPost, "/window/new", map[string]string{"type": "tab"}, &opened)
	b.switchTo(opened.Handle)
	b.open(c.url + "/?token=test-token#api.yaml")
	b.waitFor("the second tab", `return document.body.dataset.ready === "true"`)
	secondName := b.script(`return document.getElementById("tab-label").textContent`)
	if secondName == firstName {
		t.Fatalf("both tabs are named %v", firstName)
	}
	b.waitFor("the second tab to name the first", fmt.Sprintf(`return document.getElementById("banner").textContent.includes("Also open in %s")`, firstName))

	// The second tab edits the file: the first says so.
	b.script(`studio.cursorAtEnd(4)`)
	b.typeInto(".cm-content", " and friends")
	b.switchTo(first)
	b.waitFor("the first tab to see the edit", fmt.Sprintf(`return document.getElementById("banner").textContent.includes("Also open in %s (unsaved changes)")`, secondName))

	// The second tab saves: the first, which has no edits, takes the text.
	b.switchTo(opened.Handle)
	b.click("#save")
	b.waitFor("the save", `return document.getElementById("dirty").hidden`)
	b.switchTo(first)
	b.waitFor("the first tab to reload", `return studio.view().state.doc.line(4).text === "  title: Pets and friends"`)
	b.waitFor("the first tab to see the save", fmt.Sprintf(`var t = document.getElementById("banner").textContent; return t.includes("Also open in %s") && !t.includes("unsaved")`, secondName))
	if got := c.read("api.yaml"); !strings.Contains(got, "title: Pets and friends") {
		t.Errorf("api.yaml after the save:\n%s", got)
	}
}

func (b *browser) window() string {
	b.t.Helper()
	var h string
	b.must(http.MethodGet, "/window", nil, &h)
	return h
}

func (b *browser) switchTo(handle string) {
	b.t.Helper()
	b.must(http.MethodPost, "/window", map[string]string{"handle": handle}, nil)
}
