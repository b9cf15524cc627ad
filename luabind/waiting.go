package luabind

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"

	"github.com/luahost/luahost/runtime"
)

// ErrWaiting marks an Attach that waits for its script to load
// (Options.Lenient).
var ErrWaiting = errors.New("waits for its script to load")

// waitingAttach is an attachment kept until its script loads.
type waitingAttach struct {
	e     runtime.Handle
	props any
}

// wait keeps the attachment of script name to e, which failed with err,
// when err is a load error of a script that may load later; it returns the
// error Attach returns. The first attachment of a script reports err.
func (h *Host) wait(e runtime.Handle, name string, props any, err error) error {
	var le *LoadError
	if !errors.As(err, &le) || !scriptName.MatchString(name) || !h.rt.Alive(e) {
		return err
	}
	if h.waiting == nil {
		h.waiting = map[string][]waitingAttach{}
	}
	if h.waiting[name] == nil {
		h.rt.Report(err)
	}
	h.waiting[name] = append(h.waiting[name], waitingAttach{e: e, props: props})
	return fmt.Errorf("attach %s: %w: %w", name, ErrWaiting, err)
}

// Waiting returns how many attachments wait for script name to load.
func (h *Host) Waiting(name string) int { return len(h.waiting[name]) }

// retryWaiting loads the waiting script name from src, after a save: a
// load that fails again is reported when its message changed.
func (h *Host) retryWaiting(name string, src []byte) {
	if err := h.Reload(name, src); err != nil {
		if h.refused[name] != err.Error() {
			h.report(err)
		}
		h.refused[name] = err.Error()
		return
	}
	delete(h.refused, name)
}

// retryAllWaiting retries every waiting script from its file, after a
// change of some other file (a module it requires may have been fixed).
func (h *Host) retryAllWaiting() {
	names := make([]string, 0, len(h.waiting))
	for name := range h.waiting {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		_, path, err := h.locate(name)
		if err != nil {
			continue
		}
		src, err := h.readSource(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			h.report(err)
			continue
		}
		h.retryWaiting(name, src)
	}
}

// attachWaiting makes the attachments that waited for script name, now
// loaded, in the order they were asked for; an entity gone meanwhile is
// skipped, and a failed attach is reported.
func (h *Host) attachWaiting(name string) {
	list := h.waiting[name]
	delete(h.waiting, name)
	n := 0
	for _, w := range list {
		if !h.rt.Alive(w.e) {
			continue
		}
		if _, err := h.attach(w.e, name, w.props); err != nil {
			h.report(fmt.Errorf("attach %s to %s: %w", name, w.e, err))
			continue
		}
		n++
	}
	if len(list) > 0 {
		h.notice(fmt.Sprintf("%s loads now: %d waiting instances attached", name, n))
	}
}

// notice logs an informational line of the host.
func (h *Host) notice(msg string) {
	if h.logger == nil {
		fmt.Fprintln(h.log, msg)
		return
	}
	h.logger.LogAttrs(context.Background(), slog.LevelInfo, msg, slog.Uint64("frame", h.rt.Frame()))
}
