package studio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/examples"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/walk"
	"github.com/specgate/specgate/spec"
)

// RenameParams are the parameters of the rename action.
type RenameParams struct {
	Path string `json:"path"`
	To   string `json:"to"`
}

// rename renames a spec or an example file. What names it follows: the
// paths specgate.yaml gives (the spec's, its examples folder's), the $refs
// of the folder's other files, the renamed file's own relative $refs when it
// moves to another folder, and a spec's <name>_examples folder.
func (p *planner) rename(raw json.RawMessage) error {
	var in RenameParams
	if err := params(raw, &in); err != nil {
		return err
	}
	abs, err := p.resolveFile("path", in.Path)
	if err != nil {
		return err
	}
	to, err := p.s.ws.Resolve(in.To)
	if err != nil {
		return err
	}
	if to == abs {
		return fmt.Errorf("%s already has that name", in.Path)
	}
	if _, err := os.Lstat(to); err == nil {
		return fmt.Errorf("%s exists: choose another name", p.s.ws.Rel(to))
	}
	if !isDataFile(to) {
		return fmt.Errorf("%s: a spec or an example is a .yaml, .yml or .json file", p.s.ws.Rel(to))
	}
	data, version, err := p.s.ws.read(abs)
	if err != nil {
		return err
	}
	p.plan.Changes = append(p.plan.Changes, Change{Path: p.s.ws.Rel(abs), Op: "rename", To: p.s.ws.Rel(to), Base: version, abs: abs, toAbs: to})
	p.plan.Open = p.s.ws.Rel(to)
	moves := map[string]string{abs: to}
	kind, _ := p.s.checker.kindOf(abs, data)
	if kind == "spec" {
		oldDir, newDir := examples.DefaultDir(abs), examples.DefaultDir(to)
		if st, err := os.Stat(oldDir); err == nil && st.IsDir() {
			if _, err := os.Lstat(newDir); err == nil {
				p.note("%s exists: the examples stay in %s", p.s.ws.Rel(newDir), p.s.ws.Rel(oldDir))
			} else {
				p.plan.Changes = append(p.plan.Changes, Change{Path: p.s.ws.Rel(oldDir), Op: "rename", To: p.s.ws.Rel(newDir), Base: folderVersion, abs: oldDir, toAbs: newDir})
				moves[oldDir] = newDir
			}
		}
	}
	if err := p.renameInConfig(moves); err != nil {
		return err
	}
	if err := p.renameRefs(abs, to); err != nil {
		return err
	}
	if filepath.Dir(abs) != filepath.Dir(to) {
		if err := p.moveOwnRefs(abs, to); err != nil {
			return err
		}
	}
	p.summary("Rename %s to %s (%s)", p.s.ws.Rel(abs), p.s.ws.Rel(to), english.Count(len(p.plan.Changes), "change", "changes"))
	return nil
}

// renameInConfig rewrites the strings of specgate.yaml that name a moved
// file or folder, relative to the configuration's folder.
func (p *planner) renameInConfig(moves map[string]string) error {
	cfgPath, ok := config.Find(p.s.ws.Dir())
	if !ok || !p.s.ws.contains(cfgPath) {
		return nil
	}
	t, err := p.edit(cfgPath)
	if err != nil {
		p.note("specgate.yaml does not parse, so it was not updated: %v", err)
		return nil
	}
	dir := filepath.Dir(cfgPath)
	walkStrings(t.root, func(n *spec.Node) {
		v := n.Value
		if v == "" || strings.Contains(v, "://") || strings.Contains(v, "${") {
			return
		}
		target := filepath.Clean(filepath.Join(dir, filepath.FromSlash(v)))
		if filepath.IsAbs(v) {
			target = filepath.Clean(v)
		}
		for from, to := range moves {
			if target != from {
				continue
			}
			rel, err := filepath.Rel(dir, to)
			if err != nil {
				return
			}
			rel = filepath.ToSlash(rel)
			if strings.HasPrefix(v, "./") && !strings.HasPrefix(rel, "../") {
				rel = "./" + rel
			}
			if filepath.IsAbs(v) {
				rel = to
			}
			t.replace(n, t.quoteLike(n, rel))
		}
	})
	return nil
}

