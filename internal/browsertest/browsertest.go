// Package browsertest drives headless Chromium through chromedriver (the
// WebDriver protocol) for the tests of the pages specgate writes and
// serves: the HTML reports and the studio. Tests skip when chromedriver is
// not installed, unless SPECGATE_REQUIRE_BROWSER is set (CI sets it).
package browsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// Chromedriver finds chromedriver (Debian's chromium and chromium-driver
// packages), or skips the test: always under -short, and when it is not
// installed unless SPECGATE_REQUIRE_BROWSER is set.
func Chromedriver(t *testing.T) string {
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

// elemKey is the WebDriver name of an element reference's member.
const elemKey = "element-6066-11e4-a52e-4f735466cecf"

// Browser is a WebDriver session on a chromedriver started for one test.
// Its methods fail the test on an error.
type Browser struct {
	T    *testing.T
	base string // http://127.0.0.1:port/session/id
}

// Start starts chromedriver on a free loopback port and a headless
// Chromium session with a fresh profile folder and the extra command-line
// args (a window size); both stop when the test ends.
func Start(t *testing.T, driver, profile string, args ...string) *Browser {
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
	b := &Browser{T: t, base: root}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var status struct {
			Ready bool `json:"ready"`
		}
		if err := b.Do(http.MethodGet, "/status", nil, &status); err == nil && status.Ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("chromedriver did not become ready:\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	chromeArgs := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"}
	chromeArgs = append(append(chromeArgs, args...), "--user-data-dir="+profile)
	opts := map[string]any{"args": chromeArgs}
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
	if err := b.Do(http.MethodPost, "/session", caps, &session); err != nil {
		t.Fatalf("starting Chromium: %v\n%s", err, logs.String())
	}
	b.base = root + "/session/" + session.SessionID
	t.Cleanup(func() { _ = b.Do(http.MethodDelete, "", nil, nil) })
	return b
}

// Do sends one WebDriver command and decodes its "value" into out.
func (b *Browser) Do(method, path string, body, out any) error {
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

// Must is Do failing the test on an error.
func (b *Browser) Must(method, path string, body, out any) {
	b.T.Helper()
	if err := b.Do(method, path, body, out); err != nil {
		b.T.Fatal(err)
	}
}

// Open navigates to u.
func (b *Browser) Open(u string) {
	b.T.Helper()
	b.Must(http.MethodPost, "/url", map[string]string{"url": u}, nil)
}

// Find returns the reference of the first element css selects.
func (b *Browser) Find(css string) string {
	b.T.Helper()
	var el map[string]string
	b.Must(http.MethodPost, "/element", map[string]string{"using": "css selector", "value": css}, &el)
	return el[elemKey]
}

// Click clicks an element after scrolling it to the middle of the window,
// where no sticky table header covers it, as a person would.
func (b *Browser) Click(css string) {
	b.T.Helper()
	el := b.Find(css)
	b.Must(http.MethodPost, "/execute/sync", map[string]any{"script": `arguments[0].scrollIntoView({block: "center"})`,
		"args": []any{map[string]string{elemKey: el}}}, nil)
	b.Must(http.MethodPost, "/element/"+el+"/click", map[string]any{}, nil)
}

// Choose picks an option of a select by clicking it, as a person would.
func (b *Browser) Choose(selectID, value string) {
	b.T.Helper()
	b.Click(fmt.Sprintf("#%s option[value=%q]", selectID, value))
}

// TypeInto types text into the element css selects.
func (b *Browser) TypeInto(css, text string) {
	b.T.Helper()
	b.Must(http.MethodPost, "/element/"+b.Find(css)+"/value", map[string]string{"text": text}, nil)
}

// Text is the rendered text of the element css selects.
func (b *Browser) Text(css string) string {
	b.T.Helper()
	var s string
	b.Must(http.MethodGet, "/element/"+b.Find(css)+"/text", nil, &s)
	return s
}

// Script runs src in the page and returns what it returns, as JSON decodes
// it.
func (b *Browser) Script(src string) any {
	b.T.Helper()
	var v any
	b.Must(http.MethodPost, "/execute/sync", map[string]any{"script": src, "args": []any{}}, &v)
	return v
}

// Window is the handle of the current window.
func (b *Browser) Window() string {
	b.T.Helper()
	var h string
	b.Must(http.MethodGet, "/window", nil, &h)
	return h
}

// SwitchTo makes the window of handle the current one.
func (b *Browser) SwitchTo(handle string) {
	b.T.Helper()
	b.Must(http.MethodPost, "/window", map[string]string{"handle": handle}, nil)
}
