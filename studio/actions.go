package studio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/specgate/specgate/internal/fsroot"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/spec"
)

// ActionRequest is POST /api/actions/{action}. Without Apply the action is
// only planned: the answer lists the changes with their diffs and nothing
// is written. With Apply the action is planned again and written, provided
// every file still has the version Expect gives (the preview's), so that
// what is written is what was shown.
type ActionRequest struct {
	Params json.RawMessage   `json:"params"`
	Apply  bool              `json:"apply,omitempty"`
	Expect map[string]string `json:"expect,omitempty"`
}

// Change is one file an action writes, creates, deletes or renames.
type Change struct {
	Path string `json:"path"` // relative to the folder
	Op   string `json:"op"`   // write, create, delete or rename
	To   string `json:"to,omitempty"`
	// Base is the version of Path when the action was planned ("" for a
	// file to create).
	Base string `json:"base"`
	Diff string `json:"diff,omitempty"`

	abs, toAbs string
	after      []byte // the new content (write, create; rename when it changes)
}

// Plan is what an action does.
type Plan struct {
	Action  string   `json:"action"`
	Summary string   `json:"summary"`
	Changes []Change `json:"changes"`
	Notes   []string `json:"notes,omitempty"`
	Applied bool     `json:"applied"`
	// Open is a file the page opens after the action (a renamed file's new
	// path).
	Open string `json:"open,omitempty"`
}

// actions maps an action's name to its planner.
var actions = map[string]func(p *planner, params json.RawMessage) error{
	"rename":            (*planner).rename,
	"import-examples":   (*planner).importExamples,
	"export-examples":   (*planner).exportExamples,
	"generate-examples": (*planner).generateExamples,
	"fix-examples":      (*planner).fixExamples,
	"add-response":      (*planner).addResponse,
	"upgrade-config":    (*planner).upgradeConfig,
}

