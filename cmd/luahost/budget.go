package main

import (
	"flag"
	"time"

	"github.com/luahost/luahost/luabind"
)

// budgetHelp is the --budget flag's help.
const budgetHelp = "work budget of each callback in `INSTRUCTIONS` (VM instructions, plus library work by the size of its input): 20000000, 20M or 500k; " +
	"10M is about 100ms of Lua on an idle core; a duration such as 30ms is converted at 100 instructions a microsecond; " +
	"0: no work budget, for trusted scripts (the memory limits and the 10s wall-clock backstop stay)"

// budgetValue is the --budget flag. It holds the budget as the duration
// that stands for it at luabind.WorkPerSecond, which carries any number
// of instructions exactly.
type budgetValue struct{ d *time.Duration }

// budgetVar defines --budget on fs, stored in d, with the default budget.
func budgetVar(fs *flag.FlagSet, d *time.Duration, help string) {
	*d = luabind.DefaultBudget
	fs.Var(budgetValue{d}, "budget", help)
}

func (v budgetValue) String() string {
	if v.d == nil {
		return ""
	}
	return luabind.FormatWork(luabind.WorkOf(*v.d))
}

func (v budgetValue) Set(s string) error {
	n, err := luabind.ParseWork(s)
	if err != nil {
		return err
	}
	*v.d = luabind.DurationOf(n)
	return nil
}
