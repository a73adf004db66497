package cli

import (
	"os"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/urfave/cli/v2"
)

// hoistFlags moves a command's flags before its positional arguments, so
// that `specgate lint api.yaml --format json` works: urfave/cli stops
// parsing flags at the first argument. Everything after "--" stays as it
// is.
func hoistFlags(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	rest := args[1:]
	// Global flags and the command path come first, untouched.
	cmds := app.Commands
	var cmd *cli.Command
	for len(rest) > 0 {
		tok := rest[0]
		if strings.HasPrefix(tok, "-") {
			if cmd != nil {
				break
			}
			out = append(out, tok)
			rest = rest[1:]
			continue
		}
		next := findCommand(cmds, tok)
		if next == nil {
			break
		}
		cmd = next
		cmds = next.Subcommands
		out = append(out, tok)
		rest = rest[1:]
	}
	if cmd == nil {
		return append(out, rest...)
	}
	var flags, positional []string
	for i := 0; i < len(rest); i++ {
		tok := rest[i]
		switch {
		case tok == "--":
			positional = append(positional, rest[i:]...)
			i = len(rest)
		case tok == "-" || !strings.HasPrefix(tok, "-"):
			positional = append(positional, tok)
		default:
			flags = append(flags, tok)
			if !strings.Contains(tok, "=") && takesValue(cmd, strings.TrimLeft(tok, "-")) && i+1 < len(rest) {
				i++
				flags = append(flags, rest[i])
			}
		}
	}
	out = append(out, flags...)
	return append(out, positional...)
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// takesValue reports whether the named flag of cmd expects a value.
func takesValue(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if _, isBool := f.(*cli.BoolFlag); isBool {
				return false
			}
			return true
		}
	}
	return false
}

// inputDirs are the folders among the inputs, and the fixed folders that
// globs start from: the trees the specs found in them may read with $refs.
func inputDirs(args []string) []string {
	var dirs []string
	for _, a := range args {
		if strings.ContainsAny(a, "*?[{") {
			if base, _ := doublestar.SplitPattern(a); base != "." && base != "" {
				dirs = append(dirs, base)
			}
			continue
		}
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			dirs = append(dirs, a)
		}
	}
	return dirs
}
