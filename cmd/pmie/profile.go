package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// startProfiles starts the CPU profile and execution trace and arranges a
// heap profile named by $PMIE_CPUPROFILE, $PMIE_TRACE and $PMIE_MEMPROFILE
// (for development); the returned function ends them.
func startProfiles() func() {
	var stops []func()
	if name := os.Getenv("PMIE_CPUPROFILE"); name != "" {
		if f, err := os.Create(name); err == nil {
			pprof.StartCPUProfile(f)
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if name := os.Getenv("PMIE_TRACE"); name != "" {
		if f, err := os.Create(name); err == nil {
			trace.Start(f)
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	if name := os.Getenv("PMIE_MEMPROFILE"); name != "" {
		runtime.MemProfileRate = 4096 // fine enough to see a small heap
		stops = append(stops, func() {
			if f, err := os.Create(name); err == nil {
				runtime.GC()
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
