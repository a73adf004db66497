package examples

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

func readExample(t *testing.T, path string) *Example {
	t.Helper()
	ex, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ex
}

// lit returns a value's JSON as written, notations as text.
func lit(v Value) any { return Literalize(v) }

func params(ps []Param) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name+"="+contract.InlineText(Literalize(p.Value)))
	}
	return strings.Join(out, " ")
}

func fieldsText(fs []Field) string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Key+"="+contract.InlineText(Literalize(f.Value)))
	}
	return strings.Join(out, " ")
}

func at(l Loc) string {
	return strconv.Itoa(int(l.Range.Start.Line)) + ":" + strconv.Itoa(int(l.Range.Start.Col))
}

// Every field of the format, in JSON and in YAML, reads the same.
func TestReadFullExample(t *testing.T) {
	type view struct {
		Name, Method, RawPath, Path, Query, Headers, ContentType string
		Body                                                     any
		Status                                                   int
		StatusText, RespHeaders                                  string
		RespBody, Data                                           any
		Delay                                                    time.Duration
		Transient                                                bool
		Ext                                                      string
		Kind                                                     Kind
	}
	want := view{
		Name: "create_pet_full", Method: "POST", RawPath: "/pets?source=web&tag=a&tag=b", Path: "/pets",
		Query:       "source=web tag=a tag=b dryRun=false ids=[1,2]",
		Headers:     "Content-Type=application/json Authorization=Bearer ${PET_TOKEN:dev-token} X-Trace=[\"a\",\"b\"]",
		ContentType: "application/json",
		Body:        map[string]any{"name": "Rex", "tags": []any{"good"}, "owner": "$(data.owner)"},
		Status:      201, StatusText: "Created",
		RespHeaders: "Location=/pets/$(request.body.name) Content-Type=application/json",
		RespBody:    map[string]any{"id": "(id:string)", "name": "$match(exact: Rex)", "tags": "$match(contains: good)"},
		Data:        map[string]any{"owner": map[string]any{"name": "Ann"}},
		Delay:       250 * time.Millisecond, Ext: "x-team=pets", Kind: Positive,
	}
	positions := map[string][2]string{ // what → where in full.json, full.yaml
		"method":   {"4:15", "4:11"},
		"status":   {"15:15", "18:11"},
		"delay":    {"21:28", "30:24"},
		"name":     {"2:11", "2:7"},
		"captured": {"18:20", "24:9"},
	}
	for i, file := range []string{"full.json", "full.yaml"} {
		t.Run(file, func(t *testing.T) {
			ex := readExample(t, filepath.Join("testdata", "files", file))
			var body any
			if ex.Request.Body != nil {
				body = lit(ex.Request.Body)
			}
			got := view{
				Name: ex.Name, Method: ex.Request.Method, RawPath: ex.Request.RawPath, Path: contract.InlineText(lit(ex.Request.Path)),
				Query: params(ex.Request.Query), Headers: params(ex.Request.Headers), ContentType: ex.Request.ContentType,
				Body: body, Status: ex.Response.Status, StatusText: ex.Response.StatusText,
				RespHeaders: params(ex.Response.Headers), RespBody: lit(ex.Response.Body), Data: lit(ex.Data),
				Delay: ex.Metadata.Delay, Transient: ex.Metadata.Transient, Ext: fieldsText(ex.Metadata.Extensions), Kind: ex.Kind(),
			}
			got.Body = normalize(got.Body)
			got.RespBody = normalize(got.RespBody)
			got.Data = normalize(got.Data)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			id := ex.Response.Body.(*Object).Get("id").(*Capture)
			for what, loc := range map[string]Loc{"method": ex.Request.MethodLoc, "status": ex.Response.StatusLoc, "delay": ex.Metadata.DelayLoc, "name": ex.NameLoc, "captured": id.At} {
				if got := at(loc); got != positions[what][i] || loc.File != ex.File {
					t.Errorf("%s at %s:%s, want %s", what, loc.File, got, positions[what][i])
				}
			}
			if ex.Request.Header("authorization") == nil || ex.Response.Header("LOCATION") == nil {
				t.Error("headers are not found in any case")
			}
			if _, ok := ex.Request.Path.(*Literal); !ok {
				t.Errorf("path is %T, want a literal", ex.Request.Path)
			}
		})
	}
}

// normalize makes numbers comparable across JSON and YAML readings.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = normalize(x)
		}
	case []any:
		for i, x := range v {
			v[i] = normalize(x)
		}
	}
	return v
}

