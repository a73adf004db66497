package insights

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// The spec metadata report's file name, and the name it had before (the
// central contract repository report), which send-report still reads.
const (
	SpecMetadataFile       = "spec_metadata_report.json"
	LegacySpecMetadataFile = "central_contract_repo_report.json"
)

// SpecMetadataReport describes the specifications of a folder: what an
// organisation's insights service needs to list every API, its operations
// and where it lives.
type SpecMetadataReport struct {
	Tool        Tool           `json:"tool"`
	GeneratedAt time.Time      `json:"generatedAt,omitzero"`
	Specs       []SpecMetadata `json:"specs"`
}

// SpecMetadata is one specification of the report.
type SpecMetadata struct {
	// File is the specification as found, from the working directory.
	File string `json:"file"`
	// ID, Repository and Path name it as SpecRef does.
	ID         string `json:"id"`
	Repository string `json:"repository,omitempty"`
	Path       string `json:"path"`
	// Format is openapi (3.x), swagger (2.0), asyncapi or arazzo, and
	// SpecVersion the version of that format the document declares.
	Format      string `json:"format,omitempty"`
	SpecVersion string `json:"specVersion,omitempty"`
	// Title and Version are the document's info.title and info.version.
	Title           string               `json:"title,omitempty"`
	Version         string               `json:"version,omitempty"`
	Operations      []OperationMetadata  `json:"operations"`
	Servers         []ServerMetadata     `json:"servers,omitempty"`
	SecuritySchemes []SecuritySchemeInfo `json:"securitySchemes,omitempty"`
	Git             *GitMetadata         `json:"git,omitempty"`
	// Error is why the specification could not be read (file:line:col and
	// message); the other fields are then empty.
	Error string `json:"error,omitempty"`
}

// OperationMetadata is one combination of an operation's five identifiers
// (OpenAPI), or one AsyncAPI operation.
type OperationMetadata struct {
	Path                string `json:"path,omitempty"`
	Method              string `json:"method,omitempty"`
	RequestContentType  string `json:"requestContentType,omitempty"`
	Status              string `json:"status,omitempty"`
	ResponseContentType string `json:"responseContentType,omitempty"`
	OperationID         string `json:"operationId,omitempty"`
	// AsyncAPI: the action (send, receive, publish, subscribe) and channel.
	Action  string `json:"action,omitempty"`
	Channel string `json:"channel,omitempty"`
}

// ServerMetadata is a server the specification declares.
type ServerMetadata struct {
	URL         string `json:"url"`
	Description string `json:"description,omitempty"`
}

// SecuritySchemeInfo is a security scheme the specification declares.
type SecuritySchemeInfo struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Scheme string `json:"scheme,omitempty"` // http: basic, bearer
	In     string `json:"in,omitempty"`     // apiKey: header, query, cookie
	// ParamName is the apiKey's header, query parameter or cookie name.
	ParamName string `json:"paramName,omitempty"`
}

// GitMetadata is where the specification is versioned.
type GitMetadata struct {
	Origin string `json:"origin,omitempty"`
	Branch string `json:"branch,omitempty"`
	Commit string `json:"commit,omitempty"`
}

// BuildSpecMetadata loads each file and describes it. A file that does not
// load gets an entry with its error, and the error is returned too; the
// others are described all the same.
func BuildSpecMetadata(ctx context.Context, loader *spec.Loader, files []string, res *Resolver, tool Tool) (*SpecMetadataReport, []error) {
	rep := &SpecMetadataReport{Tool: tool, GeneratedAt: time.Now().UTC(), Specs: []SpecMetadata{}}
	var errs []error
	for _, f := range files {
		ref := res.Ref(ctx, f)
		m := SpecMetadata{File: f, ID: ref.ID, Repository: ref.Repository, Path: ref.Path, Operations: []OperationMetadata{}}
		if res.Git != nil && !strings.Contains(f, "://") && f != "-" {
			if info := res.Git.Info(ctx, filepath.Dir(f)); info != nil {
				m.Git = &GitMetadata{Origin: StripCredentials(info.Origin), Branch: info.Branch, Commit: info.Commit}
			}
		}
		start := time.Now()
		doc, err := loader.Load(ctx, f)
		if err != nil {
			slog.Debug("spec not loaded", slog.String("file", f), slog.String("error", err.Error()))
			m.Error = err.Error()
			errs = append(errs, err)
			rep.Specs = append(rep.Specs, m)
			continue
		}
		describe(&m, doc)
		slog.Debug("spec loaded", slog.String("file", f), slog.String("format", doc.String()), slog.String("id", m.ID),
			slog.Int("files", len(doc.Files())), slog.Duration("duration", time.Since(start)))
		rep.Specs = append(rep.Specs, m)
	}
	return rep, errs
}

