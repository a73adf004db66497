package compat

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/gittest"
	"github.com/specgate/specgate/spec"
)

const gitAPI = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: 'schemas/pet.yaml#/Pet'}
`

const gitPet = `Pet:
  type: object
  properties:
    name: {type: string}
    tag: {type: string}
`

// newRepo makes a repository whose main branch holds api.yaml (with a
// $ref'd schemas/pet.yaml), events.yaml and old.yaml, and checks out a
// feature branch.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := gittest.Repo(t, map[string]string{
		"api.yaml":         gitAPI,
		"schemas/pet.yaml": gitPet,
		"old.yaml":         "openapi: 3.0.3\ninfo: {title: Old, version: \"1\"}\npaths:\n  /old:\n    get:\n      responses: {\"200\": {description: ok}}\n",
		"notes.yaml":       "just: data\n",
	})
	gittest.Run(t, dir, "checkout", "-q", "-b", "feature")
	return dir
}

func TestGitMode(t *testing.T) {
	dir := newRepo(t)
	// main moves on after the fork: its new operation must not read as
	// removed by the feature branch.
	gittest.Run(t, dir, "checkout", "-q", "main")
	writeFileCommit(t, dir, "api.yaml", gitAPI+"  /owners:\n    get:\n      responses: {\"200\": {description: ok}}\n")
	gittest.Run(t, dir, "checkout", "-q", "feature")
	// The feature branch removes a property in the $ref'd file (committed),
	// deletes old.yaml, and adds new.yaml (untracked); notes.yaml changes
	// but is no specification.
	if err := os.WriteFile(filepath.Join(dir, "schemas/pet.yaml"), []byte(strings.Replace(gitPet, "    tag: {type: string}\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Commit(t, dir, "drop tag")
	if err := os.Remove(filepath.Join(dir, "old.yaml")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "new.yaml"), strings.Replace(gitAPI, "Pets", "New", 1))
	writeFile(t, filepath.Join(dir, "notes.yaml"), "just: other data\n")

	before := gittest.Run(t, dir, "status", "--porcelain", "--untracked-files=all")
	head := gittest.Run(t, dir, "rev-parse", "HEAD")
	run, err := CheckGit(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})}, GitOptions{RepoDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if after := gittest.Run(t, dir, "status", "--porcelain", "--untracked-files=all"); after != before {
		t.Errorf("the working tree changed:\nbefore %s\nafter %s", before, after)
	}
	if gittest.Run(t, dir, "rev-parse", "HEAD") != head {
		t.Error("HEAD moved")
	}
	if run.Base != "main" || run.Commit != gittest.Run(t, dir, "merge-base", "HEAD", "main") {
		t.Errorf("base %s at %s, want main at the merge base", run.Base, run.Commit)
	}
	got := map[string]Result{}
	for _, r := range run.Results {
		got[filepath.Base(r.Spec)] = r
	}
	if len(got) != 3 {
		t.Fatalf("checked %v, want api.yaml (its $ref'd file changed), new.yaml, old.yaml", slices.Sorted(maps.Keys(got)))
	}
	api := got["api.yaml"]
	if api.Verdict != Incompatible || api.Reason != ReasonBreaking || len(api.Changes) != 1 {
		t.Fatalf("api.yaml: %s %s %+v", api.Verdict, api.Message, api.Changes)
	}
	c := api.Changes[0]
	if c.RuleID != "response-property-removed" || c.Location.Side != Base || filepath.ToSlash(c.Location.File) != filepath.ToSlash(relToWD(t, filepath.Join(dir, "schemas/pet.yaml"))) || c.Location.Line != 5 {
		t.Errorf("change %s at %+v, want response-property-removed at schemas/pet.yaml:5 on main", c.RuleID, c.Location)
	}
	if n := got["new.yaml"]; n.Verdict != Compatible || n.Reason != ReasonNewSpec || !strings.Contains(n.Message, "does not exist on main") {
		t.Errorf("new.yaml: %s %s %q", n.Verdict, n.Reason, n.Message)
	}
	if o := got["old.yaml"]; o.Verdict != Incompatible || o.Reason != ReasonDeleted || !strings.Contains(o.Message, "its 1 operation is missing") {
		t.Errorf("old.yaml: %s %s %q", o.Verdict, o.Reason, o.Message)
	}

	// --target-path narrows the check; a folder finds the specifications in it.
	run, err = CheckGit(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})},
		GitOptions{RepoDir: dir, Targets: []string{filepath.Join(dir, "api.yaml")}})
	if err != nil || len(run.Results) != 1 || run.Results[0].Verdict != Incompatible {
		t.Fatalf("--target-path api.yaml: %v %+v", err, run)
	}
	_, err = CheckGit(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})},
		GitOptions{RepoDir: dir, Targets: []string{filepath.Join(dir, "schemas")}})
	if err == nil || !strings.Contains(err.Error(), "holds no specification") {
		t.Errorf("a folder without specifications: %v", err)
	}
}

func TestGitModeErrors(t *testing.T) {
	dir := newRepo(t)
	_, err := CheckGit(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})}, GitOptions{RepoDir: dir, BaseBranch: "develop"})
	if err == nil || !strings.Contains(err.Error(), `base branch "develop" not found`) {
		t.Errorf("missing branch: %v", err)
	}
	_, err = CheckGit(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})}, GitOptions{RepoDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "is not inside a git repository") {
		t.Errorf("no repository: %v", err)
	}
	run, err := CheckGit(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})}, GitOptions{RepoDir: dir})
	if err != nil || len(run.Results) != 0 {
		t.Errorf("nothing changed: %v %+v", err, run)
	}
}

// OpenBase reads the base branch's files at the merge base, names the
// working tree's files by their paths in the repository, and loads the
// base's versions, $refs and all.
func TestOpenBase(t *testing.T) {
	dir := newRepo(t)
	gittest.Run(t, dir, "checkout", "-q", "main")
	writeFileCommit(t, dir, "schemas/pet.yaml", gitPet+"    age: {type: integer}\n") // after the fork
	gittest.Run(t, dir, "checkout", "-q", "feature")
	writeFile(t, filepath.Join(dir, "api.yaml"), "changed, not committed\n")
	status := gittest.Run(t, dir, "status", "--porcelain")

	ctx := context.Background()
	base, err := OpenBase(ctx, filepath.Join(dir, "schemas"), "")
	if err != nil {
		t.Fatal(err)
	}
	if base.Branch != "main" || base.Commit != gittest.Run(t, dir, "merge-base", "HEAD", "main") {
		t.Errorf("base %s at %s, want main at the merge base", base.Branch, base.Commit)
	}
	rel, ok := base.Rel(filepath.Join(dir, "api.yaml"))
	if !ok || rel != "api.yaml" || !base.Has("schemas/pet.yaml") || base.Has("new.yaml") {
		t.Errorf("Rel %q %v; Has pet %v, new %v", rel, ok, base.Has("schemas/pet.yaml"), base.Has("new.yaml"))
	}
	if _, ok := base.Rel(t.TempDir()); ok {
		t.Error("a folder outside the repository has a path in it")
	}
	doc, err := base.Load(ctx, nil, "api.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range doc.Files() {
		r, ok := base.BaseRel(f.Name)
		if !ok {
			t.Errorf("%s is not a file of the base", f.Name)
		}
		names = append(names, r)
	}
	if strings.Join(names, " ") != "api.yaml schemas/pet.yaml" {
		t.Errorf("loaded %v, want api.yaml and its $ref'd schemas/pet.yaml", names)
	}
	if pet, _ := os.ReadFile(base.Path("schemas/pet.yaml")); string(pet) != gitPet {
		t.Errorf("the base's pet.yaml is %q, want the merge base's", pet)
	}
	if _, err := base.Load(ctx, nil, "new.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a file the base lacks: %v", err)
	}
	if err := base.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(base.Dir); !os.IsNotExist(err) {
		t.Errorf("Close left %s", base.Dir)
	}
	if got := gittest.Run(t, dir, "status", "--porcelain"); got != status {
		t.Errorf("the working tree changed:\nbefore %s\nafter %s", status, got)
	}

	_, err = OpenBase(ctx, dir, "develop")
	var be *BranchError
	if !errors.As(err, &be) || be.Branch != "develop" {
		t.Errorf("a missing branch: %v", err)
	}
	if _, err = OpenBase(ctx, t.TempDir(), ""); !errors.Is(err, ErrNoRepository) {
		t.Errorf("no repository: %v", err)
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeFileCommit(t *testing.T, dir, name, body string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, name), body)
	gittest.Commit(t, dir, "change "+name)
}

func relToWD(t *testing.T, p string) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, p)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// A spec on one side only that does not load is a load error: named on
// the branch when it is the base's (deleted on the feature branch), as
// the working tree's when it is new.
func TestGitModeOneSideDoesNotLoad(t *testing.T) {
	const broken = "openapi: 3.0.3\ninfo: {title: [\n"
	dir := gittest.Repo(t, map[string]string{"gone.yaml": broken})
	gittest.Run(t, dir, "checkout", "-q", "-b", "feature")
	if err := os.Remove(filepath.Join(dir, "gone.yaml")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "fresh.yaml"), broken)
	run, err := CheckGit(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})}, GitOptions{RepoDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Result{}
	for _, r := range run.Results {
		got[filepath.Base(r.Spec)] = r
	}
	for name, onMain := range map[string]bool{"gone.yaml": true, "fresh.yaml": false} {
		r, ok := got[name]
		want := r.Spec + ":3:1: invalid YAML"
		if onMain {
			want = r.Spec + " on main: " + want
		}
		var se *spec.Error
		if !ok || r.Verdict != Error || r.Reason != ReasonLoadError || !errors.As(r.Err, &se) || se.Pos.Line != 3 || !strings.HasPrefix(r.Err.Error(), want) {
			t.Errorf("%s: %s %s %v, want a load error starting %q", name, r.Verdict, r.Reason, r.Err, want)
		}
	}
}
