package luabind

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/compile"
	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/runtime"
)

// Bounds of what Eval copies out of the VM.
const (
	// MaxEvalOutput is the most bytes of printed output an Eval keeps;
	// the rest is cut with a note.
	MaxEvalOutput = 64 << 10
	// maxResult bounds the rendering of the returned values, and
	// maxRenderItems the entries shown of one table.
	maxResult      = 16 << 10
	maxRenderItems = 100
	maxRenderDepth = 4
)

// EvalChunk is the chunk name of console snippets: their errors read
// "console:LINE: message".
const EvalChunk = "console"

// Eval is what a console snippet did (Host.Eval).
type Eval struct {
	// Output is what the snippet wrote with print and ctx.log, at most
	// MaxEvalOutput bytes.
	Output string
	// Result is the values the snippet returned, each written as a Lua
	// literal would be (tables as constructors, at most 100 entries and 4
	// levels deep, 16 KiB in all), separated by tabs; empty when it
	// returned nothing.
	Result string
	// Err is the snippet's error ("console:2: attempt to ..."), or nil
	// when it ran to its end. A snippet that does not compile has Err
	// too, with Callback "console".
	Err *runtime.ScriptError
}

// ErrEval is wrapped by Eval's refusals: an instance that is not a live
// Lua instance of the host, a host that is closed, inside a frame or
// inside a callback, a snippet past the size of a loadable chunk.
var ErrEval = errors.New("cannot evaluate")

// Eval runs code, a Lua snippet, in the state of inst's script, with the
// locals self (inst's self) and ctx (whose ctx.entity is inst's entity)
// bound, as a callback called "console": under the callback budget and
// memory limit (under DefaultWork when the host's work budget is off,
// and so is every resume of a coroutine the snippet makes, whoever
// resumes it later: see consoleThread), on the calling goroutine, which
// must drive the runtime,
// between frames. A snippet that is an expression list is returned as it
// is ("self.hp" runs as "return self.hp"). What it prints (print, ctx.log)
// is captured, not written to the host's output. Its error is returned in
// Eval.Err: it neither faults the instance nor reaches Options.OnError.
// Its effects on the world are those of a callback run between frames
// (kills and detaches happen at once; spawned entities become Active
// before the next frame). require returns only modules the script's state
// loaded already, and only loaded scripts can be attached or spawned: a
// snippet never reads a file.
func (h *Host) Eval(inst *runtime.Instance, code string) (Eval, error) {
	s, ok := inst.Script().(*Script)
	switch {
	case h.closed:
		return Eval{}, fmt.Errorf("%w: %w", ErrEval, runtime.ErrClosed)
	case h.rt.Stepping() || h.deferred.on || h.nesting > 0:
		return Eval{}, fmt.Errorf("%w: %w", ErrEval, runtime.ErrStepping)
	case !ok || s.host != h:
		return Eval{}, fmt.Errorf("%w: %s is not a Lua script instance of this host", ErrEval, inst)
	case !inst.Live() || inst.Detached():
		return Eval{}, fmt.Errorf("%w: %s is not live", ErrEval, inst)
	case len(code) > maxLoadSize:
		return Eval{}, fmt.Errorf("%w: the snippet is %d bytes, more than %d", ErrEval, len(code), maxLoadSize)
	}
	st := s.st
	fn, cerr := st.compileSnippet(code)
	if cerr != nil {
		cerr.Entity, cerr.Frame = inst.Entity(), h.rt.Frame()
		return Eval{Err: cerr}, nil
	}
	out := &cappedBuffer{limit: MaxEvalOutput}
	h.Flush()
	saveOut, saveLog := h.out, h.log
	h.out, h.log, h.console = bufio.NewWriter(out), out, true
	defer func() { h.out, h.log, h.console = saveOut, saveLog, false }()

	li := inst.Data.(*instance)
	L := st.L
	top := L.GetTop()
	// With the work budget off the scripts are trusted, but a snippet
	// comes from whoever reaches the console: it runs under DefaultWork
	// then, for this call only.
	switch {
	case h.budget == nil:
		h.budget = budget.New(budget.Options{Work: DefaultWork})
		L.SetContext(h.budget)
		defer func() {
			L.RemoveContext()
			h.budget.Close()
			h.budget = nil
		}()
	case h.budget.Work() == 0:
		defer h.budget.SetWork(h.budget.SetWork(DefaultWork))
	}
	prev, prevEnt := st.enter(inst, li)
	L.Push(fn)
	L.Push(li.self)
	L.Push(st.ctx)
	err := st.pcall(2, lua.MultRet, kindChunk, EvalChunk)
	st.leave(prev, prevEnt)
	h.out.Flush()
	var ev Eval
	if err != nil {
		if se, ok := err.(*runtime.ScriptError); ok {
			ev.Err = se
		} else {
			ev.Err = &runtime.ScriptError{Script: s.name, Callback: EvalChunk, Message: err.Error(), Err: err}
		}
		ev.Err.Entity, ev.Err.Frame = inst.Entity(), h.rt.Frame()
	} else {
		r := renderer{left: maxResult}
		for i := top + 1; i <= L.GetTop(); i++ {
			if i > top+1 {
				r.b.WriteByte('\t')
			}
			r.value(L.Get(i), 0)
		}
		ev.Result = r.b.String()
	}
	L.SetTop(top)
	ev.Output = out.String()
	return ev, nil
}

