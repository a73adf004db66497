package suite

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/internal/gittest"
)

// origin makes a repository on branch main and returns its folder and a
// function that commits api.yaml with the content given.
func origin(t *testing.T) (string, func(content string)) {
	t.Helper()
	dir := t.TempDir()
	gittest.Init(t, dir)
	return dir, func(content string) {
		t.Helper()
		filetest.File(t, dir, "api.yaml", content)
		gittest.Commit(t, dir, content)
	}
}

// A git source is cloned into the cache once; the next run fetches the
// branch's newest commit into the same folder.
func TestCloneRefreshes(t *testing.T) {
	for _, branch := range []string{"", "main"} {
		t.Run("branch="+branch, func(t *testing.T) {
			repo, commit := origin(t)
			commit("openapi: 3.0.3 # one\n")
			cache := t.TempDir()
			src := &config.Git{URL: repo, Branch: branch}
			noEnv := func(string) string { return "" }
			dir, err := clone(context.Background(), cache, src, noEnv)
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Dir(dir) != cache {
				t.Errorf("clone in %s, want a folder of %s", dir, cache)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "api.yaml")); string(got) != "openapi: 3.0.3 # one\n" {
				t.Errorf("first clone: api.yaml = %q", got)
			}
			commit("openapi: 3.0.3 # two\n")
			again, err := clone(context.Background(), cache, src, noEnv)
			if err != nil {
				t.Fatal(err)
			}
			if again != dir {
				t.Errorf("second run cloned into %s, want the cached %s", again, dir)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "api.yaml")); string(got) != "openapi: 3.0.3 # two\n" {
				t.Errorf("refreshed clone: api.yaml = %q", got)
			}
			if left, _ := filepath.Glob(filepath.Join(cache, ".clone-*")); len(left) != 0 {
				t.Errorf("temporary clones left: %v", left)
			}
		})
	}
}

// The token of SPECGATE_GIT_TOKEN reaches the server as a bearer header;
// a failed clone names the repository and leaves nothing in the cache.
func TestCloneSendsToken(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, v := range []string{"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"} {
		t.Setenv(v, "")
	}
	var mu sync.Mutex
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer srv.Close()
	url := srv.URL + "/team/apis.git"
	cache := t.TempDir()
	getenv := func(k string) string {
		if k == GitTokenVar {
			return "s3cr3t-t0k"
		}
		return ""
	}
	_, err := clone(context.Background(), cache, &config.Git{URL: url}, getenv)
	if err == nil {
		t.Fatal("the clone of a missing repository succeeded")
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "cloning "+url+": git clone: ") || strings.Contains(msg, "s3cr3t") {
		t.Errorf("error %q: want the repository and git's message, without the token", msg)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(auth) == 0 || auth[0] != "Bearer s3cr3t-t0k" {
		t.Errorf("Authorization headers %q, want Bearer s3cr3t-t0k", auth)
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the cache holds %d entries after a failed clone", len(entries))
	}
}