// ActionNames lists the actions, for documentation and errors.
func ActionNames() []string {
	names := make([]string, 0, len(actions))
	for n := range actions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (s *Server) handleAction(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("action")
	if actions[name] == nil {
		p := problems.New(http.StatusNotFound, httpx.KindNotFound, fmt.Sprintf("no action %q; the actions are %s", name, strings.Join(ActionNames(), ", ")))
		httpx.WriteProblem(w, r, p)
		return
	}
	var req ActionRequest
	if err := decode(w, r, 1<<20, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	plan, err := s.Plan(r.Context(), name, req.Params)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if req.Apply {
		if err := s.apply(plan, req.Expect); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, plan)
}

// Plan plans an action without writing anything.
func (s *Server) Plan(ctx context.Context, action string, params json.RawMessage) (*Plan, error) {
	run := actions[action]
	if run == nil {
		return nil, fmt.Errorf("no action %q; the actions are %s", action, strings.Join(ActionNames(), ", "))
	}
	p := &planner{s: s, ctx: ctx, plan: &Plan{Action: action, Changes: []Change{}}, files: map[string]*textFile{}}
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	if err := run(p, params); err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	return p.plan, nil
}

// Apply plans an action and writes it when every file still has the
// version of expect.
func (s *Server) Apply(ctx context.Context, action string, params json.RawMessage, expect map[string]string) (*Plan, error) {
	plan, err := s.Plan(ctx, action, params)
	if err != nil {
		return nil, err
	}
	return plan, s.apply(plan, expect)
}

// apply writes a plan. Every change's file must still be as the preview
// saw it; then writes and creations go first (each atomic), renames next,
// deletions last.
func (s *Server) apply(plan *Plan, expect map[string]string) error {
	s.ws.mu.Lock()
	defer s.ws.mu.Unlock()
	for _, c := range plan.Changes {
		want, ok := expect[c.Path]
		cur, err := currentVersion(c.abs)
		if err != nil {
			return err
		}
		if !ok || want != c.Base || cur != c.Base {
			return &problemError{problems.New(http.StatusConflict, kindConflict,
				c.Path+" changed since the action was previewed; preview it again")}
		}
		if c.toAbs != "" {
			if _, err := os.Lstat(c.toAbs); err == nil {
				return &problemError{problems.New(http.StatusConflict, kindConflict, c.To+" exists")}
			}
		}
	}
	for _, op := range []string{"write", "create", "rename", "delete"} {
		for _, c := range plan.Changes {
			if c.Op != op {
				continue
			}
			var err error
			switch op {
			case "write", "create":
				err = writeAtomic(c.abs, c.after)
			case "rename":
				if err = os.MkdirAll(filepath.Dir(c.toAbs), 0o755); err != nil {
					break
				}
				if c.after != nil {
					if err = writeAtomic(c.toAbs, c.after); err == nil {
						err = os.Remove(c.abs)
					}
				} else {
					err = os.Rename(c.abs, c.toAbs)
				}
			case "delete":
				err = os.Remove(c.abs)
			}
			if err != nil {
				return fmt.Errorf("%s %s: %w (the changes before it were written)", op, c.Path, fsroot.UnwrapPath(err))
			}
			s.checker.forget(c.abs)
		}
	}
	plan.Applied = true
	return nil
}

// planner collects the changes of one action.
type planner struct {
	s     *Server
	ctx   context.Context
	plan  *Plan
	files map[string]*textFile // files being edited, by absolute path
	order []string
}

func (p *planner) note(format string, args ...any) {
	p.plan.Notes = append(p.plan.Notes, fmt.Sprintf(format, args...))
}

// params decodes an action's parameters, refusing unknown ones.
func params(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the action's params are not as expected: %v", err)
	}
	return nil
}

// edit returns the file at abs, parsed, to add splices to.
func (p *planner) edit(abs string) (*textFile, error) {
	if t := p.files[abs]; t != nil {
		return t, nil
	}
	if !p.s.ws.contains(abs) {
		return nil, fmt.Errorf("%s: %w", abs, errOutside)
	}
	data, _, err := p.s.ws.read(abs)
	if err != nil {
		return nil, err
	}
	t, err := parseTextFile(abs, data)
	if err != nil {
		return nil, err
	}
	p.files[abs] = t
	p.order = append(p.order, abs)
	return t, nil
}

// finish turns the edited files into write changes.
func (p *planner) finish() error {
	for _, abs := range p.order {
		t := p.files[abs]
		if len(t.splices) == 0 {
			continue
		}
		after, err := t.result()
		if err != nil {
			return err
		}
		if bytes.Equal(after, t.data) {
			continue
		}
		if i := slices.IndexFunc(p.plan.Changes, func(c Change) bool { return c.abs == abs && c.Op == "rename" }); i >= 0 {
			c := &p.plan.Changes[i]
			c.after = after
			c.Diff = string(diff.Diff(c.Path, t.data, c.To, after))
			continue
		}
		p.write(abs, t.data, after)
	}
	return nil
}

func (p *planner) write(abs string, before, after []byte) {
	rel := p.s.ws.Rel(abs)
	p.plan.Changes = append(p.plan.Changes, Change{Path: rel, Op: "write", Base: Version(before), abs: abs, after: after,
		Diff: string(diff.Diff(rel, before, rel, after))})
}

func (p *planner) create(abs string, data []byte) bool {
	rel := p.s.ws.Rel(abs)
	if _, err := os.Lstat(abs); err == nil {
		p.note("%s exists: left as it is", rel)
		return false
	}
	if slices.ContainsFunc(p.plan.Changes, func(c Change) bool { return c.abs == abs }) {
		p.note("%s is written once: a second example of that name is left out", rel)
		return false
	}
	p.plan.Changes = append(p.plan.Changes, Change{Path: rel, Op: "create", abs: abs, after: data,
		Diff: string(diff.Diff("/dev/null", nil, rel, data))})
	return true
}

func (p *planner) remove(abs string) error {
	data, v, err := p.s.ws.read(abs)
	if err != nil {
		return err
	}
	rel := p.s.ws.Rel(abs)
	p.plan.Changes = append(p.plan.Changes, Change{Path: rel, Op: "delete", Base: v, abs: abs,
		Diff: string(diff.Diff(rel, data, "/dev/null", nil))})
	return nil
}

// resolveFile resolves a parameter naming an existing file.
func (p *planner) resolveFile(what, rel string) (string, error) {
	if rel == "" {
		return "", fmt.Errorf("%s is missing", what)
	}
	abs, err := p.s.ws.Resolve(rel)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s %q: %w", what, rel, fs.ErrNotExist)
	}
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return "", fmt.Errorf("%s %q is a folder", what, rel)
	}
	return abs, nil
}

// load loads a spec from disk.
func (p *planner) load(abs string) (*spec.Document, error) {
	doc, err := p.s.loader.Load(p.ctx, abs)
	if err != nil {
		return nil, err
	}
	doc.Views()
	return doc, nil
}

// nodeAt finds the node a path of the document reaches and the file it is
// written in.
func nodeAt(doc *spec.Document, path spec.Path) (*spec.Node, *spec.File, bool) {
	var last *spec.Node
	loc := doc.Locate(path, func(n *spec.Node) { last = n })
	if !loc.Exact || loc.File == nil || last == nil {
		return nil, nil, false
	}
	return last, loc.File, true
}

func (p *planner) summary(format string, args ...any) {
	p.plan.Summary = fmt.Sprintf(format, args...)
}
