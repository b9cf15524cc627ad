package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
)

// BenchmarkLoadScene measures the start of a scene file of n spinners,
// each with a name and a position: reading and decoding the file,
// loading the script, spawning, attaching, running every onCreate and
// activating (loadScene), with the collector's target the CLI sets
// (gcPercent). s/load is one start, cpu-s/load the process's CPU time
// during it (user and system, the collector's included; Linux only),
// steadier than s/load on a shared machine, MB-file the file's size,
// GB-peak the process's peak resident set after it (VmHWM, which only
// grows: the largest size's run is the one to read). The million runs
// only with LUAHOST_BENCH_HUGE=1.
func BenchmarkLoadScene(b *testing.B) {
	sizes := []int{10_000, 100_000}
	if os.Getenv("LUAHOST_BENCH_HUGE") == "1" {
		sizes = append(sizes, 1_000_000)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	for _, n := range sizes {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			path := writeSpinnerScene(b, n)
			info, err := os.Stat(path)
			require.NoError(b, err)
			b.ReportAllocs()
			var total, cpu time.Duration
			for b.Loop() {
				goruntime.GC()
				start, startCPU := time.Now(), processCPU()
				w, err := loadScene(path, loadConfig{budget: luabind.DefaultBudget, stdout: io.Discard, stderr: io.Discard})
				total += time.Since(start)
				cpu += processCPU() - startCPU
				require.NoError(b, err)
				require.NoError(b, w.host.Close())
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "s/load")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/load")
			b.ReportMetric(float64(info.Size())/1e6, "MB-file")
			b.ReportMetric(float64(peakRSS())/1e9, "GB-peak")
		})
	}
}

// writeSpinnerScene writes a scene of n named spinners on a grid, and its
// script folder, and returns the scene's path.
func writeSpinnerScene(b *testing.B, n int) string {
	dir := b.TempDir()
	require.NoError(b, os.Mkdir(filepath.Join(dir, "scripts"), 0o755))
	src, err := os.ReadFile("../../testdata/bench/scripts/spinner.lua")
	require.NoError(b, err)
	require.NoError(b, os.WriteFile(filepath.Join(dir, "scripts", "spinner.lua"), src, 0o644))
	var sb strings.Builder
	sb.WriteString(`{"entities": [`)
	for i := range n {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `{"name":"s%d","position":[%d,0,%d],"scripts":["spinner"]}`, i, i%1000, i/1000)
	}
	sb.WriteString("]}\n")
	path := filepath.Join(dir, "scene.json")
	require.NoError(b, os.WriteFile(path, []byte(sb.String()), 0o644))
	return path
}

// peakRSS returns the process's peak resident set in bytes (VmHWM), 0
// where /proc is missing.
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	var kib int64
	for line := range strings.Lines(string(data)) {
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kib); err == nil {
			return kib * 1024
		}
	}
	return 0
}