// walkStrings calls fn for every string value (not key) under n.
func walkStrings(n *spec.Node, fn func(*spec.Node)) {
	switch n.Kind {
	case spec.String:
		fn(n)
	case spec.Object:
		for _, f := range n.Fields {
			walkStrings(f.Value, fn)
		}
	case spec.Array:
		for _, it := range n.Items {
			walkStrings(it, fn)
		}
	}
}

// quoteLike writes s as a scalar quoted as n is written.
func (t *textFile) quoteLike(n *spec.Node, s string) string {
	off := t.offset(n.Range.Start)
	q := byte(0)
	if off < len(t.data) {
		q = t.data[off]
	}
	switch {
	case q == '"' || t.json:
		data, _ := json.Marshal(s)
		return string(data)
	case q == '\'':
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return yamlScalar(s)
}

// renameRefs rewrites the $refs of the folder's other YAML and JSON files
// that point to the renamed file.
func (p *planner) renameRefs(from, to string) error {
	base := []byte(filepath.Base(from))
	return filepath.WalkDir(p.s.ws.Dir(), func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if walk.Skipped(p.s.ws.Dir(), file, d) {
				return filepath.SkipDir
			}
			return nil
		}
		if file == from || !isDataFile(file) || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		data, err := os.ReadFile(file)
		if err != nil || !bytes.Contains(data, base) || !bytes.Contains(data, []byte("$ref")) {
			return nil
		}
		t, err := p.edit(file)
		if err != nil {
			return nil // a file that does not parse has no $refs to follow
		}
		dir := filepath.Dir(file)
		walkRefs(t.root, func(n *spec.Node) {
			target, frag, ok := splitRef(n.Value)
			if !ok || filepath.Clean(filepath.Join(dir, filepath.FromSlash(target))) != from {
				return
			}
			rel, err := filepath.Rel(dir, to)
			if err != nil {
				return
			}
			t.replace(n, t.quoteLike(n, filepath.ToSlash(rel)+frag))
		})
		return nil
	})
}

// moveOwnRefs rewrites the relative $refs of a file that moves to another
// folder, so that they still reach their files.
func (p *planner) moveOwnRefs(from, to string) error {
	t, err := p.edit(from)
	if err != nil {
		return nil
	}
	oldDir, newDir := filepath.Dir(from), filepath.Dir(to)
	walkRefs(t.root, func(n *spec.Node) {
		target, frag, ok := splitRef(n.Value)
		if !ok {
			return
		}
		rel, err := filepath.Rel(newDir, filepath.Join(oldDir, filepath.FromSlash(target)))
		if err != nil {
			return
		}
		t.replace(n, t.quoteLike(n, filepath.ToSlash(rel)+frag))
	})
	return nil
}

// walkRefs calls fn for the string of every $ref under n.
func walkRefs(n *spec.Node, fn func(*spec.Node)) {
	switch n.Kind {
	case spec.Object:
		for _, f := range n.Fields {
			if f.Key == "$ref" && f.Value.Kind == spec.String {
				fn(f.Value)
				continue
			}
			walkRefs(f.Value, fn)
		}
	case spec.Array:
		for _, it := range n.Items {
			walkRefs(it, fn)
		}
	}
}

// splitRef splits a $ref to another local file into its path and its
// fragment ("#/components/…", or ""); ok is false for a local pointer or
// a URL.
func splitRef(ref string) (file, frag string, ok bool) {
	if ref == "" || strings.HasPrefix(ref, "#") || strings.Contains(ref, "://") || path.IsAbs(ref) {
		return "", "", false
	}
	file, frag, _ = strings.Cut(ref, "#")
	if frag != "" || strings.Contains(ref, "#") {
		frag = "#" + frag
	}
	return file, frag, file != ""
}
