package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
)

// The options every command takes, handled here once:
//
//   - --debug and --log-level set the level of the process's logger
//     (slog.Default), which packages log through: with --debug, what
//     specgate fetches, loads and sends (tokens masked); and of the
//     loggers of the servers, made by commandLogger;
//   - --spec-file FILE and --dir DIR give a command's specifications, for
//     the commands listed in specInputs: each is resolved against the
//     working directory and checked before the command runs, and an
//     error names the resolved path;
//   - -Dkey=value anywhere on the command line defines a system
//     property (a habit of Java tools) that the insights package reads
//     (-Dspecgate.repo.id=…).

// specInput says what --spec-file and --dir become for a command: "arg"
// (a positional argument), a flag of the command ("--target-path"), or ""
// when the command does not take it.
type specInput struct{ specFile, dir string }

// specInputs are the commands that take --spec-file or --dir, by their
// path of names.
var specInputs = map[string]specInput{
	"lint":                         {"arg", "arg"},
	"validate":                     {"arg", "arg"},
	"test":                         {"arg", ""},
	"mock":                         {"arg", ""},
	"backward-compatibility-check": {"--target-path", ""},
	"examples validate":            {"arg", ""},
	"examples fix":                 {"arg", ""},
	"examples generate":            {"arg", ""},
	"spec-metadata-report":         {"arg", "arg"},
	"central-contract-repo-report": {"arg", "arg"},
	"send-report":                  {"", "--dir"},
}

// logLevels are the values of --log-level.
var logLevels = map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}

// systemPropertiesKey is where prepareArgs leaves the -D definitions in
// the app's metadata.
const systemPropertiesKey = "systemProperties"

// addCommonOptions gives every command (and subcommand) --debug and
// --log-level, and the commands of specInputs --spec-file and --dir, with
// a Before that sets the log level and checks the --ci options.
func addCommonOptions(cmd *cli.Command, path string, env Env) {
	if path == "" {
		path = cmd.Name
	} else {
		path += " " + cmd.Name
	}
	for _, sub := range cmd.Subcommands {
		addCommonOptions(sub, path, env)
	}
	if cmd.Action == nil {
		return
	}
	in := specInputs[path]
	if in.specFile != "" && !hasFlag(cmd, "spec-file") {
		cmd.Flags = append(cmd.Flags, &cli.StringSliceFlag{Name: "spec-file", Usage: "a specification `FILE`, resolved against the working directory (repeatable; the same as giving it as an argument)"})
	}
	if in.dir != "" && !hasFlag(cmd, "dir") {
		cmd.Flags = append(cmd.Flags, &cli.StringFlag{Name: "dir", Usage: "a folder `DIR` of specifications, resolved against the working directory"})
	}
	if !hasFlag(cmd, "debug") {
		cmd.Flags = append(cmd.Flags, &cli.BoolFlag{Name: "debug", Usage: "log what specgate fetches, loads and sends on standard error (tokens masked)"})
	}
	if !hasFlag(cmd, "log-level") {
		cmd.Flags = append(cmd.Flags, &cli.StringFlag{Name: "log-level", Usage: "`LEVEL` of the log on standard error: debug, info, warn or error"})
	}
	before := cmd.Before
	cmd.Before = func(c *cli.Context) error {
		if err := setLogLevel(c, env); err != nil {
			return err
		}
		if hasFlag(c.Command, "ci") {
			if err := checkCI(c, env); err != nil {
				return err
			}
		}
		if before != nil {
			return before(c)
		}
		return nil
	}
}

func hasFlag(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

// setLogLevel makes the process's logger write at the level asked for on
// standard error; without --debug or --log-level it is left as it is.
func setLogLevel(c *cli.Context, env Env) error {
	lvl, given, err := logLevel(c)
	if err != nil || !given {
		return err
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: lvl})))
	slog.Debug("command", slog.String("command", c.Command.FullName()), slog.Any("args", c.Args().Slice()))
	return nil
}

// logLevel is the level --debug or --log-level asks for (--debug wins),
// and whether either was given; info when neither was.
func logLevel(c *cli.Context) (lvl slog.Level, given bool, err error) {
	name := strings.ToLower(c.String("log-level"))
	if c.Bool("debug") {
		name = "debug"
	}
	if name == "" {
		return slog.LevelInfo, false, nil
	}
	lvl, ok := logLevels[name]
	if !ok {
		return slog.LevelInfo, false, exitf(ExitUsage, "--log-level must be debug, info, warn or error, found %q", c.String("log-level"))
	}
	return lvl, true, nil
}