func TestReadFiles(t *testing.T) {
	dir := filepath.Join("testdata", "files")
	t.Run("partial", func(t *testing.T) {
		ex := readExample(t, filepath.Join(dir, "partial.json"))
		if !ex.Partial || ex.Name != "partial" || ex.Response.Status != 0 || ex.Metadata.Delay != 1500*time.Millisecond || !ex.Metadata.Transient {
			t.Errorf("partial %v name %q status %d delay %v transient %v", ex.Partial, ex.Name, ex.Response.Status, ex.Metadata.Delay, ex.Metadata.Transient)
		}
		if _, ok := ex.Request.Path.(*Template); !ok || ex.Kind() != Positive {
			t.Errorf("path %T kind %v", ex.Request.Path, ex.Kind())
		}
	})
	t.Run("fixtures", func(t *testing.T) {
		ex := readExample(t, filepath.Join(dir, "fixtures.json"))
		if len(ex.Before) != 2 || len(ex.After) != 1 {
			t.Fatalf("%d before, %d after", len(ex.Before), len(ex.After))
		}
		token := ex.Before[0]
		if token.Type != "http" || token.Scenario != ScenarioPositive || lit(token.Request.BaseURL) != "${AUTH_URL:http://localhost:9100}" ||
			token.Request.ContentType != "application/x-www-form-urlencoded" || params(token.Request.FormFields) != "grant_type=client_credentials client_id=${CLIENT_ID:test}" {
			t.Errorf("token fixture: %+v %+v", token, token.Request)
		}
		if ex.Before[1].Scenario != ScenarioAll || ex.After[0].Scenario != ScenarioNegative || ex.After[0].When != "after" || ex.Before[1].Index != 1 {
			t.Errorf("scenarios %v %v", ex.Before[1].Scenario, ex.After[0].Scenario)
		}
		if ex.Before[0].Response.Status != 200 || ex.After[0].Response.Status != 204 {
			t.Errorf("fixture statuses %d %d", ex.Before[0].Response.Status, ex.After[0].Response.Status)
		}
		var names []string
		for _, f := range Fixtures(ex.Before, ScenarioNegative) {
			names = append(names, at(f.Loc))
		}
		if want := []string{"13:5"}; !reflect.DeepEqual(names, want) {
			t.Errorf("before fixtures for a negative test at %v, want %v", names, want)
		}
		if got := Fixtures(ex.After, ex.Scenario()); len(got) != 0 {
			t.Errorf("a positive example runs %d negative after fixtures", len(got))
		}
		// The fixtures run in order and pass their captures on.
		store := map[string]any{}
		ctx := &Context{Getenv: env(nil), Store: store}
		tokenBody := plain(t, `{"access_token": "T-1"}`)
		r := ctx.Check(token.Response.Body, tokenBody, Assertions)
		for k, v := range r.Captured {
			store[k] = v
		}
		h, err := ctx.Eval(ex.Before[1].Request.Header("Authorization").Value)
		if err != nil || h != "Bearer T-1" {
			t.Errorf("the second fixture's header is %v (%v)", h, err)
		}
		r = ctx.Check(ex.Before[1].Response.Body, plain(t, `{"id": 12, "owner": {"n": 1}}`), Assertions)
		for k, v := range r.Captured {
			store[k] = v
		}
		path, err := ctx.Eval(ex.Request.Path)
		if err != nil || path != "/pets/12" {
			t.Errorf("the example's path is %v (%v)", path, err)
		}
		if r := ctx.Check(ex.Response.Body, plain(t, `{"id": 13, "name": "Rex", "vet": "Dr. V"}`), Assertions); !reflect.DeepEqual(problems(r), []string{"$.id: expected exactly 12, found 13"}) {
			t.Errorf("the response check: %q", problems(r))
		}
	})
	t.Run("multipart", func(t *testing.T) {
		ex := readExample(t, filepath.Join(dir, "multipart.json"))
		ps := ex.Request.Multipart
		if len(ps) != 3 || ex.Request.ContentType != "multipart/form-data" {
			t.Fatalf("%d parts, content type %q", len(ps), ex.Request.ContentType)
		}
		if ps[0].Name != "caption" || lit(ps[0].Content) != "Rex at the beach" || ps[0].File != "" {
			t.Errorf("part 0: %+v", ps[0])
		}
		if ps[1].ContentType != "application/json" || !reflect.DeepEqual(normalize(lit(ps[1].Content)), map[string]any{"width": plain(t, "640")}) {
			t.Errorf("part 1: %+v", ps[1])
		}
		if ps[2].File != filepath.Join(dir, "data.csv") || ps[2].Filename != "data.csv" || ps[2].Content != nil || ps[2].ContentEncoding != "gzip" || ps[2].ContentType != "text/csv" {
			t.Errorf("part 2: %+v", ps[2])
		}
	})
	t.Run("form", func(t *testing.T) {
		ex := readExample(t, filepath.Join(dir, "form.yaml"))
		if params(ex.Request.FormFields) != "user=ann remember=true" || ex.Request.Body != nil || ex.Request.ContentType != "application/x-www-form-urlencoded" {
			t.Errorf("form %q body %v type %q", params(ex.Request.FormFields), ex.Request.Body, ex.Request.ContentType)
		}
		if params(ex.Response.Headers) != `Location=/home Set-Cookie=["a=1","b=2"]` || ex.Response.Status != 302 {
			t.Errorf("response headers %q", params(ex.Response.Headers))
		}
	})
	t.Run("kinds", func(t *testing.T) {
		for file, want := range map[string]Kind{
			"method_not_allowed.json": MethodNotAllowed, "unsupported_media.json": UnsupportedMediaType,
			"bad_request.yaml": BadRequest, "unprocessable.json": Unprocessable, "not_found.json": Negative, "form.yaml": Positive,
		} {
			ex := readExample(t, filepath.Join(dir, file))
			if ex.Kind() != want {
				t.Errorf("%s: kind %v, want %v", file, ex.Kind(), want)
			}
			if (want == Positive) != (ex.Scenario() == ScenarioPositive) {
				t.Errorf("%s: scenario %v", file, ex.Scenario())
			}
		}
		ex := readExample(t, filepath.Join(dir, "bad_request.yaml"))
		if params(ex.Request.Query) != "page=1 notInSpec=surprise" {
			t.Errorf("bad request query %q", params(ex.Request.Query))
		}
		ex = readExample(t, filepath.Join(dir, "unsupported_media.json"))
		if ex.Request.ContentType != "text/plain" || lit(ex.Request.Body) != "not json" {
			t.Errorf("415: %q %v", ex.Request.ContentType, lit(ex.Request.Body))
		}
	})
}

