package luabind

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/luahost/luahost/luabind/internal/compile"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luahost/luahost/runtime"
)

// Bounds on what an error report copies out of the VM: a script can raise
// an error with a 50 MB string.
const (
	maxMessage        = 512
	maxTracebackLines = 8
	maxTracebackLine  = 160
)

// LoadError is a script that cannot be loaded: it does not compile, its
// chunk fails or runs past the budget, or it does not return a table. Its
// message starts with file:line where one is known.
type LoadError struct {
	// Script is the script's name ("ai/patrol").
	Script string
	// File is the file's display path ("scripts/ai/patrol.lua").
	File string
	// Line is the line of the error, or 0.
	Line int
	// Message is the full message, "scripts/x.lua:3: ... near 'end'".
	Message string
}

// Error returns the message, "file:line: ...".
func (e *LoadError) Error() string { return e.Message }

// loadError builds a LoadError from a message that may start with
// "file:line:".
func loadError(script, file, msg string) *LoadError {
	msg = bound(msg)
	e := &LoadError{Script: script, File: file, Message: msg}
	if f, line, ok := location(msg); ok && f == file {
		e.Line = line
	} else {
		e.Message = file + ": " + msg
	}
	return e
}

// compileError turns a chunk gopher-lua refused into the form editors
// jump to, "x.lua:3: message". A syntax error is worded by checkSyntax
// ("x.lua:9: 'end' expected (to close 'if' at line 3) near <eof>"), or,
// should it find none, from gopher-lua's own ("x.lua:3: syntax error
// near 'end'").
func compileError(script, file string, src []byte, err error) *LoadError {
	// LState.Load wraps the parse error in an ApiError, which has no Unwrap.
	if ae, ok := err.(*lua.ApiError); ok && ae.Cause != nil {
		err = ae.Cause
	}
	var se *compile.SyntaxError
	if errors.As(err, &se) {
		return &LoadError{Script: script, File: file, Line: se.Line, Message: bound(fmt.Sprintf("%s:%d: %s", file, se.Line, se.Msg))}
	}
	var pe *parse.Error
	if errors.As(err, &pe) {
		if se := compile.CheckSyntax(string(src)); se != nil {
			return &LoadError{Script: script, File: file, Line: se.Line, Message: bound(fmt.Sprintf("%s:%d: %s", file, se.Line, se.Msg))}
		}
		msg := strings.TrimSpace(pe.Message)
		line := pe.Pos.Line
		near := "near '" + pe.Token + "'"
		if line == parse.EOF {
			line = bytes.Count(src, []byte("\n")) + 1
			near = "near <eof>"
		}
		return &LoadError{Script: script, File: file, Line: line, Message: bound(fmt.Sprintf("%s:%d: %s %s", file, line, msg, near))}
	}
	var ce *lua.CompileError
	if errors.As(err, &ce) {
		return &LoadError{Script: script, File: file, Line: ce.Line, Message: bound(fmt.Sprintf("%s:%d: %s", file, ce.Line, ce.Message))}
	}
	return loadError(script, file, err.Error())
}

var locationRE = regexp.MustCompile(`^([^\s:][^:\n]*):(\d+):`)

// location parses a "file:line:" prefix.
func location(msg string) (file string, line int, ok bool) {
	m := locationRE.FindStringSubmatch(msg)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, false
	}
	return m[1], n, true
}

// bound cuts a message to maxMessage bytes, on a rune boundary.
func bound(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:cut], len(s))
}

// errorMessage copies an error value out of the VM as a bounded string.
func errorMessage(err error) string {
	var ae *lua.ApiError
	if errors.As(err, &ae) {
		switch v := ae.Object.(type) {
		case lua.LString:
			return luaWording(bound(string(v)))
		case nil:
		default:
			if ae.Object.Type() == lua.LTNil {
				return "nil"
			}
			if s, ok := v.(fmt.Stringer); ok && ae.Object.Type() != lua.LTTable && ae.Object.Type() != lua.LTUserData {
				return bound(s.String())
			}
			return fmt.Sprintf("(error object is a %s value)", ae.Object.Type())
		}
	}
	first, _, _ := strings.Cut(err.Error(), "\nstack traceback:")
	return bound(first)
}

