//go:build !linux

package main

// launchIfAsked does nothing: the memory measures that need the launcher,
// and the tests that use them, are Linux only.
func launchIfAsked() {}
