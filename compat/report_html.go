package compat

import (
	"html/template"
	"io"
	"strings"
	"sync"
)

// The HTML report is one self-contained page: no CDN, no build step. A
// filter box above each column of the changes table hides rows whose cell
// does not contain the text typed. It is parsed on first use, not at
// start-up, which every command would pay.
var htmlPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("compat").Parse(htmlSource))
})

const htmlSource = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Backward compatibility against {{.Base}}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; color: #1d1d1f; }
h1 { font-size: 1.4em; }
table { border-collapse: collapse; width: 100%; margin-bottom: 2em; }
th, td { border: 1px solid #d0d0d5; padding: .35em .6em; text-align: left; vertical-align: top; }
th { background: #f3f3f6; }
thead input { width: 100%; box-sizing: border-box; font: inherit; }
td.loc, td.rule { font-family: ui-monospace, monospace; white-space: nowrap; }
.breaking, .incompatible, .error { color: #b3261e; font-weight: 600; }
.warning, .skipped { color: #8a5a00; font-weight: 600; }
.compatible { color: #1b7a3a; font-weight: 600; }
.why { color: #555; }
</style>
</head>
<body>
<h1>Backward compatibility against {{.Base}}{{if .Commit}} <small>({{.Commit}})</small>{{end}}: <span class="{{.Verdict}}">{{.Verdict}}</span></h1>
<p>{{.Summary}}</p>
<table id="specs">
<thead><tr><th>Specification</th><th>Format</th><th>Verdict</th><th>Message</th></tr></thead>
<tbody>
{{range .Results}}<tr><td>{{.Spec}}</td><td>{{.Format}}</td><td class="{{.Verdict}}">{{.Verdict}}</td><td>{{.Message}}</td></tr>
{{end}}</tbody>
</table>
<table id="changes">
<thead>
<tr><th>Specification</th><th>Level</th><th>Rule</th><th>Operations</th><th>Location</th><th>Change</th></tr>
<tr>{{range .Columns}}<th><input type="search" data-col="{{.}}" placeholder="filter" aria-label="filter column {{.}}"></th>{{end}}</tr>
</thead>
<tbody>
{{range .Changes}}<tr><td>{{.Spec}}</td><td class="{{.Level}}">{{.Level}}</td><td class="rule">{{.Rule}}</td><td>{{.Operations}}</td><td class="loc">{{.Location}}</td><td>{{.Message}}<div class="why">{{.Why}}</div></td></tr>
{{else}}<tr><td colspan="6">No changes to list.</td></tr>
{{end}}</tbody>
</table>
<script>
(function () {
  var inputs = document.querySelectorAll('#changes thead input');
  function apply() {
    document.querySelectorAll('#changes tbody tr').forEach(function (row) {
      var show = true;
      inputs.forEach(function (input) {
        var q = input.value.trim().toLowerCase();
        var cell = row.cells[+input.dataset.col];
        if (q && cell && cell.textContent.toLowerCase().indexOf(q) < 0) { show = false; }
      });
      row.style.display = show ? '' : 'none';
    });
  }
  inputs.forEach(function (input) { input.addEventListener('input', apply); });
})();
</script>
</body>
</html>
`

type htmlChange struct {
	Spec, Level, Rule, Operations, Location, Message, Why string
}

// WriteHTML writes the HTML report.
func WriteHTML(w io.Writer, rep *Report) error {
	var changes []htmlChange
	for i := range rep.Results {
		r := &rep.Results[i]
		for j := range r.Changes {
			c := &r.Changes[j]
			if rep.shown(c) {
				changes = append(changes, htmlChange{Spec: r.Spec, Level: c.Level.String(), Rule: c.RuleID,
					Operations: strings.Join(c.Operations, ", "), Location: where(r, c), Message: c.Message, Why: c.Why})
			}
		}
	}
	return htmlPage().Execute(w, map[string]any{
		"Base": rep.Base, "Commit": rep.Commit, "Verdict": rep.Verdict(), "Results": rep.Results, "Changes": changes,
		"Columns": []int{0, 1, 2, 3, 4, 5},
		"Summary": summaryLine(rep),
	})
}