// compileSnippet compiles a console snippet as a function of (self, ctx):
// first as "return CODE", so that an expression is returned, and when
// that does not compile, as the statements CODE. The two locals are
// declared on the snippet's first line, so lines in messages are the
// snippet's own.
func (st *state) compileSnippet(code string) (*lua.LFunction, *runtime.ScriptError) {
	const head = "local self, ctx = ...; "
	maxString := st.host.maxString()
	proto, err := compile.Compile(head+"return "+code, EvalChunk, maxString)
	if err != nil {
		src := head + code
		if proto, err = compile.Compile(src, EvalChunk, maxString); err != nil {
			le := compileError(st.script.name, EvalChunk, []byte(src), err)
			return nil, &runtime.ScriptError{Script: st.script.name, File: EvalChunk, Line: le.Line,
				Callback: EvalChunk, Message: le.Message, Err: le}
		}
	}
	return st.L.NewFunctionFromProto(proto), nil
}

// cappedBuffer keeps the first limit bytes written to it and counts the
// rest; writes never fail.
type cappedBuffer struct {
	b       strings.Builder
	limit   int
	dropped int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	room := c.limit - c.b.Len()
	if room >= len(p) {
		c.b.Write(p)
		return len(p), nil
	}
	if room > 0 {
		c.b.Write(p[:room])
	}
	c.dropped += len(p) - max(room, 0)
	return len(p), nil
}

// String returns what was kept, with a note of what was cut.
func (c *cappedBuffer) String() string {
	if c.dropped == 0 {
		return c.b.String()
	}
	return fmt.Sprintf("%s\n... (%d more bytes)", c.b.String(), c.dropped)
}

// renderer writes Lua values as Lua source would write them, bounded:
// left is the room left, and an ellipsis ends a rendering cut short.
type renderer struct {
	b    strings.Builder
	left int
}

func (r *renderer) write(s string) bool {
	if r.left <= 0 {
		return false
	}
	if len(s) > r.left {
		s = s[:r.left] + "..."
	}
	r.left -= len(s)
	r.b.WriteString(s)
	return r.left > 0
}

func (r *renderer) value(v lua.LValue, depth int) {
	switch x := v.(type) {
	case *lua.LNilType:
		r.write("nil")
	case lua.LBool:
		r.write(strconv.FormatBool(bool(x)))
	case lua.LNumber:
		r.write(laux.FormatNumber(x))
	case lua.LString:
		r.write(strconv.Quote(string(x)))
	case *lua.LUserData:
		if h, ok := x.Value.(runtime.Handle); ok {
			r.write(h.String())
			return
		}
		r.write("userdata")
	case *lua.LTable:
		r.table(x, depth)
	default:
		r.write(v.Type().String())
	}
}

// table writes t as a constructor: its array part in order, then its
// other keys sorted (strings first, by name), at most maxRenderItems.
func (r *renderer) table(t *lua.LTable, depth int) {
	if p, ok := vecOf(t); ok && isVec(t) {
		r.write(fmt.Sprintf("vec3(%s, %s, %s)", laux.FormatNumber(lua.LNumber(p.X)), laux.FormatNumber(lua.LNumber(p.Y)), laux.FormatNumber(lua.LNumber(p.Z))))
		return
	}
	if depth >= maxRenderDepth {
		r.write("{...}")
		return
	}
	n := t.Len()
	var keys []lua.LValue
	for k := lua.LValue(lua.LNil); ; {
		k, _ = t.Next(k)
		if k == lua.LNil {
			break
		}
		if num, ok := k.(lua.LNumber); ok && isInt(num) && num >= 1 && int(num) <= n {
			continue
		}
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	if !r.write("{") {
		return
	}
	shown := 0
	sep := func() bool {
		if shown > 0 && !r.write(", ") {
			return false
		}
		shown++
		if shown > maxRenderItems {
			r.write(fmt.Sprintf("... (%d entries)", n+len(keys)))
			return false
		}
		return true
	}
	for i := 1; i <= n; i++ {
		if !sep() {
			return
		}
		r.value(t.RawGetInt(i), depth+1)
	}
	for _, k := range keys {
		if !sep() {
			return
		}
		if s, ok := k.(lua.LString); ok && compile.IsName(string(s)) {
			r.write(string(s))
		} else {
			r.write("[")
			r.value(k, depth+1)
			r.write("]")
		}
		r.write(" = ")
		r.value(t.RawGet(k), depth+1)
	}
	r.write("}")
}

// compareKeys orders table keys for rendering: strings by name first,
// then numbers, then the rest by type.
func compareKeys(a, b lua.LValue) int {
	as, aStr := a.(lua.LString)
	bs, bStr := b.(lua.LString)
	switch {
	case aStr && bStr:
		return strings.Compare(string(as), string(bs))
	case aStr:
		return -1
	case bStr:
		return 1
	}
	an, aNum := a.(lua.LNumber)
	bn, bNum := b.(lua.LNumber)
	switch {
	case aNum && bNum:
		return cmp.Compare(an, bn)
	case aNum:
		return -1
	case bNum:
		return 1
	}
	return cmp.Compare(a.Type(), b.Type())
}
