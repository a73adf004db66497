package examples

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// add writes an exchange as an example file named name (made unique).
func (gen *generator) add(name string, op *spec.Operation, status string, x *exchange) {
	base := name
	for i := 2; gen.names[strings.ToLower(name)]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	gen.names[strings.ToLower(name)] = true
	gen.files = append(gen.files, GeneratedFile{Name: name + ".json", Op: op, Status: status, MediaType: x.respMedia, Data: x.file()})
}

// file writes the exchange in the example format, keys in the order a
// reader expects them.
func (x *exchange) file() []byte {
	req := orderedMap{{"method", x.method}, {"path", x.path}}
	if len(x.query) > 0 {
		req = append(req, kv{"query", x.query})
	}
	headers := map[string]any{}
	for k, v := range x.headers {
		headers[k] = headerText(v)
	}
	if x.media != "" {
		headers["Content-Type"] = x.media
	}
	if len(headers) > 0 {
		req = append(req, kv{"headers", headers})
	}
	if x.media != "" {
		obj, isObject := x.body.(map[string]any)
		switch {
		case isObject && strings.HasPrefix(x.media, "application/x-www-form-urlencoded"):
			req = append(req, kv{"form-fields", obj})
		case isObject && strings.HasPrefix(x.media, "multipart/"):
			parts := []any{}
			for _, name := range slices.Sorted(maps.Keys(obj)) {
				parts = append(parts, orderedMap{{"name", name}, {"content", obj[name]}})
			}
			req = append(req, kv{"multipart-formdata", parts})
		default:
			req = append(req, kv{"body", x.body})
		}
	}
	resp := orderedMap{{"status", x.status}}
	if len(x.respHeaders) > 0 {
		h := map[string]any{}
		for k, v := range x.respHeaders {
			h[k] = headerText(v)
		}
		resp = append(resp, kv{"headers", h})
	}
	if x.respMedia != "" {
		resp = append(resp, kv{"body", x.respBody})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(orderedMap{{"http-request", req}, {"http-response", resp}}); err != nil {
		panic(err) // generated values are JSON values
	}
	return b.Bytes()
}

// headerText writes a header's value as an example holds it: a scalar as
// it is, a structure as the text the parameter's style would give.
func headerText(v any) any {
	switch v.(type) {
	case map[string]any, []any:
		return contract.InlineText(v)
	}
	return v
}

// kv and orderedMap write a JSON object with its keys in order.
type kv struct {
	key string
	val any
}

type orderedMap []kv

func (m orderedMap) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(e.key)
		b.Write(key)
		b.WriteByte(':')
		var vb bytes.Buffer
		enc := json.NewEncoder(&vb)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(e.val); err != nil {
			return nil, err
		}
		b.Write(bytes.TrimSuffix(vb.Bytes(), []byte("\n")))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

var slugChars = regexp.MustCompile(`[^A-Za-z0-9_.+-]+`)

// opName names an operation in file names: its operationId, else its
// method and path.
func opName(op *spec.Operation) string {
	if op.OperationID != "" {
		if s := strings.Trim(slugChars.ReplaceAllString(op.OperationID, "_"), "_."); s != "" {
			return s
		}
	}
	return op.Method + "_" + pathSlug(op.Path)
}

// pathSlug writes a path template for a file name: /pets/{petId} is
// pets_petId.
func pathSlug(path string) string {
	s := strings.Trim(slugChars.ReplaceAllString(strings.NewReplacer("{", "", "}", "").Replace(path), "_"), "_.")
	if s == "" {
		return "root"
	}
	return s
}

// mediaSlug writes a media type for a file name: application/xml is xml.
func mediaSlug(mt string) string {
	base, _, _ := strings.Cut(mt, ";")
	_, sub, _ := strings.Cut(strings.TrimSpace(base), "/")
	if sub == "" || sub == "*" {
		sub = strings.ReplaceAll(base, "*", "any")
	}
	return strings.Trim(slugChars.ReplaceAllString(strings.ReplaceAll(sub, "*", "any"), "_"), "_.")
}

// WriteFiles writes generated files into dir (made when missing), never
// over an existing file: those are returned as skipped, with their paths.
func WriteFiles(dir string, files []GeneratedFile) (written, skipped []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		file, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			skipped = append(skipped, path)
			continue
		}
		if err != nil {
			return written, skipped, err
		}
		_, werr := file.Write(f.Data)
		if cerr := file.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return written, skipped, werr
		}
		written = append(written, path)
	}
	sort.Strings(written)
	sort.Strings(skipped)
	return written, skipped, nil
}
