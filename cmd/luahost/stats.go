package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"time"
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
