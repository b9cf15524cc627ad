package luaerr

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Bounds on what an error report copies out of the VM: a script can raise
// an error with a 50 MB string.
const (
	MaxMessage        = 512
	maxTracebackLines = 8
	maxTracebackLine  = 160
)

var LocationRE = regexp.MustCompile(`^([^\s:][^:\n]*):(\d+):`)

// Location parses a "file:line:" prefix.
func Location(msg string) (file string, line int, ok bool) {
	m := LocationRE.FindStringSubmatch(msg)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, false
	}
	return m[1], n, true
}

// MaxQuoted is the most bytes of a script's string (a name, a key) that
// Quote copies into a report.
const MaxQuoted = 64

// Quote quotes s for a report as strconv.Quote does, its first MaxQuoted
// bytes only: a longer s is cut on a rune boundary and followed by its
// size, as in "abc"... (16777216 bytes). Control characters and invalid
// UTF-8 are escaped, so the result is one line whatever s holds.
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	cut := MaxQuoted
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// Bound cuts a message to MaxMessage bytes, on a rune boundary.
func Bound(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	cut := MaxMessage
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:cut], len(s))
}

// ErrorMessage copies an error value out of the VM as a bounded string.
func ErrorMessage(err error) string {
	var ae *lua.ApiError
	if errors.As(err, &ae) {
		switch v := ae.Object.(type) {
		case lua.LString:
			return LuaWording(Bound(string(v)))
		case nil:
		default:
			if ae.Object.Type() == lua.LTNil {
				return "nil"
			}
			if s, ok := v.(fmt.Stringer); ok && ae.Object.Type() != lua.LTTable && ae.Object.Type() != lua.LTUserData {
				return Bound(s.String())
			}
			return fmt.Sprintf("(error object is a %s value)", ae.Object.Type())
		}
	}
	first, _, _ := strings.Cut(err.Error(), "\nstack traceback:")
	return Bound(first)
}

// Traceback returns a short Lua traceback from an ApiError: at most
// maxTracebackLines lines of maxTracebackLine bytes, without the Go
// frames. At the bottom of the stack is the function the host called,
// the chunk or the callback, which gopher-lua calls "main chunk" and
// which is named so; when the call went through protect (see
// newProtect), protect is that bottom frame and is left out.
func Traceback(err error, callback string) string {
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

// LuaWording rewrites gopher-lua's wording of runtime errors raised where
// the mapper could not see them in the words of reference Lua, which
// designers know, without a culprit: the key gopher-lua names is not the
// value that failed. "attempt to index a nil value",
// "attempt to perform arithmetic on a nil value".
func LuaWording(msg string) string {
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

// ScriptFrame returns "file:line" of the innermost frame of err's
// traceback that is in a script file, or "".
func ScriptFrame(err error) string {
	var ae *lua.ApiError
	if !errors.As(err, &ae) {
		return ""
	}
	for l := range strings.SplitSeq(ae.StackTrace, "\n") {
		if f, line, ok := Location(strings.TrimSpace(l)); ok && !strings.HasPrefix(f, "=") {
			return fmt.Sprintf("%s:%d", f, line)
		}
	}
	return ""
}

// Overrun words the report of a callback stopped by one of its limits:
// "scripts/x.lua:7: exceeded its 10M-instruction budget in onUpdate". where is the
// place it was stopped (file:line, or the script's file), limit the limit
// it ran past, as "10M-instruction budget" or "64 MiB memory limit".
func Overrun(where, limit, callback string) string {
	return fmt.Sprintf("%s: exceeded its %s in %s", where, limit, callback)
}
