//go:build !linux

package main

import "time"

// launchIfAsked does nothing: the memory measures that need the launcher,
// and the tests that use them, are Linux only.
func launchIfAsked() {}

// processCPU returns 0: the CPU time of a start is measured on Linux only.
func processCPU() time.Duration { return 0 }
