package lint

import (
	"slices"

	"github.com/luahost/luahost/internal/luaast"
)

// lintGlobals reports globals read but assigned nowhere in the file and
// not among globals (undefined), and globals assigned inside a function
// but never at the chunk's top level (accidental: a missing local).
// Each name is reported once, where it first appears.
func (f *luaFile) lintGlobals(globals []string) []Problem {
	type use struct {
		name string
		line int
	}
	var reads, inner []use
	top := map[string]bool{}
	written := map[string]bool{}
	w := &luaast.Walker{
		Read: func(name string, line int, _ *luaast.Scope) { reads = append(reads, use{name, line}) },
		Write: func(name string, line int, sc *luaast.Scope) {
			written[name] = true
			if sc.Functions() > 0 {
				inner = append(inner, use{name, line})
			} else {
				top[name] = true
			}
		},
	}
	w.Walk(f.stmts)
	var out []Problem
	seen := map[string]bool{}
	for _, u := range reads {
		if written[u.name] || seen[u.name] {
			continue
		}
		if _, found := slices.BinarySearch(globals, u.name); found {
			continue
		}
		seen[u.name] = true
		msg := "undefined global '" + u.name + "'"
		if s := suggestWithin(u.name, globals, 1); s != "" {
			msg += "; did you mean " + s + "?"
		}
		out = append(out, f.at(u.line, u.name, Warning, "%s", msg))
	}
	seen = map[string]bool{}
	for _, u := range inner {
		if top[u.name] || seen[u.name] {
			continue
		}
		if _, found := slices.BinarySearch(globals, u.name); found {
			continue
		}
		seen[u.name] = true
		out = append(out, f.at(u.line, u.name, Warning,
			"global '%s' assigned inside a function (a missing 'local'? keep instance state in self)", u.name))
	}
	slices.SortStableFunc(out, func(a, b Problem) int { return a.Line - b.Line })
	return out
}
