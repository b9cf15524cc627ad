package luabind

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/luabind/internal/lualib"
	"github.com/luahost/luahost/runtime"
)

// The host's log lines (ctx.log, reload notices, the watcher's warnings)
// go through Options.Logger, or the runtime's, when there is one, with
// attributes; else to Options.Log as text lines.

// logReload logs an applied reload of s: n instances migrated in d.
func (h *Host) logReload(s *Script, n int, d time.Duration) {
	if h.logger == nil {
		fmt.Fprintf(h.log, "reloaded %s: %d instances migrated in %s\n", s.file, n, roundDuration(d))
		return
	}
	h.logger.LogAttrs(context.Background(), slog.LevelInfo, "reloaded "+s.file,
		slog.String("script", s.name), slog.Uint64("frame", h.rt.Frame()),
		slog.Int("instances", n), slog.Duration("duration", d))
}

// warn logs a warning about the script folder or script s (nil for none).
func (h *Host) warn(s *Script, msg string) {
	if h.logger == nil {
		fmt.Fprintf(h.log, "warning: %s\n", msg)
		return
	}
	attrs := []slog.Attr{slog.Uint64("frame", h.rt.Frame())}
	if s != nil {
		attrs = append(attrs, slog.String("script", s.name))
	}
	h.logger.LogAttrs(context.Background(), slog.LevelWarn, msg, attrs...)
}

// ctx.log(...) writes one line to the host log: the script's name and the
// entity, then the arguments as print writes them, control characters
// escaped and lines after the first indented. Through a slog.Logger,
// the arguments are the message, at level Info, and the script, entity
// and frame are attributes.
func (st *state) ctxLog(L *lua.LState) int {
	line := st.host.printLine(L, "ctx.log")
	h := st.host
	if h.logger != nil {
		attrs := []slog.Attr{slog.String("script", st.script.name)}
		if st.cur != nil {
			attrs = append(attrs, slog.String("entity", st.cur.Entity().String()))
		}
		attrs = append(attrs, slog.Uint64("frame", h.rt.Frame()))
		h.logger.LogAttrs(context.Background(), slog.LevelInfo, line, attrs...)
		return 0
	}
	prefix := st.label
	if st.cur != nil {
		prefix += " " + st.cur.Entity().String()
	}
	if L.GetTop() > 0 {
		prefix += ": "
	} else {
		prefix += ":"
	}
	// A script's text cannot pass for a host line (runtime.SafeText).
	fmt.Fprint(h.log, prefix+runtime.SafeText(line, "\t")+"\n")
	return 0
}

// printLine returns the arguments of print or ctx.log (what), tostring'd
// and tab-separated, converting every argument first: a __tostring that
// fails leaves no half line behind. As Lua 5.1's print, it calls the
// global tostring, whatever the script made of it (the sandbox's own is
// called without a Lua call); print writes each argument up to its first
// NUL byte, as C's fputs does. A line longer than the host's string
// limit is refused before it is built (8,000 arguments of 16 MiB made a
// 128 GiB line, in one Go call the budget could not stop).
func (h *Host) printLine(L *lua.LState, what string) string {
	parts := make([]string, L.GetTop())
	size := max(len(parts)-1, 0)
	tostring := L.GetGlobal("tostring")
	own := lualib.IsToString(tostring)
	for i := range parts {
		var r lua.LValue
		if own {
			r = laux.ToString(L, L.Get(i+1))
		} else {
			r = laux.CallOne(L, tostring, L.Get(i+1))
		}
		s, ok := laux.Printable(r)
		if !ok {
			laux.Raise(L, fmt.Sprintf("'tostring' must return a string to '%s'", what))
		}
		if what == "print" {
			if n := strings.IndexByte(s, 0); n >= 0 {
				s = s[:n]
			}
		}
		parts[i] = s
		size += len(parts[i])
	}
	if limit := h.maxString(); size > limit {
		laux.Raise(L, fmt.Sprintf("%s: line too large (%d bytes, limit %d)", what, size, limit))
	}
	// The line is built, escaped and written: charged as work.
	if size >= budget.BytesPerWork {
		h.charge(L, int64(size/budget.BytesPerWork))
	}
	return strings.Join(parts, "\t")
}
