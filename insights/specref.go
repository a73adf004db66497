package insights

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Resolver names specifications by SpecRef: the same specification gets
// the same ID in every repository and on every machine that reads it from
// the same git repository.
type Resolver struct {
	// Dir is the folder relative file names are relative to; "" is the
	// working directory.
	Dir string
	// Git reads the repositories; nil leaves git out (IDs are paths from
	// Dir).
	Git *Git
	// Aliases maps names that reports give specifications by (the ids of
	// specgate.yaml, which run-suite's reports use) to their files.
	Aliases map[string]string

	mu   sync.Mutex
	refs map[string]SpecRef
}

// Ref is the SpecRef of a specification named file as the reports name it.
func (r *Resolver) Ref(ctx context.Context, file string) SpecRef {
	r.mu.Lock()
	if ref, ok := r.refs[file]; ok {
		r.mu.Unlock()
		return ref
	}
	r.mu.Unlock()
	ref := r.resolve(ctx, file)
	r.mu.Lock()
	if r.refs == nil {
		r.refs = map[string]SpecRef{}
	}
	r.refs[file] = ref
	r.mu.Unlock()
	return ref
}

func (r *Resolver) resolve(ctx context.Context, file string) SpecRef {
	if path, ok := r.Aliases[file]; ok && path != "" && path != file {
		ref := r.resolve(ctx, path)
		ref.File = file
		return ref
	}
	ref := SpecRef{File: file}
	if file == "" || file == "-" || file == "<stdin>" || strings.Contains(file, "://") {
		ref.ID, ref.Path = file, file
		return ref
	}
	dir := r.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, file)
	}
	abs = filepath.Clean(abs)
	ref.Path = relPath(dir, abs)
	ref.ID = ref.Path
	if r.Git == nil {
		return ref
	}
	// The folder of a deleted specification may be gone: ask the nearest
	// one that is there.
	d := filepath.Dir(abs)
	for d != filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			break
		}
		d = filepath.Dir(d)
	}
	info := r.Git.Info(ctx, d)
	if info == nil {
		return ref
	}
	root := info.Root
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		root = resolved
	}
	if resolved, err := filepath.EvalSymlinks(d); err == nil {
		abs = filepath.Join(resolved, filepath.Base(abs))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return ref
	}
	ref.Path = filepath.ToSlash(rel)
	ref.Repository = RepoKey(info.Origin)
	ref.ID = ref.Path
	if ref.Repository != "" {
		ref.ID = ref.Repository + "/" + ref.Path
	}
	return ref
}

// relPath is abs relative to dir with slashes, or abs itself when it is
// outside dir.
func relPath(dir, abs string) string {
	rel, err := filepath.Rel(dir, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}
