package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/internal/atomicfile"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/spec"
)

func configCommand(env Env) *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "check specgate.yaml, and upgrade a version 2 file to version 3",
		Description: "specgate.yaml says which service to contract-test and which dependencies to mock (see\n" +
			"docs/config.md). Without FILE, specgate.yaml (or .yml, .json) is looked for in the working\n" +
			"directory and its parents. Every command reads version 2 files as well, upgraded in memory.\n\n" +
			"Exit codes: 0 valid (or upgraded), 2 a configuration error or a usage error.",
		Subcommands: []*cli.Command{
			{
				Name:      "upgrade",
				Usage:     "write a version 2 configuration as version 3 (to standard output by default)",
				ArgsUsage: "[FILE]",
				Description: "Rewrites a version 2 configuration as version 3, keeping every setting and the comments\n" +
					"of the values it moves: specs and their sources become components, provides the system\n" +
					"under test, consumes the dependencies, and the global test, stub and strictMode settings\n" +
					"go under specgate.settings. Templates stay as written. The file is checked first, as any\n" +
					"command checks it: a file with errors is not upgraded. A version 3 file is left as it is.",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "in-place", Aliases: []string{"i"}, Usage: "replace FILE with its upgrade"},
					&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the upgrade to `FILE`"},
				},
				Action: func(c *cli.Context) error { return runConfigUpgrade(c, env) },
			},
			{
				Name:      "validate",
				Usage:     "check a configuration and list the tests and mocks it resolves to",
				ArgsUsage: "[FILE]",
				Action:    func(c *cli.Context) error { return runConfigValidate(c, env) },
			},
		},
	}
}

// configFile is the file named on the command line, or the one found from
// the working directory upward.
func configFile(c *cli.Context) (string, error) {
	switch c.NArg() {
	case 0:
		if p, ok := config.Find("."); ok {
			return fromWD(p), nil
		}
		return "", exitf(ExitUsage, "no %s in the working directory or its parents: name the file", strings.Join(config.FileNames, ", "))
	case 1:
		return c.Args().First(), nil
	}
	return "", exitf(ExitUsage, "config %s takes one file, found %d arguments", c.Command.Name, c.NArg())
}

func printWarnings(env Env, warns []*spec.Error) {
	for _, w := range warns {
		if w.Pos.Line > 0 {
			fmt.Fprintf(env.Stderr, "%s:%d:%d: warning: %s\n", w.File, w.Pos.Line, w.Pos.Col, w.Msg)
		} else {
			fmt.Fprintf(env.Stderr, "%s: warning: %s\n", w.File, w.Msg)
		}
	}
}

// loadConfig loads the specgate.yaml a command runs from and prints its
// warnings; a file that does not load is a usage error.
func loadConfig(env Env, path string) (*config.Config, error) {
	cfg, err := config.Load(path, config.Options{Getenv: env.Getenv})
	if err != nil {
		return nil, exitf(ExitUsage, "%v", err)
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintln(env.Stderr, "specgate: warning: "+w.Error())
	}
	return cfg, nil
}

func runConfigUpgrade(c *cli.Context, env Env) error {
	if c.Bool("in-place") && c.IsSet("output") {
		return exitf(ExitUsage, "--in-place and --output are exclusive")
	}
	file, err := configFile(c)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return exitf(ExitUsage, "%s: cannot read the configuration: %v", file, errors.Unwrap(err))
	}
	out, cfg, err := config.Upgrade(file, data, config.Options{Getenv: env.Getenv})
	if cfg != nil {
		printWarnings(env, cfg.Warnings)
	}
	switch {
	case errors.Is(err, config.ErrVersion3):
		fmt.Fprintf(env.Stderr, "%s is version 3 already: nothing to upgrade\n", file)
		return nil
	case err != nil:
		return exitf(ExitUsage, "%v", err)
	}
	switch {
	case c.Bool("in-place"):
		if err := atomicfile.Write(file, out); err != nil {
			return exitf(ExitUsage, "%v", err)
		}
		fmt.Fprintf(env.Stderr, "%s upgraded to version 3\n", file)
	case c.IsSet("output"):
		if err := os.WriteFile(c.String("output"), out, 0o644); err != nil {
			return exitf(ExitUsage, "%v", err)
		}
		fmt.Fprintf(env.Stderr, "%s upgraded to version 3 in %s\n", file, c.String("output"))
	default:
		if _, err := env.Stdout.Write(out); err != nil {
			return exitf(ExitUsage, "%v", err)
		}
	}
	return nil
}

func runConfigValidate(c *cli.Context, env Env) error {
	file, err := configFile(c)
	if err != nil {
		return err
	}
	// Every problem at once: a template strict mode refuses does not hide
	// a security scheme the spec lacks.
	loader := spec.NewLoader(spec.Options{Stdin: env.Stdin})
	cfg, err := config.Check(file, config.Options{Getenv: env.Getenv}, func(s *config.Spec) (*spec.Document, error) {
		return loader.Load(c.Context, specPlace(s))
	})
	if err != nil {
		return exitf(ExitUsage, "%v", err)
	}
	printWarnings(env, cfg.Warnings)
	fmt.Fprintf(env.Stdout, "%s: valid, version %d: %d %s, %d %s\n", file, cfg.Version,
		len(cfg.Tests), english.Noun(len(cfg.Tests), "test", "tests"), len(cfg.Mocks), english.Noun(len(cfg.Mocks), "mock", "mocks"))
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	for _, t := range cfg.Tests {
		addr := t.Target.URL()
		if addr == "" {
			addr = "(--testBaseURL or the spec's servers)"
		}
		fmt.Fprintf(tw, "test\t%s\t%s\t%s\n", t.Spec.ID, addr, specPlace(t.Spec))
	}
	for _, m := range cfg.Mocks {
		for _, s := range m.Specs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Type, s.ID, mockAddress(m.Target), specPlace(s))
		}
	}
	return tw.Flush()
}

// mockAddress writes where a mock listens; port 0, any free port, is
// written out, not taken for the scheme's port.
func mockAddress(t config.Target) string {
	if t.Port != 0 {
		return t.URL()
	}
	host := t.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return t.Scheme + "://" + host + ":0" + t.BasePath + " (a free port)"
}

// specPlace names a spec's file: relative to the working directory when it
// is below it, or in its git repository.
func specPlace(s *config.Spec) string {
	if s.Git != nil {
		if s.Git.Branch != "" {
			return fmt.Sprintf("%s in %s (%s)", s.Path, s.Git.URL, s.Git.Branch)
		}
		return fmt.Sprintf("%s in %s", s.Path, s.Git.URL)
	}
	return fromWD(s.Path)
}

// fromWD names an absolute path relative to the working directory when it
// is below it.
func fromWD(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return p
}
