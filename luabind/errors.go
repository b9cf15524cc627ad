package luabind

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luahost/luahost/luabind/internal/compile"
	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/runtime"
)

// LoadError is a script that cannot be loaded: it does not exist, it does
// not compile, its chunk fails or runs past the budget, or it does not
// return a table. Its message starts with file:line where one is known.
// Err says why, for errors.Is and errors.As: a script whose file does not
// exist matches fs.ErrNotExist, one that does not compile has a
// *SyntaxError.
type LoadError struct {
	// Script is the script's name ("ai/patrol").
	Script string
	// File is the file's display path ("scripts/ai/patrol.lua").
	File string
	// Line is the line of the error, or 0.
	Line int
	// Message is the full message, "scripts/x.lua:3: ... near 'end'".
	Message string
	// Err is the cause: the file system's error when the file cannot be
	// read (wrapping fs.ErrNotExist when it does not exist), a
	// *SyntaxError when it does not compile; nil when the chunk failed
	// or returned no table (Message says how).
	Err error
}

// Error returns the message, "file:line: ...".
func (e *LoadError) Error() string { return e.Message }

// Unwrap returns the cause, Err.
func (e *LoadError) Unwrap() error { return e.Err }

// SyntaxError is why a script or a chunk does not compile: the cause of
// its LoadError. Its message is the LoadError's, "file:line: message near
// 'token'".
type SyntaxError struct {
	// File is the file's display path ("scripts/ai/patrol.lua").
	File string
	// Line is the line of the error.
	Line int
	// Message is the message without the file and line, such as "'end'
	// expected (to close 'if' at line 3) near <eof>".
	Message string
}

// Error returns "file:line: message".
func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message) }

// syntaxError is the LoadError of a script that does not compile.
func syntaxError(script, file string, line int, msg string) *LoadError {
	se := &SyntaxError{File: file, Line: line, Message: msg}
	return &LoadError{Script: script, File: file, Line: line, Message: luaerr.Bound(se.Error()), Err: se}
}

// loadError builds a LoadError from a message that may start with
// "file:line:".
func loadError(script, file, msg string) *LoadError {
	msg = luaerr.Bound(msg)
	e := &LoadError{Script: script, File: file, Message: msg}
	if f, line, ok := luaerr.Location(msg); ok && f == file {
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
		return syntaxError(script, file, se.Line, se.Msg)
	}
	var pe *parse.Error
	if errors.As(err, &pe) {
		if se := compile.CheckSyntax(string(src)); se != nil {
			return syntaxError(script, file, se.Line, se.Msg)
		}
		msg := strings.TrimSpace(pe.Message)
		line := pe.Pos.Line
		near := "near '" + pe.Token + "'"
		if line == parse.EOF {
			line = bytes.Count(src, []byte("\n")) + 1
			near = "near <eof>"
		}
		return syntaxError(script, file, line, msg+" "+near)
	}
	var ce *lua.CompileError
	if errors.As(err, &ce) {
		return syntaxError(script, file, ce.Line, ce.Message)
	}
	return loadError(script, file, err.Error())
}

// loadMessage is what load and loadstring return for a chunk, named
// chunk, that does not compile: the message in Lua 5.1's own words
// (compile.SyntaxError), which differ from a script's in a few points.
func loadMessage(chunk string, src []byte, err error) string {
	var se *compile.SyntaxError
	if errors.As(err, &se) && se.RefMsg != "" {
		return luaerr.Bound(fmt.Sprintf("%s:%d: %s", chunk, se.RefLine, se.RefMsg))
	}
	msg := compileError("", chunk, src, err).Message
	if m, ok := strings.CutSuffix(msg, " near <eof>"); ok {
		return m + " near '<eof>'"
	}
	return msg
}

// Errors a ScriptError may wrap.
var (
	// ErrBudget marks a callback stopped for running past its work budget.
	ErrBudget = errors.New("work budget exceeded")
	// ErrMemory marks a callback stopped for allocating past its memory
	// limit.
	ErrMemory = errors.New("memory limit exceeded")
	// ErrGopherLua is what New returns when the gopher-lua this program
	// was built with is not laid out as luahost assumes (a version other
	// than the one go.mod names, selected by the embedder's module
	// graph). The error names each assumption that failed and the
	// feature that needs it.
	ErrGopherLua = errors.New("unsupported gopher-lua version")
)

// scriptError builds the report of a failed callback. Only strings are
// copied out of the VM: no Lua value outlives the call.
func scriptError(s *Script, callback string, err error, o overrun) *runtime.ScriptError {
	msg := luaerr.ErrorMessage(err)
	if f, _, ok := luaerr.Location(msg); !ok || strings.HasPrefix(f, "=") {
		// A stack overflow carries no position, and a budget stop may
		// land in the sandbox's own Lua (coroutine.wrap): locate the error
		// at the innermost script frame of the traceback instead.
		if at := luaerr.ScriptFrame(err); at != "" {
			msg = at + ": " + strings.TrimPrefix(msg[len(luaerr.LocationRE.FindString(msg)):], " ")
		}
	}
	var cause error
	if o.err != nil {
		where := s.file
		if f, line, ok := luaerr.Location(msg); ok {
			where = fmt.Sprintf("%s:%d", f, line)
		}
		msg = luaerr.Overrun(where, o.what, callback)
		cause = o.err
	}
	se := &runtime.ScriptError{Script: s.name, Callback: callback, Message: msg, Traceback: luaerr.Traceback(err, callback), Err: cause}
	if f, line, ok := luaerr.Location(msg); ok {
		se.File, se.Line = f, line
	} else {
		se.File = s.file
	}
	return se
}
