package compat

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// oasdiffDiffers lists the fixtures on which specgate's verdict differs
// from oasdiff v1.33.0's (`oasdiff changelog`, a change at level ERR
// making it incompatible), each with the reason docs/compat.md gives.
// TestAgainstOasdiff fails when the tools differ elsewhere or agree here.
var oasdiffDiffers = map[string]string{
	"rules/async-operation-action-changed":  "oasdiff reads no AsyncAPI",
	"rules/async-operation-removed":         "oasdiff reads no AsyncAPI",
	"rules/channel-removed":                 "oasdiff reads no AsyncAPI",
	"rules/message-removed":                 "oasdiff reads no AsyncAPI",
	"cases/asyncapi2":                       "oasdiff reads no AsyncAPI",
	"rules/request-body-removed":            "a removed optional request body is a warning here, an error there",
	"rules/response-pattern-changed":        "a changed response pattern is breaking here, a warning there",
	"rules/schema-condition-changed":        "oasdiff fails any dependent schema or if added to a request",
	"rules/request-parameter-added":         "oasdiff fails declaring a path parameter the URL already had",
	"cases/same-meaning":                    "oasdiff compares spelling: a $ref, a reordered anyOf, nullable spelled anew",
	"cases/callbacks-extensible-enum":       "oasdiff does not compare callbacks",
	"rules/response-format-changed":         "oasdiff calls date-time to date a specialization",
	"rules/response-property-removed":       "oasdiff passes removed optional response properties",
	"rules/response-status-removed":         "oasdiff passes removed non-2xx statuses",
	"rules/security-added":                  "oasdiff passes newly required authentication",
	"rules/security-removed":                "oasdiff fails dropped authentication",
	"rules/security-requirement-changed":    "oasdiff passes a required scope added",
	"rules/security-scheme-changed":         "oasdiff does not compare scheme definitions",
	"cases/callbacks":                       "oasdiff does not compare callbacks",
	"cases/default-response":                "oasdiff does not compare a status with the default response",
	"cases/path-parameter-renamed":          "oasdiff sees a renamed path parameter as new",
	"cases/swagger-to-openapi3":             "oasdiff does not normalize Swagger 2.0",
	"cases/parameters-text-within-limits":   "oasdiff fails any length limit set on a parameter that was an integer or a boolean, which the text of its values may fit",
	"cases/types-split-across-alternatives": "oasdiff reads a type list that became oneOf alternatives as types removed and added",
}

// TestAgainstOasdiff runs oasdiff on every fixture pair and compares
// verdicts. It needs the oasdiff binary:
//
//	GOBIN=/tmp/oasdiff-bin go install github.com/oasdiff/oasdiff@v1.33.0
//	SPECGATE_OASDIFF=/tmp/oasdiff-bin/oasdiff go test ./compat -run Oasdiff -v
func TestAgainstOasdiff(t *testing.T) {
	bin := os.Getenv("SPECGATE_OASDIFF")
	if bin == "" {
		t.Skip("set SPECGATE_OASDIFF to the oasdiff binary")
	}
	var files []string
	for _, dir := range []string{"rules", "cases"} {
		m, _ := filepath.Glob(filepath.Join("testdata", dir, "*.txtar"))
		files = append(files, m...)
	}
	sort.Strings(files)
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), ".txtar")
		t.Run(name, func(t *testing.T) {
			fx := readFixture(t, f)
			res := CheckFiles(context.Background(), Options{Loader: spec.NewLoader(spec.Options{})},
				filepath.Join(fx.dir, "base.yaml"), filepath.Join(fx.dir, "rev.yaml"))
			cmd := exec.Command(bin, "changelog", "base.yaml", "rev.yaml", "--format", "json")
			cmd.Dir = fx.dir
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("oasdiff: %v", err)
			}
			var changes []struct {
				ID    string `json:"id"`
				Level int    `json:"level"`
			}
			if err := json.Unmarshal(out, &changes); err != nil && len(strings.TrimSpace(string(out))) > 0 {
				t.Fatalf("oasdiff output: %v", err)
			}
			theirs := Compatible
			var ids []string
			for _, c := range changes {
				ids = append(ids, c.ID)
				if c.Level == 3 {
					theirs = Incompatible
				}
			}
			ours := res.Verdict
			reason, known := oasdiffDiffers[name]
			switch {
			case ours != theirs && !known:
				t.Errorf("specgate %s, oasdiff %s %v: record the difference in oasdiffDiffers and docs/compat.md", ours, theirs, ids)
			case ours == theirs && known:
				t.Errorf("specgate and oasdiff now agree (%s); the recorded difference %q is stale", ours, reason)
			}
			t.Logf("specgate %s, oasdiff %s %v", ours, theirs, ids)
		})
	}
}
