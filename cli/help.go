package cli

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/rulesets"
)

// helpCommand is `specgate help [COMMAND…]`: the same text as --help.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show the help of specgate or of a command",
		ArgsUsage: "[COMMAND [SUBCOMMAND]]",
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) == 0 {
				return cli.ShowAppHelp(c)
			}
			cmds := c.App.Commands
			var cmd *cli.Command
			path := c.App.Name
			for _, name := range args {
				next := findCommand(cmds, name)
				if next == nil {
					return unknownCommand(name, cmds)
				}
				cmd, cmds = next, next.Subcommands
				path += " " + cmd.Name
			}
			// urfave/cli names a command in its help only once it ran.
			if cmd.HelpName == "" {
				cmd.HelpName = path
			}
			// HelpPrinter with the command's own template prints its flags
			// and subcommands as --help does.
			tmpl := cli.CommandHelpTemplate
			if len(cmd.Subcommands) > 0 {
				tmpl = cli.SubcommandHelpTemplate
			}
			if cmd.CustomHelpTemplate != "" {
				tmpl = cmd.CustomHelpTemplate
			}
			cli.HelpPrinter(c.App.Writer, tmpl, cmd)
			return nil
		},
	}
}

// versionCommand is `specgate version`, the same as --version.
func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print specgate's version",
		Action: func(c *cli.Context) error {
			fmt.Fprintf(c.App.Writer, "specgate version %s\n", c.App.Version)
			return nil
		},
	}
}

// rootAction runs when no command is named: help without arguments, a
// usage error naming the nearest command otherwise.
func rootAction(c *cli.Context) error {
	if c.Args().Present() {
		return unknownCommand(c.Args().First(), c.App.Commands)
	}
	return cli.ShowAppHelp(c)
}

func unknownCommand(name string, cmds []*cli.Command) error {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	hint := rulesets.Suggest(name, names)
	if hint != "" {
		hint = strings.Replace(hint, "; did you mean", " (did you mean", 1) + ")"
	}
	return exitf(ExitUsage, "unknown command %q%s; see 'specgate --help' for the commands", name, hint)
}
