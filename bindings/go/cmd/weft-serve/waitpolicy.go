package main

import (
	"os"
	"strings"
	"syscall"
)

// Note [OpenMP wait policy in weft-serve]: libgomp reads OMP_WAIT_POLICY and
// GOMP_SPINCOUNT once, in its constructor, which runs when the dynamic loader
// maps libweft.so -- before any Go code. Left alone, each idle OpenMP thread
// spins for GOMP_SPINCOUNT=300000 iterations after every parallel region, and
// every OS thread that calls into the library (Go runs cgo calls on whichever
// thread the goroutine has) gets a team of its own, so a served prediction
// shares the cores with spinning teams of earlier ones. The Python binding
// asks for a passive wait before it loads the library (Note [OpenMP wait
// policy] in bindings/python/weft/base.py); weft-serve cannot set the variable
// before the loader runs, so when the user set neither variable it sets
// OMP_WAIT_POLICY=PASSIVE and re-executes itself once (a few ms at start).
// Measured with BenchmarkHandler (v2 binary, concurrency 1, 2 loaded cores):
// 4.2-8.6 ms per request with libgomp's default, 0.16-0.21 ms passive; in
// benchmarks/serve.sh this is what made weft-serve slower than Python's
// http.server at concurrency 1 (issue 42 point 7). The probe children inherit
// the variable.

// passiveWaitEnv gives the environment to re-execute with, or nil when the
// user already chose a wait policy (or a spin count), which is kept.
func passiveWaitEnv(environ []string) []string {
	for _, kv := range environ {
		if strings.HasPrefix(kv, "OMP_WAIT_POLICY=") || strings.HasPrefix(kv, "GOMP_SPINCOUNT=") {
			return nil
		}
	}
	return append(append([]string(nil), environ...), "OMP_WAIT_POLICY=PASSIVE")
}

// reexecWithPassiveWait re-executes weft-serve with OMP_WAIT_POLICY=PASSIVE
// when neither variable is set; it returns (and the server runs with
// libgomp's default) only when that is not needed or the exec fails.
func reexecWithPassiveWait() {
	env := passiveWaitEnv(os.Environ())
	if env == nil {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	syscall.Exec(exe, os.Args, env) // returns only on failure: serve as we are
}
