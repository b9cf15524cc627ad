//go:build !race

package main

// raceSlowdown is how much slower in-process runs are under the race
// detector, for the limits on wall time that they are held to.
const raceSlowdown = 1
