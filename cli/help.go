package cli

import (
	"fmt"
	"slices"
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
					return unknownCommand(name, cmds, path)
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

// finishHelp adds the help and version commands, keeps --help and -h
// (urfave/cli drops its help flag when the app has a command named help),
// and makes a command group (examples, config, rules, report) answer an
// unknown subcommand as the app answers an unknown command.
func finishHelp(app *cli.App) {
	app.Commands = append(app.Commands, helpCommand(), versionCommand())
	app.Flags = append(app.Flags, cli.HelpFlag)
	var groups func([]*cli.Command)
	groups = func(cmds []*cli.Command) {
		for _, c := range cmds {
			if len(c.Subcommands) > 0 && c.Action == nil {
				c.Action = groupAction
			}
			groups(c.Subcommands)
		}
	}
	groups(app.Commands)
}

// groupAction runs when a command group is named without one of its
// commands.
func groupAction(c *cli.Context) error {
	if c.Args().Present() {
		return unknownCommand(c.Args().First(), c.Command.Subcommands, commandPath(c))
	}
	return cli.ShowSubcommandHelp(c)
}

// commandPath names the command a context runs, from the program down
// ("specgate examples validate"): urfave/cli's FullName leaves out the
// groups above a subcommand until it has run.
func commandPath(c *cli.Context) string {
	var names []string
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name != "" {
			names = append(names, ctx.Command.Name)
		}
	}
	names = append(names, c.App.Name)
	slices.Reverse(names)
	return strings.Join(slices.Compact(names), " ")
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
		return unknownCommand(c.Args().First(), c.App.Commands, c.App.Name)
	}
	return cli.ShowAppHelp(c)
}

// unknownCommand is the usage error for a command name that names none of
// cmds, the commands of the program or group named by where.
func unknownCommand(name string, cmds []*cli.Command, where string) error {
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
	return exitf(ExitUsage, "unknown command %q%s; see '%s --help' for the commands", name, hint, where)
}
