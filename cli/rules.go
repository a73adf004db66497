package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/rulesets"
)

func rulesCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "rules",
		Usage: "list the built-in rules and show their documentation",
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "list every rule with its category, maturity and severity in each ruleset",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "text or json"},
				},
				Action: func(c *cli.Context) error { return runRulesList(c, env) },
			},
			{
				Name:      "doc",
				Usage:     "print a rule's documentation (Markdown)",
				ArgsUsage: "RULE-ID",
				Action:    func(c *cli.Context) error { return runRulesDoc(c, env) },
			},
		},
	}
}

func runRulesList(c *cli.Context, env Env) error {
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	infos := rulesets.Catalog(reg)
	switch c.String("format") {
	case "json":
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(infos); err != nil {
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
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	id := strings.TrimPrefix(c.Args().First(), rulesets.BuiltinPrefix)
	for _, info := range rulesets.Catalog(reg) {
		if info.ID == id {
			fmt.Fprint(env.Stdout, info.Markdown())
			return nil
		}
	}
	return exitf(ExitUsage, "no rule %q%s", id, rulesets.Suggest(id, reg.IDs()))
}
