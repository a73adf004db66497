package examples

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/corpustest"
	"github.com/specgate/specgate/internal/outputtest"
)

var update = flag.Bool("update", false, "rewrite the golden files of the corpus tests")

// corpusSpecs are the OpenAPI documents of the corpus.
var corpusSpecs = []string{
	"discord.json", "github.json", "kubernetes.json", "openai.yaml", "petstore-expanded.yaml",
	"stripe.yaml", "twilio-api-v2010.json", "uber-v2.json", "uspto.yaml", "webhook-example-3.1.yaml",
}

// Real specifications have invalid inline examples. Every finding on the
// corpus is listed in testdata/corpus_inline.golden (file, position, code,
// JSON path, keyword), so that the test fails when the list goes stale;
// go test -run TestInlineCorpusFindings -update rewrites it. A few were
// checked by hand against the documents and are pinned with their
// messages.
func TestInlineCorpusFindings(t *testing.T) {
	corpus := corpustest.Require(t)
	var lines []string
	all := map[string]Finding{}
	for _, name := range corpusSpecs {
		c, err := contract.New(load(t, filepath.Join(corpus, name)), nil, contract.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set := Inline(c.Document(), Options{})
		for _, f := range Check(c, set.Examples) {
			line := fmt.Sprintf("%s:%d:%d %s %s %s", filepath.Base(f.Loc.File), f.Loc.Range.Start.Line, f.Loc.Range.Start.Col, f.Code, f.Path, f.keyword)
			lines = append(lines, line)
			all[line] = f
		}
	}
	golden := filepath.Join("testdata", "corpus_inline.golden")
	got := strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the findings on the corpus changed (go test -run TestInlineCorpusFindings -update rewrites %s):\n%s", golden, outputtest.LineDiff(string(want), got))
	}
	for line, msg := range map[string]string{
		// ModelResponseProperties.user is a string; the example has null.
		"openai.yaml:57518:9 example-body-invalid $.components.schemas.Response.example.user type": "$.user: expected string, found null",
		// Accounts' Status is an enum of words; the example sends "1".
		"twilio-api-v2010.json:8134:21 example-body-invalid $.paths['/2010-04-01/Accounts/{Sid}.json'].post.requestBody.content['application/x-www-form-urlencoded'].examples.updateWithNumericStatus.value.Status enum": `$.Status: expected one of "active", "suspended", "closed", found string "1"`,
		// first_page_uri is format uri; the example holds a relative path.
		"twilio-api-v2010.json:7576:23 example-body-invalid $.paths['/2010-04-01/Accounts.json'].get.responses['200'].content['application/json'].examples.readEmpty.value.first_page_uri format": `$.first_page_uri: string "/2010-04-01/Accounts.json?FriendlyName=friendly_name&Status=…" (85 characters) is not a valid uri: relative url`,
	} {
		if f, ok := all[line]; !ok || f.Message != msg {
			t.Errorf("%s: got %q, want %q", line, f.Message, msg)
		}
	}
}

// Examples generated for a corpus spec validate against it. The small
// documents run always; the large ones (github.json, kubernetes.json,
// stripe.yaml, discord.json: about a minute and a half together) with
// SPECGATE_CORPUS=1.
func TestGenerateCorpus(t *testing.T) {
	corpus := corpustest.Require(t)
	large := map[string]bool{"github.json": true, "kubernetes.json": true, "stripe.yaml": true, "discord.json": true}
	for _, name := range corpusSpecs {
		t.Run(name, func(t *testing.T) {
			if large[name] && os.Getenv("SPECGATE_CORPUS") == "" {
				t.Skip("large document: set SPECGATE_CORPUS=1")
			}
			c, err := contract.New(load(t, filepath.Join(corpus, name)), nil, contract.Options{})
			if err != nil {
				t.Fatal(err)
			}
			k := NewChecker(c, nil)
			start := time.Now()
			files, err := k.GenerateSeeded(1)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if _, _, err := WriteFiles(dir, files); err != nil {
				t.Fatal(err)
			}
			set := Load([]string{dir}, Options{})
			if len(set.Errors) > 0 {
				t.Fatalf("%d generated files do not load: %v", len(set.Errors), set.Errors[0])
			}
			if len(set.Examples) != len(files) {
				t.Errorf("%d files, %d examples", len(files), len(set.Examples))
			}
			if fs := k.CheckAll(set.Examples); len(fs) > 0 {
				t.Errorf("%d findings on generated examples, the first: %v", len(fs), fs[0])
			}
			t.Logf("%d files in %v", len(files), time.Since(start))
		})
	}
}
