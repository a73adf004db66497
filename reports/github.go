package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/specgate/specgate/internal/level"
)

// GitHub workflow commands escape %, CR and LF in messages, and also : and
// , in property values.
var (
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// WriteGitHub writes GitHub Actions workflow commands: one annotation per
// diagnostic (::error or ::warning with file, line, col, endLine and the
// rule id as title; file is repository-relative), then one ::notice per
// file with its counts and maturity.
func WriteGitHub(w io.Writer, run *Run) error {
	bw := bufio.NewWriter(w)
	for _, d := range run.Diagnostics() {
		command := "warning"
		if d.Severity == level.Error {
			command = "error"
		}
		file, _ := run.RepoPath(d.File)
		props := []string{"file=" + githubProperty.Replace(file)}
		if start, end := d.Range.Start, d.Range.End; start.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", start.Line), fmt.Sprintf("col=%d", start.Col))
			if end.Line >= start.Line {
				props = append(props, fmt.Sprintf("endLine=%d", end.Line))
				if end.Line == start.Line && end.Col > start.Col {
					props = append(props, fmt.Sprintf("endColumn=%d", end.Col))
				}
			}
		}
		props = append(props, "title="+githubProperty.Replace(d.RuleID))
		fmt.Fprintf(bw, "::%s %s::%s\n", command, strings.Join(props, ","), githubData.Replace(d.Message))
	}
	for _, r := range run.Results {
		msg := fmt.Sprintf("%s: %s", r.File, countAll(r.Diagnostics))
		if m, ok := Maturity(r); ok {
			msg += ", maturity " + m.String()
		} else {
			msg += ", not loaded"
		}
		fmt.Fprintf(bw, "::notice title=%s::%s\n", githubProperty.Replace(run.Tool.Name+" summary"), githubData.Replace(msg))
	}
	return bw.Flush()
}
