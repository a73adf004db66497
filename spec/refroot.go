package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// refRoot confines the local files a document's $refs may read to one
// folder tree. A specification is untrusted input: without the bound, a
// $ref could read any file the linter can (/etc/passwd, ~/.aws/credentials)
// and echo parts of it in messages and reports.
type refRoot struct {
	any      bool   // AllowExternalRefs: every local file
	lexical  string // the root as an absolute, clean path; "" when no local file may be read
	resolved string // the same with symbolic links resolved
}

// refRoot is the tree the $refs of the document whose entry file is key
// may read from.
func (l *Loader) refRoot(key string) refRoot {
	if l.opts.AllowExternalRefs {
		return refRoot{any: true}
	}
	dir := l.opts.RefRoot
	switch {
	case dir != "":
	case isURL(key):
		return refRoot{} // a remote document reads no local file
	case key == "-":
		dir = "."
	default:
		dir = filepath.Dir(key)
		if in := l.inputDir(key); in != "" {
			dir = in
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return refRoot{}
	}
	root := refRoot{lexical: abs, resolved: abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		root.resolved = real
	}
	return root
}

// inputDir is the outermost of the input folders that holds the file key
// (an absolute path), or "".
func (l *Loader) inputDir(key string) string {
	best := ""
	for _, d := range l.opts.InputDirs {
		abs, err := filepath.Abs(d)
		if err == nil && within(abs, key) && (best == "" || len(abs) < len(best)) {
			best = abs
		}
	}
	return best
}

// check returns why the file key, named by a $ref written in the file
// from, may not be read; "" when it may.
func (r refRoot) check(from, key string) string {
	if isURL(from) {
		return "is in a remote document and names a local file; a remote document may only reference URLs"
	}
	if r.any {
		return ""
	}
	if r.lexical == "" {
		return "names a local file, which this document may not read"
	}
	abs, err := filepath.Abs(key)
	if err != nil {
		return fmt.Sprintf("names %s, which cannot be located: %v", key, err)
	}
	if !within(r.lexical, abs) {
		return fmt.Sprintf("reads %s, outside %s (the folder tree $refs may read); pass --allow-external-refs or --ref-root DIR to allow it", shortPath(abs), shortPath(r.lexical))
	}
	// A symbolic link inside the tree may lead out of it. A file that does
	// not exist has nothing to resolve: reading it fails with its own error.
	if real, err := filepath.EvalSymlinks(abs); err == nil && !within(r.resolved, real) {
		return fmt.Sprintf("reads %s, a symbolic link to %s, outside %s (the folder tree $refs may read); pass --allow-external-refs or --ref-root DIR to allow it", shortPath(abs), shortPath(real), shortPath(r.lexical))
	}
	return ""
}

// shortPath names an absolute path relative to the working directory when
// it lies under it, as users name files on the command line.
func shortPath(abs string) string {
	if wd, err := os.Getwd(); err == nil && within(wd, abs) {
		if rel, err := filepath.Rel(wd, abs); err == nil {
			return rel
		}
	}
	return abs
}

// within reports whether path is root or lies under it; both are absolute
// and clean.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(os.PathSeparator)) && !filepath.IsAbs(rel))
}
