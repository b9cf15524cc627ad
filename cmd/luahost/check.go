package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/luahost/luahost/internal/files"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// cmdCheck implements "luahost check PATH...": every .lua file named, or
// found under a directory named, is compiled and loaded (its top-level
// code runs in the sandbox, under the budget), and each problem is printed
// to stdout as "path:line: message". Exit 1 if any. A file that another
// checked file requires is a module: it need not return a table.
func cmdCheck(args []string, stdout, stderr io.Writer) int {
	flags := newFlagSet("check", "luahost check PATH...", stderr)
	budget := flags.Duration("budget", luabind.DefaultBudget, "time budget of each script's top-level code (0: no budget)")
	paths, err := parseFlags(flags, args, stdout)
	if err != nil {
		return usageStatus(err)
	}
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "luahost check: no PATH given")
		flags.Usage()
		return exitUsage
	}
	type target struct{ dir, name string }
	var targets []target
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(stderr, "luahost check: %v\n", err)
			return exitUsage
		}
		if !info.IsDir() {
			targets = append(targets, target{filepath.Dir(p), strings.TrimSuffix(filepath.Base(p), ".lua")})
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if strings.HasPrefix(d.Name(), ".") && path != p {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() || !strings.HasSuffix(d.Name(), ".lua") {
				return nil
			}
			rel, err := filepath.Rel(p, path)
			if err != nil {
				return err
			}
			targets = append(targets, target{p, filepath.ToSlash(strings.TrimSuffix(rel, ".lua"))})
			return nil
		})
		if err != nil {
			fmt.Fprintf(stderr, "luahost check: %v\n", err)
			return exitUsage
		}
	}
	modules := make(map[target]bool)
	for _, t := range targets {
		// The same refusals as loading: a device, a pipe or a link out of
		// the folder is never read here; Check below reports it.
		src, err := files.ReadIn(t.dir, filepath.Join(t.dir, filepath.FromSlash(t.name)+".lua"), luabind.MaxScriptSize)
		if err != nil {
			continue
		}
		for _, m := range requireRE.FindAllSubmatch(src, -1) {
			modules[target{t.dir, strings.ReplaceAll(string(m[1]), ".", "/")}] = true
		}
	}
	problems := 0
	hosts := make(map[string]*luabind.Host)
	defer func() {
		for _, h := range hosts {
			_ = h.Close()
		}
	}()
	for _, t := range targets {
		h := hosts[t.dir]
		if h == nil {
			h, err = luabind.New(runtime.New(runtime.Options{OnError: runtime.Writer(stderr)}), luabind.Options{Dir: t.dir, Budget: cliBudget(*budget), Stdout: io.Discard, Log: stderr})
			if err != nil {
				fmt.Fprintf(stderr, "luahost check: %v\n", err)
				return exitUsage
			}
			hosts[t.dir] = h
		}
		check := h.Check
		if modules[t] {
			check = h.CheckModule
		}
		if err := check(t.name); err != nil {
			problems++
			fmt.Fprintln(stdout, strings.ReplaceAll(err.Error(), "\n", " "))
		}
	}
	fmt.Fprintf(stderr, "checked %d %s: %d %s\n", len(targets), plural(len(targets), "script", "scripts"), problems, plural(problems, "problem", "problems"))
	if problems > 0 {
		return exitErrors
	}
	return exitOK
}

// requireRE finds the modules a script requires by a literal name; check
// treats those files as modules, whose chunks may return anything.
var requireRE = regexp.MustCompile(`\brequire\s*\(?\s*["']([A-Za-z0-9_.-]+)["']`)

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
