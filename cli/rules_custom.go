package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rules"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

func rulesCompileCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "compile",
		Usage:     "show the Rego that YAML/JSON rule definitions compile to",
		ArgsUsage: "RULESET-FILE",
		Description: "Reads a ruleset file (Spectral's format, with its extends chain) and prints, for each\n" +
			"rule definition, the Rego module specgate evaluates. Errors in the definitions are reported\n" +
			"with file:line:col. --rule limits the output to one rule.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rule", Usage: "print only this rule"},
			&cli.BoolFlag{Name: "skip-unsupported-rules", Aliases: []string{"skip-missing-functions"}, Usage: "leave out the custom rules specgate cannot run as written"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return exitf(ExitUsage, "rules compile needs one ruleset file")
			}
			setup, err := rulesets.Load(rulesets.Options{Ruleset: c.Args().First(), NoSearch: true, SkipMissingFunctions: c.Bool("skip-unsupported-rules")})
			if err != nil {
				return exitf(ExitUsage, "%v", err)
			}
			only := c.String("rule")
			printed := 0
			for _, m := range setup.Compiled {
				if only != "" && m.ID != only {
					continue
				}
				if printed > 0 {
					fmt.Fprintln(env.Stdout)
				}
				fmt.Fprintf(env.Stdout, "# ---- %s ----\n%s", m.File, m.Source)
				printed++
			}
			if only != "" && printed == 0 {
				ids := make([]string, len(setup.Compiled))
				for i, m := range setup.Compiled {
					ids[i] = m.ID
				}
				return exitf(ExitUsage, "no rule definition %q in %s%s", only, c.Args().First(), rulesets.Suggest(only, ids))
			}
			if printed == 0 {
				fmt.Fprintf(env.Stderr, "%s defines no rules (only severities or extends)\n", c.Args().First())
			}
			return nil
		},
	}
}

func rulesTestCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run rule fixtures and Rego tests",
		ArgsUsage: "[DIR]",
		Description: "Runs the tests of custom rules (and of built-in ones) found under DIR (default: the\n" +
			"working directory):\n\n" +
			"  - every .yaml/.yml/.json spec in a folder named testdata is linted and compared with its\n" +
			"    expectations: `# want \"rule-id\"` at the end of each line where a diagnostic must start\n" +
			"    (JSON fixtures: a sidecar <file>.want with one \"LINE rule-id\" per line). A fixture in\n" +
			"    <rule-id>/testdata runs that rule alone; any other runs every custom rule;\n" +
			"  - every _test.rego file runs with OPA's test runner against the rules.\n\n" +
			"Rules come from the lint configuration found from DIR upward, --config or --ruleset.\n" +
			"Exit codes: 0 all passed, 1 a test failed, 2 the rules or tests could not be loaded.",
		Flags: ruleSourceFlags(),
		Action: func(c *cli.Context) error {
			dir := "."
			if c.NArg() > 1 {
				return exitf(ExitUsage, "rules test takes at most one folder")
			}
			if c.NArg() == 1 {
				dir = c.Args().First()
			}
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return exitf(ExitUsage, "%s is not a folder", dir)
			}
			setup, err := loadRules(c, env, dir)
			if err != nil {
				return exitf(ExitUsage, "%v", err)
			}
			fixtures, err := linter.FindFixtures(dir)
			if err != nil {
				return exitf(ExitUsage, "%v", err)
			}
			regoTests, err := policy.FindRegoTests(dir)
			if err != nil {
				return exitf(ExitUsage, "%v", err)
			}
			if len(fixtures) == 0 && len(regoTests) == 0 {
				return exitf(ExitUsage, "no tests under %s: put fixtures in testdata folders, or write _test.rego files", dir)
			}
			failed := 0
			opts := linter.Options{Registry: setup.Registry, Severities: setup.Severities, Loader: newRulesLoader(env)}
			for _, r := range linter.CheckFixtures(c.Context, opts, fixtures) {
				if !r.Failed() {
					continue
				}
				failed++
				if r.Err != nil {
					fmt.Fprintf(env.Stdout, "FAIL %s: %v\n", r.File, r.Err)
					continue
				}
				ran := strings.Join(r.Rules, ", ")
				if ran == "" {
					ran = "none"
				}
				fmt.Fprintf(env.Stdout, "FAIL %s (rules: %s)\n", r.File, ran)
				for _, w := range r.Missing {
					if setup.Registry.Rule(w.Rule) == nil {
						// A fixture of rules that another configuration
						// loads, or a `# want` that names no rule.
						fmt.Fprintf(env.Stdout, "  %s:%d: expected %s, which is not a rule loaded here (--config or --ruleset loads a configuration's rules)\n", r.File, w.Line, w.Rule)
						continue
					}
					fmt.Fprintf(env.Stdout, "  %s:%d: expected %s, not reported\n", r.File, w.Line, w.Rule)
				}
				for _, w := range r.Unexpected {
					fmt.Fprintf(env.Stdout, "  %s:%d: reported %s, not expected\n", r.File, w.Line, w.Rule)
				}
			}
			ran := 0
			if len(regoTests) > 0 {
				helpers, err := libTestHelpers()
				if err != nil {
					return exitf(ExitUsage, "%v", err)
				}
				results, err := policy.RunTests(c.Context, setup.Registry, regoTests, helpers...)
				if err != nil {
					return exitf(ExitUsage, "%v", err)
				}
				for _, r := range results {
					ran++
					switch {
					case r.Err != nil:
						failed++
						fmt.Fprintf(env.Stdout, "FAIL %s (%s): %v\n", r.Name, r.Location, r.Err)
					case r.Failed:
						failed++
						fmt.Fprintf(env.Stdout, "FAIL %s (%s)\n", r.Name, r.Location)
					}
				}
			}
			status := "ok"
			if failed > 0 {
				status = fmt.Sprintf("%d failed", failed)
			}
			fmt.Fprintf(env.Stdout, "%d fixtures, %d Rego tests: %s\n", len(fixtures), ran, status)
			if failed > 0 {
				return silent(ExitFindings)
			}
			return nil
		},
	}
}

func rulesNewCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:      "new",
		Usage:     "scaffold a Rego rule with its test, fixture and documentation",
		ArgsUsage: "RULE-ID",
		Description: "Creates DIR/RULE-ID/ with RULE-ID.rego (METADATA, which is also the rule's documentation,\n" +
			"and a violations rule), RULE-ID_test.rego and testdata/example.oas3.1.yaml with a `# want`\n" +
			"annotation. Without a lint configuration it writes specgate-lint.yaml with rego: DIR, so that\n" +
			"'specgate rules test DIR' runs the new rule at once; with one that does not load DIR, it says\n" +
			"what to add.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Value: "rules", Usage: "folder to create the rule in"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return exitf(ExitUsage, "rules new needs one rule id, such as operation-has-owner")
			}
			id := c.Args().First()
			if !policy.IsKebab(id) {
				return exitf(ExitUsage, "rule id %q must be kebab-case (lower-case words joined by '-')", id)
			}
			if isBuiltinRule(id) {
				return exitf(ExitUsage, "%s is a built-in rule; choose another id (or change its severity in the profile)", id)
			}
			dir := filepath.Join(c.String("dir"), id)
			if _, err := os.Stat(dir); err == nil {
				return exitf(ExitUsage, "%s already exists", dir)
			}
			files := scaffold(id)
			for _, name := range []string{id + ".rego", id + "_test.rego", "testdata/example.oas3.1.yaml"} {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					return exitf(ExitUsage, "%v", err)
				}
				if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
					return exitf(ExitUsage, "%v", err)
				}
				fmt.Fprintln(env.Stdout, "created", p)
			}
			return connectRego(c, env, c.String("dir"), id)
		},
	}
}