// describe fills m from a loaded document.
func describe(m *SpecMetadata, doc *spec.Document) {
	m.Format, m.SpecVersion = string(doc.Format), doc.Version
	info := doc.Root.Root.Get("info")
	m.Title, m.Version = info.GetStr("title"), info.GetStr("version")
	v := doc.Views()
	if doc.Format == spec.AsyncAPI {
		for _, op := range v.AsyncOperations {
			m.Operations = append(m.Operations, OperationMetadata{OperationID: op.ID, Action: op.Action, Channel: op.Channel})
		}
	} else {
		ids := make(map[string]string, len(v.Operations))
		for _, op := range v.Operations {
			ids[strings.ToUpper(op.Method)+" "+op.Path] = op.OperationID
		}
		for _, op := range reports.OperationsOf(doc) {
			for _, row := range op.Rows {
				m.Operations = append(m.Operations, OperationMetadata{
					Path: op.Path, Method: op.Method, RequestContentType: row.RequestType,
					Status: row.Status, ResponseContentType: row.ResponseType,
					OperationID: ids[op.Method+" "+op.Path],
				})
			}
		}
	}
	for _, s := range v.Servers {
		m.Servers = append(m.Servers, ServerMetadata{URL: s.URL, Description: s.Description})
	}
	for _, s := range v.SecuritySchemes {
		m.SecuritySchemes = append(m.SecuritySchemes, SecuritySchemeInfo{Name: s.Name, Type: s.Type, Scheme: s.Scheme, In: s.In, ParamName: s.ParamName})
	}
}

// OperationCount counts the distinct operations (by method and path, or
// AsyncAPI operation) of an entry.
func (m *SpecMetadata) OperationCount() int {
	seen := map[string]bool{}
	for _, op := range m.Operations {
		key := op.Method + " " + op.Path
		if op.Method == "" {
			key = "\x00" + op.OperationID + "\x00" + op.Action + "\x00" + op.Channel
		}
		seen[key] = true
	}
	return len(seen)
}

// WriteSpecMetadata writes the report as indented JSON to dir's
// SpecMetadataFile, whole or not at all, and returns the file's path.
func WriteSpecMetadata(dir string, rep *SpecMetadataReport) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return "", err
	}
	path := filepath.Join(dir, SpecMetadataFile)
	tmp, err := os.CreateTemp(dir, "."+SpecMetadataFile+".*")
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return path, nil
}

// legacySpecMetadata is the earlier report's shape, as the central contract
// repository report had it.
type legacySpecMetadata struct {
	Specifications []struct {
		SpecificationPath string `json:"specificationPath"`
		SpecType          string `json:"specType"`
		Operations        []struct {
			Path         string `json:"path"`
			Method       string `json:"method"`
			ResponseCode any    `json:"responseCode"`
		} `json:"operations"`
	} `json:"specifications"`
}

// ReadSpecMetadata reads a spec metadata report, in this package's shape
// or the earlier report's (specifications with specificationPath and
// operations by path, method and responseCode). Errors name the file.
func ReadSpecMetadata(path string) (*SpecMetadataReport, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, jsonError(path, data, err)
	}
	if _, ok := probe["specs"]; ok {
		var rep SpecMetadataReport
		if err := strictDecode(data, &rep); err != nil {
			return nil, jsonError(path, data, err)
		}
		return &rep, nil
	}
	if _, ok := probe["specifications"]; !ok {
		return nil, fmt.Errorf("%s: not a spec metadata report (it has neither specs nor specifications)", path)
	}
	var old legacySpecMetadata
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, jsonError(path, data, err)
	}
	rep := &SpecMetadataReport{Specs: []SpecMetadata{}}
	for _, s := range old.Specifications {
		m := SpecMetadata{File: s.SpecificationPath, ID: s.SpecificationPath, Path: s.SpecificationPath, Format: strings.ToLower(s.SpecType), Operations: []OperationMetadata{}}
		for _, op := range s.Operations {
			status := ""
			if op.ResponseCode != nil {
				status = strings.Trim(fmt.Sprint(op.ResponseCode), `"`)
			}
			m.Operations = append(m.Operations, OperationMetadata{Path: op.Path, Method: strings.ToUpper(op.Method), Status: status})
		}
		rep.Specs = append(rep.Specs, m)
	}
	return rep, nil
}

func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value")
	}
	return nil
}

// jsonError names the file, line and column of a JSON syntax or type
// error.
func jsonError(path string, data []byte, err error) error {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset - 1 // the offending byte
	case errors.As(err, &te):
		off = te.Offset - 1 // the value's last byte
	}
	if off < 0 {
		return fmt.Errorf("%s: %w", path, err)
	}
	line, col := lineCol(data, off)
	return fmt.Errorf("%s:%d:%d: %w", path, line, col, err)
}
