package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/luahost/luahost/luabind"
)

// frameTimes are the durations of the frames run.
type frameTimes []time.Duration

// summary holds frame-time figures in milliseconds.
type summary struct {
	min, median, p99, max float64
}

// summary computes min, median, 99th percentile (nearest rank) and max.
func (ft frameTimes) summary() summary {
	if len(ft) == 0 {
		return summary{}
	}
	s := slices.Clone(ft)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	rank := func(p float64) time.Duration {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	median := ms(s[len(s)/2])
	if len(s)%2 == 0 {
		median = (ms(s[len(s)/2-1]) + ms(s[len(s)/2])) / 2
	}
	return summary{min: ms(s[0]), median: median, p99: ms(rank(0.99)), max: ms(s[len(s)-1])}
}

func (s summary) table() string {
	return fmt.Sprintf("min        %.3f ms\nmedian     %.3f ms\np99        %.3f ms\nmax        %.3f ms\n", s.min, s.median, s.p99, s.max)
}

// progress shows "frame N/M" on stderr while frames run, when stderr is a
// terminal, at most five times a second; elsewhere it prints nothing.
type progress struct {
	w     io.Writer
	total int
	last  time.Time
	shown bool
}

func newProgress(w io.Writer, total int) *progress {
	f, ok := w.(*os.File)
	if !ok {
		return &progress{}
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return &progress{}
	}
	return &progress{w: w, total: total, last: time.Now()}
}

func (p *progress) update(n int) {
	if p.w == nil || time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.shown = true
	fmt.Fprintf(p.w, "\rframe %d/%d", n, p.total)
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// scriptTable is the per-script timing table of --stats, the
// scripts that ate the most time first: calls, errors, total time, mean
// and longest call. A "~" marks times estimated from a sample of the
// calls (luabind.TimingSampled).
func scriptTable(timing []luabind.ScriptStats) string {
	ts := slices.Clone(timing)
	slices.SortStableFunc(ts, func(a, b luabind.ScriptStats) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return strings.Compare(a.Script, b.Script)
	})
	width := len("script")
	for _, s := range ts {
		width = max(width, len(s.Script))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s %10s %7s %11s %10s %10s\n", width, "script", "calls", "errors", "total ms", "mean µs", "max µs")
	sampled := false
	for _, s := range ts {
		mark := ""
		if !s.Exact {
			mark, sampled = "~", true
		}
		total := fmt.Sprintf("%s%.3f", mark, float64(s.Total)/float64(time.Millisecond))
		mean := fmt.Sprintf("%s%.1f", mark, float64(s.Mean())/float64(time.Microsecond))
		fmt.Fprintf(&b, "%-*s %10d %7d %11s %10s %10.1f\n", width, s.Script, s.Calls, s.Errors, total, mean, float64(s.Max)/float64(time.Microsecond))
	}
	if sampled {
		b.WriteString("~ estimated from the timed calls (of cheap callbacks, one in 16 after the first 16)\n")
	}
	return b.String()
}

// maxTableMessage bounds a message in the error table of --stats.
const maxTableMessage = 120

// errorTable is the distinct-error table of --stats, in the order the
// errors first happened: how often, the first and last frame, the script
// and the message's first line.
func errorTable(errs []luabind.ErrorCount, dropped int) string {
	width := len("script")
	for _, e := range errs {
		width = max(width, len(e.Script))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%7s %7s %7s  %-*s  %s\n", "count", "first", "last", width, "script", "error")
	for _, e := range errs {
		msg, _, _ := strings.Cut(e.Message, "\n")
		if len(msg) > maxTableMessage {
			msg = msg[:maxTableMessage] + "..."
		}
		fmt.Fprintf(&b, "%7d %7d %7d  %-*s  %s\n", e.Count, e.First, e.Last, width, e.Script, msg)
	}
	if dropped > 0 {
		fmt.Fprintf(&b, "and %d more distinct errors\n", dropped)
	}
	return b.String()
}

// mergeTiming adds the per-script timing of more (another zone's host)
// to into's, by script.
func mergeTiming(into *luabind.Stats, more []luabind.ScriptStats) {
	for _, m := range more {
		i := slices.IndexFunc(into.Timing, func(s luabind.ScriptStats) bool { return s.Script == m.Script })
		if i < 0 {
			into.Timing = append(into.Timing, m)
			continue
		}
		s := &into.Timing[i]
		s.Calls += m.Calls
		s.Errors += m.Errors
		s.Total += m.Total
		s.Max = max(s.Max, m.Max)
		s.Exact = s.Exact && m.Exact
	}
}
