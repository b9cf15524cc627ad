package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTuneGC: the CLI raises the collector's target unless GOGC chose one.
func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(prev) })

	tuneGC("50")
	assert.Equal(t, 100, debug.SetGCPercent(100), "GOGC set: the target is left alone")

	tuneGC("")
	assert.Equal(t, gcPercent, debug.SetGCPercent(100), "GOGC unset: the CLI's target")
}
