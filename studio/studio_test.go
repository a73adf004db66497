package studio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// workspace copies testdata/ws into a new folder and returns it.
func workspace(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "petstore")
	err := filepath.WalkDir("testdata/ws", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/ws", p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// studio is a server on loopback and a client that talks to it as the page
// does.
type studio struct {
	t   *testing.T
	s   *Server
	url string
	dir string
}

func start(t *testing.T, dir string) *studio {
	t.Helper()
	s, err := New(Options{Dir: dir, Token: "test-token", Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(s.Handler())
	ts.Start()
	s.Listening(ts.Listener.Addr())
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	return &studio{t: t, s: s, url: ts.URL, dir: s.Workspace().Dir()}
}

// send sends a request with the token and a JSON body, when body is not
// nil; the caller closes the answer's body.
func (c *studio) send(method, path string, body any) *http.Response {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, c.url+path, r)
	req.Header.Set(TokenHeader, "test-token")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return res
}

// do sends a request with the token and decodes a JSON answer into out.
func (c *studio) do(method, path string, body any, out any) int {
	c.t.Helper()
	res := c.send(method, path, body)
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			c.t.Fatalf("%s %s: %d %s: %v", method, path, res.StatusCode, data, err)
		}
	}
	return res.StatusCode
}

// check posts a file's text and reads the stages.
func (c *studio) check(path, text string) map[string]Stage {
	c.t.Helper()
	res := c.send(http.MethodPost, "/api/check", CheckRequest{Path: path, Text: text, Client: "t"})
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		c.t.Fatalf("check %s: %d %s", path, res.StatusCode, b)
	}
	out := map[string]Stage{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var st Stage
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
			c.t.Fatalf("stage line %q: %v", sc.Text(), err)
		}
		out[st.Stage] = st
	}
	if _, ok := out["done"]; !ok {
		c.t.Fatalf("check %s ended without its done line: %v", path, out)
	}
	return out
}

func (c *studio) read(rel string) string {
	c.t.Helper()
	data, err := os.ReadFile(filepath.Join(c.dir, filepath.FromSlash(rel)))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(data)
}

func (c *studio) exists(rel string) bool {
	_, err := os.Stat(filepath.Join(c.dir, filepath.FromSlash(rel)))
	return err == nil
}

// hostOf is the host:port of a URL.
func hostOf(u string) string {
	h := strings.TrimPrefix(u, "http://")
	if host, port, err := net.SplitHostPort(h); err == nil {
		return net.JoinHostPort(host, port)
	}
	return h
}
