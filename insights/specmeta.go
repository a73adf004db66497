package insights

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/atomicfile"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/spec/graphql"
	"github.com/specgate/specgate/spec/proto"
	"github.com/specgate/specgate/spec/wsdl"
	"github.com/specgate/specgate/validate"
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
	// Format is openapi (3.x), swagger (2.0), asyncapi, arazzo, proto,
	// graphql or wsdl, and SpecVersion the version of that format the
	// document declares (proto3, SDL, 1.1, …); spec.FormatName names the
	// format for people.
	Format      string `json:"format,omitempty"`
	SpecVersion string `json:"specVersion,omitempty"`
	// Title and Version are the document's info.title and info.version;
	// the package of a Protocol Buffers file, the name of a WSDL
	// description (GraphQL has no title).
	Title           string               `json:"title,omitempty"`
	Version         string               `json:"version,omitempty"`
	Operations      []OperationMetadata  `json:"operations"`
	Servers         []ServerMetadata     `json:"servers,omitempty"`
	SecuritySchemes []SecuritySchemeInfo `json:"securitySchemes,omitempty"`
	Git             *GitMetadata         `json:"git,omitempty"`
	// Problems are what makes the document invalid (the checks of
	// specgate validate); it is described all the same.
	Problems []Problem `json:"problems,omitempty"`
	// Error is why the specification could not be read (file:line:col and
	// message); the other fields are then empty.
	Error string `json:"error,omitempty"`
}

// Problem is one problem of a specification, where it is written.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
}

// OperationMetadata is one combination of an operation's five identifiers
// (OpenAPI), one AsyncAPI operation, or one operation of a Protocol
// Buffers, GraphQL or WSDL document.
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
	// Name is an operation of Protocol Buffers, GraphQL or WSDL as the
	// compatibility check names it: "rpc acme.v1.Orders/GetOrder",
	// "Query.order", "OrdersPort.GetOrder".
	Name string `json:"name,omitempty"`
	// Kind is an RPC's streaming (unary, client-streaming,
	// server-streaming, bidi-streaming), a GraphQL root's operation type
	// (query, mutation, subscription), a WSDL operation's message exchange
	// pattern (in-out, in-only, …).
	Kind string `json:"kind,omitempty"`
	// Input and Output are an RPC's request and response messages, a
	// GraphQL field's arguments and type, a WSDL operation's input and
	// output messages (or elements).
	Input  string `json:"input,omitempty"`
	Output string `json:"output,omitempty"`
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
		for _, p := range validate.Validate(doc) {
			m.Problems = append(m.Problems, Problem{File: p.File, Line: int(p.Range.Start.Line), Column: int(p.Range.Start.Col), Message: p.Message})
		}
		slog.Debug("spec loaded", slog.String("file", f), slog.String("format", doc.String()), slog.String("id", m.ID),
			slog.Int("files", len(doc.Files())), slog.Duration("duration", time.Since(start)))
		rep.Specs = append(rep.Specs, m)
	}
	return rep, errs
}

// describe fills m from a loaded document.
func describe(m *SpecMetadata, doc *spec.Document) {
	m.Format, m.SpecVersion = string(doc.Format), doc.Version
	switch doc.Format {
	case spec.Proto:
		describeProto(m, proto.Of(doc))
		return
	case spec.GraphQL:
		describeGraphQL(m, graphql.Of(doc))
		return
	case spec.WSDL:
		describeWSDL(m, wsdl.Of(doc))
		return
	}
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

// describeProto lists the RPCs of the entry file's services (an imported
// file's are its own file's), titled by the package.
func describeProto(m *SpecMetadata, s *proto.Schema) {
	if s == nil {
		return
	}
	m.Title = s.Entry.Package
	for _, svc := range s.Entry.Services {
		for _, rpc := range svc.Methods {
			kind := "unary"
			switch {
			case rpc.ClientStreaming && rpc.ServerStreaming:
				kind = "bidi-streaming"
			case rpc.ClientStreaming:
				kind = "client-streaming"
			case rpc.ServerStreaming:
				kind = "server-streaming"
			}
			m.Operations = append(m.Operations, OperationMetadata{Name: "rpc " + svc.FullName + "/" + rpc.Name, Kind: kind,
				Input: strings.TrimPrefix(rpc.Input, "."), Output: strings.TrimPrefix(rpc.Output, ".")})
		}
	}
}

// describeGraphQL lists the fields of the query, mutation and subscription
// roots, with their arguments and types.
func describeGraphQL(m *SpecMetadata, s *graphql.Schema) {
	if s == nil {
		return
	}
	for _, root := range []struct{ kind, name string }{{"query", s.Query}, {"mutation", s.Mutation}, {"subscription", s.Subscription}} {
		t := s.Type(root.name)
		if root.name == "" || t == nil {
			continue
		}
		for _, f := range t.Fields {
			args := make([]string, len(f.Args))
			for i, a := range f.Args {
				args[i] = a.Name + ": " + a.Type.String()
			}
			m.Operations = append(m.Operations, OperationMetadata{Name: t.Name + "." + f.Name, Kind: root.kind,
				Input: strings.Join(args, ", "), Output: f.Type.String()})
		}
	}
}

// describeWSDL lists the operations of the port types (interfaces), and
// the addresses of the services' ports as servers.
func describeWSDL(m *SpecMetadata, d *wsdl.Definitions) {
	if d == nil {
		return
	}
	m.Title = d.Name
	if m.Title == "" && len(d.Services) > 0 {
		m.Title = d.Services[0].Name.Local
	}
	io := func(x *wsdl.IO) string {
		switch {
		case x == nil:
			return ""
		case x.Message.Local != "":
			return x.Message.Local
		}
		return x.Element.Local
	}
	for _, pt := range d.PortTypes {
		for _, op := range pt.Operations {
			m.Operations = append(m.Operations, OperationMetadata{Name: pt.Name.Local + "." + op.Name, Kind: op.Pattern, Input: io(op.Input), Output: io(op.Output)})
		}
	}
	bindings := map[xml.Name]*wsdl.Binding{}
	for _, b := range d.Bindings {
		bindings[b.Name] = b
	}
	for _, svc := range d.Services {
		for _, p := range svc.Ports {
			if p.Address == "" {
				continue
			}
			desc := svc.Name.Local + "." + p.Name
			if b := bindings[p.Binding]; b != nil && b.SOAPVersion != "" {
				desc += " (SOAP " + b.SOAPVersion + ")"
			}
			m.Servers = append(m.Servers, ServerMetadata{URL: p.Address, Description: desc})
		}
	}
}

// OperationCount counts the distinct operations (by method and path, by
// name, or AsyncAPI operation) of an entry.
func (m *SpecMetadata) OperationCount() int {
	seen := map[string]bool{}
	for _, op := range m.Operations {
		key := op.Method + " " + op.Path
		switch {
		case op.Name != "":
			key = "\x00" + op.Name
		case op.Method == "":
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
	if err := atomicfile.Write(path, buf.Bytes()); err != nil {
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
	at := spec.PosAt(data, int(off))
	return fmt.Errorf("%s:%d:%d: %w", path, at.Line, at.Col, err)
}