// traceback returns a short Lua traceback from an ApiError: at most
// maxTracebackLines lines of maxTracebackLine bytes, without the Go
// frames. At the bottom of the stack is the function the host called,
// the chunk or the callback, which gopher-lua calls "main chunk" and
// which is named so; when the call went through protect (see
// newProtect), protect is that bottom frame and is left out.
func traceback(err error, callback string) string {
	var ae *lua.ApiError
	if !errors.As(err, &ae) || ae.StackTrace == "" {
		return ""
	}
	var all []string
	for l := range strings.SplitSeq(ae.StackTrace, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l == "stack traceback:" || strings.HasPrefix(l, "[G]: in function 'PCall'") || strings.HasPrefix(l, "[G]: ?") {
			continue
		}
		all = append(all, l)
	}
	n := len(all)
	viaProtect := n > 1 && all[n-1] == "[G]: in main chunk"
	if viaProtect {
		all, n = all[:n-1], n-1
	}
	if n > 0 && (viaProtect || strings.HasSuffix(all[n-1], " in main chunk")) {
		if at := strings.LastIndex(all[n-1], " in "); at >= 0 {
			name := "function '" + callback + "'"
			if callback == "chunk" {
				name = "main chunk"
			}
			all[n-1] = all[n-1][:at] + " in " + name
		}
	}
	var lines []string
	for _, l := range all {
		if len(lines) == maxTracebackLines {
			lines = append(lines, "...")
			break
		}
		if len(l) > maxTracebackLine {
			l = l[:maxTracebackLine] + "..."
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return ""
	}
	return "stack traceback:\n" + strings.Join(lines, "\n")
}

// Raw gopher-lua wordings anywhere in a message, for errors the mapper
// did not see raised (an error caught by a pcall and raised again, an
// error inside a coroutine).
var (
	looseIndex = regexp.MustCompile(`attempt to index a non-table object\((\w+)\) with key '[^']*'`)
	looseArith = regexp.MustCompile(`cannot perform (?:add|sub|mul|div|mod|pow|unm) operation between (\w+) and (\w+)`)
)

// luaWording rewrites gopher-lua's wording of runtime errors raised where
// the mapper could not see them in the words of reference Lua, which
// designers know, without a culprit: the key gopher-lua names is not the
// value that failed. "attempt to index a nil value",
// "attempt to perform arithmetic on a nil value".
func luaWording(msg string) string {
	msg = looseIndex.ReplaceAllString(msg, "attempt to index a $1 value")
	return looseArith.ReplaceAllStringFunc(msg, func(m string) string {
		sub := looseArith.FindStringSubmatch(m)
		bad := sub[1]
		if bad == "number" || bad == "string" {
			bad = sub[2]
		}
		return "attempt to perform arithmetic on a " + bad + " value"
	})
}

// scriptFrame returns "file:line" of the innermost frame of err's
// traceback that is in a script file, or "".
func scriptFrame(err error) string {
	var ae *lua.ApiError
	if !errors.As(err, &ae) {
		return ""
	}
	for l := range strings.SplitSeq(ae.StackTrace, "\n") {
		if f, line, ok := location(strings.TrimSpace(l)); ok && !strings.HasPrefix(f, "=") {
			return fmt.Sprintf("%s:%d", f, line)
		}
	}
	return ""
}

// Errors a ScriptError may wrap.
var (
	// ErrBudget marks a callback stopped for running past its time budget.
	ErrBudget = errors.New("time budget exceeded")
	// ErrMemory marks a callback stopped for allocating past its memory
	// limit.
	ErrMemory = errors.New("memory limit exceeded")
)

// scriptError builds the report of a failed callback. Only strings are
// copied out of the VM: no Lua value outlives the call.
func scriptError(s *Script, callback string, err error, o overrun) *runtime.ScriptError {
	msg := errorMessage(err)
	if f, _, ok := location(msg); !ok || strings.HasPrefix(f, "=") {
		// A stack overflow carries no position, and a budget stop may
		// land in the sandbox's own Lua (coroutine.wrap): locate the error
		// at the innermost script frame of the traceback instead.
		if at := scriptFrame(err); at != "" {
			msg = at + ": " + strings.TrimPrefix(msg[len(locationRE.FindString(msg)):], " ")
		}
	}
	var cause error
	if o.err != nil {
		where := s.file
		if f, line, ok := location(msg); ok {
			where = fmt.Sprintf("%s:%d", f, line)
		}
		msg = fmt.Sprintf("%s: exceeded its %s in %s", where, o.what, callback)
		cause = o.err
	}
	se := &runtime.ScriptError{Script: s.name, Callback: callback, Message: msg, Traceback: traceback(err, callback), Err: cause}
	if f, line, ok := location(msg); ok {
		se.File, se.Line = f, line
	} else {
		se.File = s.file
	}
	return se
}