var wantRE = regexp.MustCompile(`# want (\d+) "((?:[^"\\]|\\.)*)"`)

// Each bad file marks the lines that must be reported: "# want COL "msg""
// (the message unquoted as a Go string). Every report must be wanted, and
// every want reported, at its line and column.
func TestReadBadFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "bad", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no bad files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for i, line := range strings.Split(string(data), "\n") {
				for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
					msg, err := strconv.Unquote(`"` + m[2] + `"`)
					if err != nil {
						t.Fatalf("line %d: %v", i+1, err)
					}
					want = append(want, file+":"+strconv.Itoa(i+1)+":"+m[1]+": "+msg)
				}
			}
			_, rerr := ReadFile(file, Options{})
			var got []string
			var es Errors
			if errors.As(rerr, &es) {
				for _, e := range es {
					got = append(got, e.Error())
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}

// Problems that a want comment cannot mark: files that are not examples,
// limits.
func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, data string
		opts       Options
		want       string
	}{
		{"array.json", `[1]`, Options{}, `array.json:1:1: not an example: an example file holds an object with http-request and http-response, found an array`},
		{"config.yaml", "openapi: 3.1.0\ninfo: {}\n", Options{}, `config.yaml:1:1: not an example: expected http-request and http-response (or partial) at the top level, found keys openapi, info`},
		{"empty.json", `{}`, Options{}, `empty.json:1:1: not an example: expected http-request and http-response (or partial) at the top level, found no keys`},
		{"syntax.json", `{"http-request": }`, Options{}, "syntax.json:1:18: unexpected character '}', expected a JSON value"},
		{"deep.json", `{"http-request": {"method": "GET", "path": "/", "body": [[[[[[1]]]]]]}, "http-response": {"status": 200}}`, Options{Limits: spec.Limits{MaxDepth: 5}}, `deep.json:1:61: nesting deeper than 5 levels (--max-depth)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.name, []byte(tt.data), tt.opts)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, []byte(`{"http-request": {"method": "GET", "path": "/"}, "http-response": {"status": 200}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(big, Options{Limits: spec.Limits{MaxFileSize: 10}})
	if err == nil || err.Error() != big+": file is 82 bytes, larger than the 10-byte limit of an example file" {
		t.Errorf("size limit: %v", err)
	}
}

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "files", "fixtures.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse("fixtures.json", data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A schema problem's path into a body finds where the value is written.
func TestLocate(t *testing.T) {
	ex := readExample(t, filepath.Join("testdata", "files", "full.json"))
	tests := []struct {
		path  []any
		want  string
		exact bool
	}{
		{nil, "12:13", true},
		{[]any{"name"}, "12:14", true},
		{[]any{"tags", 0}, "12:38", true},
		{[]any{"tags", 5}, "12:29", false},
		{[]any{"missing"}, "12:13", false},
		{[]any{"name", "x"}, "12:14", false},
	}
	for _, tt := range tests {
		loc, exact := Locate(ex.Request.Body, tt.path)
		if at(loc) != tt.want || exact != tt.exact || loc.File != ex.File {
			t.Errorf("Locate(%v) = %s:%s %v, want %s %v", tt.path, loc.File, at(loc), exact, tt.want, tt.exact)
		}
	}
	loc, _ := Locate(ex.Request.Body, []any{"name"})
	if loc.Range.End.Col != 27 {
		t.Errorf("the range of a scalar field ends at column %d, want 27 (after its value)", loc.Range.End.Col)
	}
}
