package main

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/luahost/luahost/internal/lint"
)

// cmdCheck implements "luahost check PATH...", the linter of package
// lint. PATH is a script, a folder of scripts, a scene file, or a project
// folder (a folder with scene files: every scene in it and the script
// folder each names). Problems go to stdout as "path:line:col: severity:
// message" (--format json: one JSON array), the count to stderr. Exit 1
// on an error (or, with --strict, a warning), 2 on bad usage, else 0.
func cmdCheck(args []string, stdout, stderr io.Writer) int {
	flags := newFlagSet("check", "luahost check PATH...", stderr)
	budget := new(time.Duration)
	budgetVar(flags, budget, "work budget of each script's top-level code in `INSTRUCTIONS` (as run's --budget; 0: no budget)")
	format := flags.String("format", "text", "output format: text or json")
	strict := flags.Bool("strict", false, "exit 1 on warnings too")
	paths, err := parseFlags(flags, args, stdout)
	if err != nil {
		return usageStatus(err)
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "luahost check: %s\n", fmt.Sprintf(format, a...))
		return exitUsage
	}
	switch {
	case len(paths) == 0:
		fmt.Fprintln(stderr, "luahost check: no PATH given")
		flags.Usage()
		return exitUsage
	case *format != "text" && *format != "json":
		return bad("--format must be text or json, not %q", *format)
	}
	c := lint.New(cliBudget(*budget))
	defer c.Close()
	for _, p := range paths {
		if err := c.Add(p); err != nil {
			return bad("%v", err)
		}
	}
	problems := c.Run()
	errs, warns := 0, 0
	for _, p := range problems {
		if p.Severity == lint.Error {
			errs++
		} else {
			warns++
		}
	}
	if *format == "json" {
		out, _ := json.MarshalIndent(append([]lint.Problem{}, problems...), "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		for _, p := range problems {
			fmt.Fprintln(stdout, p)
		}
	}
	fmt.Fprintf(stderr, "checked %d %s and %d %s: %d %s, %d %s\n",
		c.Scripts(), plural(c.Scripts(), "script", "scripts"), c.Scenes(), plural(c.Scenes(), "scene", "scenes"),
		errs, plural(errs, "error", "errors"), warns, plural(warns, "warning", "warnings"))
	if errs > 0 || (*strict && warns > 0) {
		return exitErrors
	}
	return exitOK
}

// cliCeiling maps the CLI's --memory-ceiling in MiB (0: the default,
// negative: off) to luabind's MemoryCeiling in bytes.
func cliCeiling(mib int64) int64 {
	if mib < 0 {
		return -1
	}
	return mib << 20
}

// cliBudget maps the CLI's budget (0: off) to luabind's (negative: off).
func cliBudget(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
