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
// finding (::error or ::warning with file, line, col, endLine and the rule
// id as title; file is repository-relative), then one ::notice per file
// with its counts and maturity.
func WriteGitHub(w io.Writer, run *Run) error {
	bw := bufio.NewWriter(w)
	for i := range run.Files {
		fs := run.Files[i].Findings
		for j := range fs {
			f := &fs[j]
			command := "warning"
			switch f.Severity {
			case level.Error:
				command = "error"
			case level.Off:
				command = "notice"
			}
			file, _ := run.RepoPath(f.File)
			props := []string{"file=" + githubProperty.Replace(file)}
			if start, end := f.Range.Start, f.Range.End; start.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", start.Line), fmt.Sprintf("col=%d", start.Col))
				if end.Line >= start.Line {
					props = append(props, fmt.Sprintf("endLine=%d", end.Line))
					if end.Line == start.Line && end.Col > start.Col {
						props = append(props, fmt.Sprintf("endColumn=%d", end.Col))
					}
				}
			}
			props = append(props, "title="+githubProperty.Replace(f.Rule))
			fmt.Fprintf(bw, "::%s %s::%s\n", command, strings.Join(props, ","), githubData.Replace(f.Message))
		}
	}
	for i := range run.Files {
		f := &run.Files[i]
		msg := fmt.Sprintf("%s: %s", f.Name, countAll(f.Findings))
		if m, ok := f.Maturity(); ok {
			msg += ", maturity " + m.String()
		} else {
			msg += ", not loaded"
		}
		fmt.Fprintf(bw, "::notice title=%s::%s\n", githubProperty.Replace(run.Tool.Name+" summary"), githubData.Replace(msg))
	}
	return bw.Flush()
}
