package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

func rulesCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "rules",
		Usage: "list, document, compile, test and scaffold rules",
		Description: "Built-in rules come with the binary. Custom rules come from the lint configuration\n" +
			"(its rules: section, ruleset files named in a profile's extends, Rego folders named by rego:)\n" +
			"or from --ruleset FILE. See docs/custom-rules.md.",
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "list every rule with its category, maturity and severity in each ruleset",
				Flags: append([]cli.Flag{
					&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text or json"},
				}, ruleSourceFlags()...),
				Action: func(c *cli.Context) error { return runRulesList(c, env) },
			},
			{
				Name:      "doc",
				Usage:     "print a rule's documentation (Markdown)",
				ArgsUsage: "RULE-ID",
				Flags:     ruleSourceFlags(),
				Action:    func(c *cli.Context) error { return runRulesDoc(c, env) },
			},
			rulesCompileCommand(env),
			rulesTestCommand(env),
			rulesNewCommand(env),
		},
	}
}

// ruleSourceFlags say where custom rules come from, as for lint.
func ruleSourceFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "lint configuration `FILE` (default: " + rulesets.ConfigName + " found upward)"},
		&cli.StringFlag{Name: "profile", Aliases: []string{"p"}, Usage: "profile of the configuration"},
		&cli.StringFlag{Name: "ruleset", Aliases: []string{"r"}, Usage: "built-in ruleset, or a ruleset `FILE` or https URL"},
		&cli.BoolFlag{Name: "skip-unsupported-rules", Aliases: []string{"skip-missing-functions"}, Usage: "leave out the custom rules specgate cannot run as written"},
	}
}

// loadRules resolves the registry (built-in and custom rules) from the
// rule source flags; dir is where the configuration search starts.
func loadRules(c *cli.Context, env Env, dir string) (*rulesets.Setup, error) {
	loader := spec.NewLoader(spec.Options{Stdin: env.Stdin})
	return rulesets.Load(rulesets.Options{
		Config: c.String("config"), Dir: dir, Profile: c.String("profile"), Ruleset: c.String("ruleset"),
		Fetch:                func(u string) ([]byte, error) { return loader.Fetch(c.Context, u) },
		SkipMissingFunctions: c.Bool("skip-unsupported-rules"),
	})
}

func runRulesList(c *cli.Context, env Env) error {
	setup, err := loadRules(c, env, ".")
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	reg := setup.Registry
	infos := rulesets.Catalog(reg)
	switch c.String("format") {
	case "json":
		if err := reports.WriteIndentedJSON(env.Stdout, infos); err != nil {
			return exitf(ExitUsage, "%v", err)
		}
	case "text":
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "RULE\tCATEGORY\tMATURITY\tLENIENT\tRECOMMENDED\tSTRICT\tTITLE")
		for _, r := range infos {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Category, r.Maturity,
				r.Rulesets[rulesets.Lenient], r.Rulesets[rulesets.Recommended], r.Rulesets[rulesets.Strict], r.Title)
		}
		if err := tw.Flush(); err != nil {
			return exitf(ExitUsage, "%v", err)
		}
	default:
		return exitf(ExitUsage, "--format must be text or json, found %q", c.String("format"))
	}
	return nil
}

func runRulesDoc(c *cli.Context, env Env) error {
	if c.NArg() != 1 {
		return exitf(ExitUsage, "rules doc needs one rule id (see 'specgate rules list')")
	}
	setup, err := loadRules(c, env, ".")
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	reg := setup.Registry
	id := strings.TrimPrefix(c.Args().First(), rulesets.BuiltinPrefix)
	for _, info := range rulesets.Catalog(reg) {
		if info.ID == id {
			fmt.Fprint(env.Stdout, info.Markdown())
			return nil
		}
	}
	return exitf(ExitUsage, "no rule %q%s", id, rulesets.Suggest(id, reg.IDs()))
}
