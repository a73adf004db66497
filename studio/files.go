package studio

import (
	"errors"
	"io/fs"
	"net/http"
	"os"
	"unicode/utf8"

	"github.com/specgate/specgate/internal/httpx"
)

// TreeResponse is GET /api/tree.
type TreeResponse struct {
	Dir       string  `json:"dir"`
	Files     []Entry `json:"files"`
	Truncated bool    `json:"truncated,omitempty"`
}

func (s *Server) handleTree(w http.ResponseWriter, r *http.Request) {
	files, truncated, err := s.ws.Tree()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, TreeResponse{Dir: s.ws.Dir(), Files: files, Truncated: truncated})
}

// FileResponse is a file's text and version (GET /api/file, and the body of
// a 409 answer to a save).
type FileResponse struct {
	Path    string `json:"path"`
	Text    string `json:"text"`
	Version string `json:"version"`
}

func (s *Server) handleRead(w http.ResponseWriter, r *http.Request) {
	abs, err := s.ws.Resolve(r.URL.Query().Get("path"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	data, version, err := s.ws.read(abs)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !utf8.Valid(data) {
		s.fail(w, r, errors.New(s.ws.Rel(abs)+" is not UTF-8 text"))
		return
	}
	writeJSON(w, http.StatusOK, FileResponse{Path: s.ws.Rel(abs), Text: string(data), Version: version})
}

// VersionResponse is GET /api/version: what a tab polls to learn that its
// file changed on disk.
type VersionResponse struct {
	Path    string `json:"path"`
	Version string `json:"version"` // "" when the file does not exist
}

func (s *Server) handleVersion(w http.ResponseWriter, r *http.Request) {
	abs, err := s.ws.Resolve(r.URL.Query().Get("path"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := currentVersion(abs)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, VersionResponse{Path: s.ws.Rel(abs), Version: v})
}

// SaveRequest is PUT /api/file.
type SaveRequest struct {
	Path string `json:"path"`
	Text string `json:"text"`
	// Base is the version the text was edited from ("" for a new file).
	// The save is refused when the file on disk has another version,
	// unless Force is set (the person chose to overwrite it).
	Base  string `json:"base"`
	Force bool   `json:"force,omitempty"`
}

// SaveResponse is the answer to a save.
type SaveResponse struct {
	Path    string `json:"path"`
	Version string `json:"version"`
}

// ConflictResponse is the 409 answer to a save over a changed file: the
// problem, and the file as it is on disk, for the page to show beside the
// edit.
type ConflictResponse struct {
	*httpx.Problem
	Disk FileResponse `json:"disk"`
}

func (s *Server) handleSave(w http.ResponseWriter, r *http.Request) {
	var req SaveRequest
	if err := decode(w, r, maxFileSize+4096, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	abs, err := s.ws.Resolve(req.Path)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.ws.mu.Lock()
	defer s.ws.mu.Unlock()
	data, err := os.ReadFile(abs)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.fail(w, r, err)
		return
	}
	current := ""
	if exists {
		current = Version(data)
	}
	if current != req.Base && !req.Force {
		detail := s.ws.Rel(abs) + " changed on disk since it was opened; compare the two and choose which to keep"
		if !exists {
			detail = s.ws.Rel(abs) + " was deleted on disk since it was opened"
		}
		p := problems.New(http.StatusConflict, kindConflict, detail)
		p.Instance = r.URL.Path
		w.Header().Set("Content-Type", "application/problem+json")
		writeJSON(w, http.StatusConflict, ConflictResponse{Problem: p, Disk: FileResponse{Path: s.ws.Rel(abs), Text: string(data), Version: current}})
		return
	}
	if err := writeAtomic(abs, []byte(req.Text)); err != nil {
		s.fail(w, r, err)
		return
	}
	s.checker.forget(abs)
	writeJSON(w, http.StatusOK, SaveResponse{Path: s.ws.Rel(abs), Version: Version([]byte(req.Text))})
}