// connectRego makes the lint configuration load the Rego folder of a new
// rule, so that `rules test DIR` runs it at once: without a configuration
// it writes one that names the folder; with one that does not load it, it
// says what to add.
func connectRego(c *cli.Context, env Env, dir, id string) error {
	setup, err := loadRules(c, env, dir)
	if err == nil && setup.Registry.Rule(id) != nil {
		fmt.Fprintf(env.Stdout, "run 'specgate rules test %s' to test it\n", dir)
		return nil
	}
	config, found := rulesets.FindConfig(dir)
	if !found {
		content := "# Lint configuration (docs/custom-rules.md).\nrego: " + filepath.ToSlash(dir) + "\n"
		if err := os.WriteFile(rulesets.ConfigName, []byte(content), 0o644); err != nil {
			return exitf(ExitUsage, "%v", err)
		}
		fmt.Fprintf(env.Stdout, "created %s (rego: %s)\nrun 'specgate rules test %s' to test it\n", rulesets.ConfigName, filepath.ToSlash(dir), dir)
		return nil
	}
	rel := dir
	if abs, err := filepath.Abs(dir); err == nil {
		if r, err := filepath.Rel(filepath.Dir(config), abs); err == nil {
			rel = r
		}
	}
	why := "it does not load " + dir
	if err != nil {
		why = err.Error()
	}
	fmt.Fprintf(env.Stderr, "%s: %s; list %s under its rego: key (rego: [..., %s]), then run 'specgate rules test %s'\n", config, why, filepath.ToSlash(rel), filepath.ToSlash(rel), dir)
	return nil
}

// isBuiltinRule reports whether id names one of specgate's own rules: a
// custom rule of that id would be a second definition, and every lint of
// its folder would stop at it.
func isBuiltinRule(id string) bool {
	_, err := fs.Stat(rules.FS, id+"/"+id+".rego")
	return err == nil
}

func newRulesLoader(env Env) *spec.Loader { return spec.NewLoader(spec.Options{Stdin: env.Stdin}) }

// scaffold returns the files of a new rule.
func scaffold(id string) map[string]string {
	rule := `# METADATA
# title: Operations have an owner
# description: |
#   Every operation names the team that owns it in x-owner, so that
#   consumers know whom to ask.
#
#   ` + "```yaml" + `
#   /pets:
#     get:                # bad: no x-owner
#       summary: List pets
#   ` + "```" + `
# custom:
#   category: Operations
#   maturity: Silver
#   severity: warn
#   family: custom
#   formats: [oas2, oas3]
#   howToFix: Add x-owner with the owning team's name to the operation.
package specgate.rules["` + id + `"]

# Rules read the normalized input (docs/input.md) and return violations:
# a path into the document and a message. The linter turns the path into
# file:line:col.
violations contains {"path": op.source, "message": sprintf("%s %s has no x-owner", [upper(op.method), op.path])} if {
	some op in input.operations
	not op.node["x-owner"]
}
`
	test := `package specgate.rules["` + id + `_test"]

import data.specgate.rules["` + id + `"] as rule

test_missing_owner if {
	count(rule.violations) == 1 with input as {"operations": [{"method": "get", "path": "/pets", "node": {}, "source": ["paths", "/pets", "get"]}]}
}

test_owner_present if {
	count(rule.violations) == 0 with input as {"operations": [{"method": "get", "path": "/pets", "node": {"x-owner": "pets-team"}, "source": ["paths", "/pets", "get"]}]}
}
`
	fixture := `openapi: 3.1.0
info:
  title: Example
  version: 1.0.0
paths:
  /pets:
    get: # want "` + id + `"
      summary: List pets
      responses:
        "200":
          description: OK
  /owners:
    get:
      x-owner: owners-team
      summary: List owners
      responses:
        "200":
          description: OK
`
	return map[string]string{id + ".rego": rule, id + "_test.rego": test, "testdata/example.oas3.1.yaml": fixture}
}

// libTestHelpers are the test modules of the built-in library
// (rules/lib/*_test.rego), whose helpers a rule's tests may call wherever
// they are run from: security_test.request_doc builds a document's input,
// say.
func libTestHelpers() ([]*policy.Source, error) {
	names, err := fs.Glob(rules.FS, "lib/*_test.rego")
	if err != nil {
		return nil, err
	}
	var out []*policy.Source
	for _, name := range names {
		text, err := fs.ReadFile(rules.FS, name)
		if err != nil {
			return nil, err
		}
		out = append(out, &policy.Source{File: "specgate:rules/" + name, Text: string(text)})
	}
	return out, nil
}
