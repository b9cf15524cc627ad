package runtime

import (
	"context"
	"errors"
	"log/slog"
)

// Slog returns an OnError that logs each error through l at level Error:
// a *ScriptError (or an error that errors.As finds one in) with its
// Message as the message and its script, entity, frame, callback, file,
// line and traceback as attributes (see ScriptError.LogAttrs); any other
// error with its text alone.
func Slog(l *slog.Logger) func(error) {
	return func(err error) {
		var se *ScriptError
		if !errors.As(err, &se) {
			l.LogAttrs(context.Background(), slog.LevelError, err.Error())
			return
		}
		l.LogAttrs(context.Background(), slog.LevelError, se.Message, se.LogAttrs()...)
	}
}

// LogAttrs returns the error's context as slog attributes: "script",
// "entity" (when it has one, as "entity(I:G)"), "entity_name" (when it
// has one), "frame", "callback",
// "file" and "line" (when known), "traceback" (when known) and "cause"
// (the text of Err, when set).
func (e *ScriptError) LogAttrs() []slog.Attr {
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs, slog.String("script", e.Script))
	if !e.Entity.IsZero() {
		attrs = append(attrs, slog.String("entity", e.Entity.String()))
	}
	if e.EntityName != "" {
		attrs = append(attrs, slog.String("entity_name", e.EntityName))
	}
	attrs = append(attrs, slog.Uint64("frame", e.Frame))
	if e.Callback != "" {
		attrs = append(attrs, slog.String("callback", e.Callback))
	}
	if e.File != "" {
		attrs = append(attrs, slog.String("file", e.File))
	}
	if e.Line > 0 {
		attrs = append(attrs, slog.Int("line", e.Line))
	}
	if e.Traceback != "" {
		attrs = append(attrs, slog.String("traceback", e.Traceback))
	}
	if e.Err != nil {
		attrs = append(attrs, slog.String("cause", e.Err.Error()))
	}
	return attrs
}
