package studio

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/browsertest"
	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/internal/gittest"
)

// The browser tests drive the page in headless Chromium through
// chromedriver (Debian's chromium and chromium-driver), as the HTML
// report's tests do: they skip when chromedriver is not installed, unless
// SPECGATE_REQUIRE_BROWSER is set (CI sets it). With
// SPECGATE_STUDIO_SCREENSHOTS=DIR (relative to the repository) they write
// the README's screenshots there.

// TestStudioInBrowser uses the studio as a person would: the tree, the
// markers of a broken spec and of a fix typed in, a save refused over a
// change on disk, unsaved edits surviving a reload, and every action.
func TestStudioInBrowser(t *testing.T) {
	driver := browsertest.Chromedriver(t)
	dir := workspace(t)
	gittest.Init(t, dir)
	gittest.Commit(t, dir, "base")
	c := start(t, dir)
	b := startBrowser(t, driver, filepath.Join(t.TempDir(), "profile"))
	b.Open(c.url + "/?token=test-token")
	b.waitFor("the page to start", `return document.body.dataset.ready === "true"`)
	if got := b.Script(`return location.search`); got != "" {
		t.Errorf("the token stays in the address bar: %v", got)
	}

	// The tree lists the folder's files, with their kinds.
	tree := fmt.Sprint(b.Script(`return Array.from(document.querySelectorAll("#tree a"), a => a.dataset.path + ":" + a.dataset.kind)`))
	for _, want := range []string{"api.yaml:spec", "api_examples/create_pet.json:example", "specgate.yaml:config", "specgate-reports/ctrf-report.json:report", "parts/pet.yaml:file"} {
		if !strings.Contains(tree, want) {
			t.Errorf("the tree %s lacks %s", tree, want)
		}
	}

	// api.yaml opens first; its lint findings are markers and rows.
	b.waitChecked()
	if got := b.Script(`return document.getElementById("file-name").textContent`); got != "api.yaml" {
		t.Errorf("the first file opened is %v", got)
	}
	if !strings.Contains(fmt.Sprint(b.markers()), "lint health-endpoint") {
		t.Errorf("api.yaml markers %v lack health-endpoint", b.markers())
	}
	// An inline example that breaks its schema is marked where it is
	// written; typing makes it so, and Backspace undoes it.
	b.Script(`var v = studio.view(), l = v.state.doc.line(29); v.dispatch({selection: {anchor: l.from + l.text.indexOf("id: 2") + 4}}); v.focus()`)
	b.TypeInto(".cm-content", "x")
	b.waitChecked()
	if got := fmt.Sprint(b.markers()); !strings.Contains(got, "{29 error examples example-body-invalid}") {
		t.Errorf("markers after the edit %s, want an example error on line 29", got)
	}
	b.screenshot("studio-editor.png")
	b.TypeInto(".cm-content", "\uE003") // Backspace
	b.waitChecked()
	if got := fmt.Sprint(b.markers()); strings.Contains(got, "error examples") || b.Script(`return document.getElementById("dirty").hidden`) != true {
		t.Errorf("markers after undoing the edit %s", got)
	}

	// A spec that does not parse shows its error at its line; typing the
	// missing brace clears it.
	b.Click(`#tree a[data-path="broken.yaml"]`)
	b.waitChecked()
	if got := fmt.Sprint(b.markers()); !strings.Contains(got, "{7 error parse parse-error}") {
		t.Errorf("broken.yaml markers %s, want a parse error on line 7", got)
	}
	if got := b.Text(`#problems-table tr[data-source="parse"] td.loc`); got != "broken.yaml:7:1" && !strings.HasPrefix(got, "broken.yaml:7:") {
		t.Errorf("the problem row reads %q", got)
	}
	b.Script(`studio.cursorAtEnd(7)`)
	b.TypeInto(".cm-content", "}}")
	b.waitChecked()
	if got := fmt.Sprint(b.markers()); strings.Contains(got, "parse") || !strings.Contains(got, "lint") {
		t.Errorf("after typing the fix, markers %s", got)
	}
	if b.Script(`return document.getElementById("dirty").hidden`) != false {
		t.Error("the edited file is not marked unsaved")
	}

	// Unsaved edits survive a reload of the tab.
	b.Script(`location.reload()`)
	b.waitFor("the page to start again", `return document.body.dataset.ready === "true"`)
	b.Click(`#tree a[data-path="broken.yaml"]`)
	b.waitChecked()
	if got := b.Script(`return studio.view().state.doc.line(7).text`); got != `    get: {responses: {"200": {description: ok}}}` {
		t.Errorf("after a reload line 7 reads %q", got)
	}

	// A save over a change made on disk is refused and shown; the person
	// chooses to keep their text.
	onDisk := c.read("broken.yaml") + "# changed by another program\n"
	filetest.File(t, c.dir, "broken.yaml", onDisk)
	b.Click("#save")
	b.waitFor("the conflict dialog", `return document.getElementById("dialog").open && document.getElementById("dialog-title").textContent === "Changed on disk"`)
	if got := c.read("broken.yaml"); got != onDisk {
		t.Fatal("the refused save wrote the file")
	}
	if got := b.Text("#dialog-body .compare"); !strings.Contains(got, "# changed by another program") {
		t.Errorf("the dialog does not show the disk version: %q", got)
	}
	b.screenshot("studio-conflict.png")
	b.Click("#conflict-mine")
	b.waitFor("the save", `return !document.getElementById("dialog").open && document.getElementById("dirty").hidden`)
	if got := c.read("broken.yaml"); !strings.Contains(got, `{description: ok}}}`) || strings.Contains(got, "another program") {
		t.Errorf("broken.yaml after overwriting:\n%s", got)
	}

	// Each action, through its menu item, its form, its diff and Apply.
	b.Click(`#tree a[data-path="api.yaml"]`)
	b.waitChecked()
	b.action("generate", nil, func() { b.Choose("generate-operation", "GET /pets/{id}") })
	if !c.exists("api_examples/getPet_200.json") {
		t.Error("generate wrote no getPet_200.json")
	}
	b.action("exportExamples", nil, nil)
	if !c.exists("api_examples/two.json") {
		t.Error("export wrote no two.json")
	}
	b.action("importExamples", nil, func() {
		// Keep the files this time.
		b.Click("#import-remove")
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
		if got := b.Script(`return document.querySelectorAll('#dialog-body input[name=test]:not([disabled])').length`); got != 1.0 {
			t.Errorf("%v tests offered", got)
		}
	})
	if got := c.read("api.yaml"); !strings.Contains(got, "        \"500\":\n          description: Internal Server Error\n") {
		t.Errorf("add response: api.yaml\n%s", got)
	}
	b.Click(`#tree a[data-path="specgate.yaml"]`)
	b.waitChecked()
	b.action("upgrade", nil, nil)
	if got := c.read("specgate.yaml"); !strings.HasPrefix(got, "version: 3") {
		t.Errorf("upgrade: specgate.yaml\n%s", got)
	}
	b.Click(`#tree a[data-path="api.yaml"]`)
	b.waitChecked()
	b.action("rename", nil, func() {
		b.Script(`document.getElementById("rename-to").value = ""`)
		b.TypeInto("#rename-to", "specs/petstore.yaml")
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
	b.Click("#actions-button")
	b.Click(`#actions-menu button[data-action="validate"]`)
	b.waitFor("the validation", `return /example/.test(document.getElementById("status").textContent)`)
}

// action runs an action of the menu: its form (filled by fill), the diff
// preview (seen by preview), and Apply.
func (b *browser) action(id string, preview func(), fill func(), pick ...func()) {
	b.T.Helper()
	b.Click("#actions-button")
	b.Click(fmt.Sprintf(`#actions-menu button[data-action=%q]`, id))
	if id != "fix" && id != "upgrade" {
		b.waitFor("the form of "+id, `return document.getElementById("dialog").open && !!document.getElementById("ask-ok")`)
		if fill != nil {
			fill()
		}
		b.Click("#ask-ok")
	}
	for _, p := range pick {
		b.waitFor("the choice of "+id, `return document.getElementById("dialog").open && !!document.querySelector("#dialog-body .pick")`)
		p()
		b.Click("#ask-ok")
	}
	b.waitFor("the preview of "+id, `return document.getElementById("dialog").open && !!document.getElementById("plan")`)
	if n := b.Script(`return document.querySelectorAll("#plan .change-head").length`); n == 0.0 {
		b.T.Fatalf("%s: the preview shows no change: %v", id, b.Text("#plan"))
	}
	if preview != nil {
		preview()
	}
	b.Click("#apply")
	b.waitFor("the apply of "+id, `return !document.getElementById("dialog").open && document.body.dataset.busy === "false"`)
}

// waitFor waits up to 20 s for a script to return true.
func (b *browser) waitFor(what, src string) {
	b.T.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for b.Script(src) != true {
		if time.Now().After(deadline) {
			b.T.Fatalf("timed out waiting for %s (status %q)", what, b.Script(`return document.getElementById("status").textContent + " " + document.getElementById("banner").textContent`))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitChecked waits for the check of the editor's current text to finish.
func (b *browser) waitChecked() {
	b.T.Helper()
	time.Sleep(checkSettle)
	b.waitFor("the check", `return document.body.dataset.checking === "false"`)
}

// markers lists the editor's markers as {line severity source}.
func (b *browser) markers() []string {
	b.T.Helper()
	var out []string
	list, _ := b.Script(`return studio.markers()`).([]any)
	for _, m := range list {
		m := m.(map[string]any)
		out = append(out, fmt.Sprintf("{%v %v %v}", m["line"], m["severity"], m["source"]))
	}
	return out
}

// screenshot writes the window as PNG to $SPECGATE_STUDIO_SCREENSHOTS/name.
func (b *browser) screenshot(name string) {
	b.T.Helper()
	dir := os.Getenv("SPECGATE_STUDIO_SCREENSHOTS")
	if dir == "" {
		return
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", dir) // relative to the repository, not to this package
	}
	var data string
	b.Must(http.MethodGet, "/screenshot", nil, &data)
	png, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		b.T.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		b.T.Fatal(err)
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
	driver := browsertest.Chromedriver(t)
	data, err := os.ReadFile("../../shared/corpus/stripe.yaml")
	if err != nil {
		t.Skip("no ../shared/corpus/stripe.yaml")
	}
	dir := t.TempDir()
	filetest.File(t, dir, "stripe.yaml", string(data))
	gittest.Init(t, dir)
	gittest.Commit(t, dir, "base")
	c := start(t, dir)
	c.s.checker.warm(context.Background())
	b := startBrowser(t, driver, filepath.Join(t.TempDir(), "profile"))
	b.Open(c.url + "/?token=test-token")
	b.waitFor("the page to start", `return document.body.dataset.ready === "true"`)
	b.waitChecked()
	for i := range 3 {
		b.Script(`studio.cursorAtEnd(5)`) // in a description
		b.TypeInto(".cm-content", "x")
		b.waitFor("the check", `return document.body.dataset.checking === "false" && parseInt(document.body.dataset.editToDone) > 0 && document.body.dataset.checked !== window.lastChecked`)
		b.Script(`window.lastChecked = document.body.dataset.checked`)
		t.Logf("edit %d: %v", i+1, b.Script(`var d = document.body.dataset; return ["Parse", "Validate", "Examples", "Compat", "Lint", "Done"].map(s => s.toLowerCase() + " " + d["editTo" + s] + " ms").join(", ") + "; headers after " + d.fetchMs + " ms, drawing " + d.showMs + " ms"`))
		b.Script(`for (const k of Object.keys(document.body.dataset)) if (k.startsWith("editTo")) delete document.body.dataset[k]`)
	}
}

// TestTabsInBrowser opens one file in two tabs: each names the other, with
// its unsaved edits, and a save in one reloads the file in the other.
func TestTabsInBrowser(t *testing.T) {
	driver := browsertest.Chromedriver(t)
	c := start(t, workspace(t))
	b := startBrowser(t, driver, filepath.Join(t.TempDir(), "profile"))
	b.Open(c.url + "/?token=test-token#api.yaml")
	b.waitFor("the first tab", `return document.body.dataset.ready === "true"`)
	first := b.Window()
	firstName := b.Script(`return document.getElementById("tab-label").textContent`)
	var opened struct {
		Handle string `json:"handle"`
	}
	b.Must(http.MethodPost, "/window/new", map[string]string{"type": "tab"}, &opened)
	b.SwitchTo(opened.Handle)
	b.Open(c.url + "/?token=test-token#api.yaml")
	b.waitFor("the second tab", `return document.body.dataset.ready === "true"`)
	secondName := b.Script(`return document.getElementById("tab-label").textContent`)
	if secondName == firstName {
		t.Fatalf("both tabs are named %v", firstName)
	}
	b.waitFor("the second tab to name the first", fmt.Sprintf(`return document.getElementById("banner").textContent.includes("Also open in %s")`, firstName))

	// The second tab edits the file: the first says so.
	b.Script(`studio.cursorAtEnd(4)`)
	b.TypeInto(".cm-content", " and friends")
	b.SwitchTo(first)
	b.waitFor("the first tab to see the edit", fmt.Sprintf(`return document.getElementById("banner").textContent.includes("Also open in %s (unsaved changes)")`, secondName))

	// The second tab saves: the first, which has no edits, takes the text.
	b.SwitchTo(opened.Handle)
	b.Click("#save")
	b.waitFor("the save", `return document.getElementById("dirty").hidden`)
	b.SwitchTo(first)
	b.waitFor("the first tab to reload", `return studio.view().state.doc.line(4).text === "  title: Pets and friends"`)
	b.waitFor("the first tab to see the save", fmt.Sprintf(`var t = document.getElementById("banner").textContent; return t.includes("Also open in %s") && !t.includes("unsaved")`, secondName))
	if got := c.read("api.yaml"); !strings.Contains(got, "title: Pets and friends") {
		t.Errorf("api.yaml after the save:\n%s", got)
	}
}

// browser is a WebDriver session with this package's own steps.
type browser struct{ *browsertest.Browser }

func startBrowser(t *testing.T, driver, profile string) *browser {
	return &browser{browsertest.Start(t, driver, profile, "--window-size=1400,860")}
}