// commandLogger is the logger of a command that logs on its own account
// (the access logs and events of mock, lint-server, mcp and
// insights-server): on w, in the format of the command's --log-format
// (text without one), at the level of --log-level or --debug, info by
// default.
func commandLogger(c *cli.Context, w io.Writer) (*slog.Logger, error) {
	lvl, _, err := logLevel(c)
	if err != nil {
		return nil, err
	}
	format := "text"
	if hasFlag(c.Command, "log-format") {
		format = c.String("log-format")
	}
	return leveledLogger(format, lvl, w)
}

// leveledLogger is a text or json logger on w that writes lvl and above.
func leveledLogger(format string, lvl slog.Level, w io.Writer) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{Level: lvl}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format must be text or json, found %q", format)
}

// prepareArgs takes the -Dkey=value definitions out of args (into the
// app's metadata) and turns --spec-file and --dir into what the command
// takes, each resolved against the working directory and checked: a
// missing file is an error that names the path it was looked for at.
func prepareArgs(app *cli.App, args []string) ([]string, error) {
	props := map[string]string{}
	app.Metadata = map[string]any{systemPropertiesKey: props}
	if len(args) < 2 {
		return args, nil
	}
	// The definitions first, wherever they are (before a "--").
	rest := make([]string, 0, len(args)-1)
	for i, tok := range args[1:] {
		if tok == "--" {
			rest = append(rest, args[1+i:]...)
			break
		}
		if strings.HasPrefix(tok, "-D") && len(tok) > 2 {
			k, v, _ := strings.Cut(tok[2:], "=")
			props[k] = v
			continue
		}
		rest = append(rest, tok)
	}
	out := []string{args[0]}
	// The command path: the leading words that name commands.
	cmds, path := app.Commands, ""
	i := 0
	for ; i < len(rest); i++ {
		next := findCommand(cmds, rest[i])
		if next == nil {
			break
		}
		if path == "" {
			path = next.Name
		} else {
			path += " " + next.Name
		}
		cmds = next.Subcommands
		out = append(out, rest[i])
	}
	in := specInputs[path]
	var positional []string
	for ; i < len(rest); i++ {
		tok := rest[i]
		if tok == "--" {
			out = append(out, rest[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(tok, "-"), "=")
		var target string
		switch {
		case !strings.HasPrefix(tok, "--"):
		case name == "spec-file":
			target = in.specFile
		case name == "dir":
			target = in.dir
		}
		if target == "" {
			out = append(out, tok)
			continue
		}
		if !hasValue {
			if i+1 >= len(rest) {
				out = append(out, tok) // urfave/cli says the value is missing
				continue
			}
			i++
			value = rest[i]
		}
		resolved, err := resolveInput("--"+name, value, name == "dir")
		if err != nil {
			return nil, err
		}
		if target == "arg" {
			positional = append(positional, resolved)
		} else {
			out = append(out, target, resolved)
		}
	}
	return append(out, positional...), nil
}

// resolveInput resolves a --spec-file or --dir value against the working
// directory and checks that it is a file (or a folder); the value comes
// back as written when it is relative and sound, so that reports show it
// as the user wrote it.
func resolveInput(flag, value string, dir bool) (string, error) {
	if value == "" {
		return "", exitf(ExitUsage, "%s needs a path", flag)
	}
	if value == "-" || strings.Contains(value, "://") {
		return value, nil
	}
	abs, err := filepath.Abs(value)
	if err != nil {
		return "", exitf(ExitUsage, "%s %s: %v", flag, value, err)
	}
	st, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", exitf(ExitUsage, "%s %s: %s does not exist", flag, value, abs)
	case dir && !st.IsDir():
		return "", exitf(ExitUsage, "%s %s: %s is not a folder", flag, value, abs)
	case !dir && st.IsDir():
		return "", exitf(ExitUsage, "%s %s: %s is a folder; give it with --dir", flag, value, abs)
	}
	return filepath.Clean(value), nil
}

// systemProperties are the -D definitions of the command line.
func systemProperties(c *cli.Context) map[string]string {
	props, _ := c.App.Metadata[systemPropertiesKey].(map[string]string)
	return props
}

// debugf logs a debug line through the process's logger.
func debugf(format string, args ...any) {
	slog.Debug(fmt.Sprintf(format, args...))
}
