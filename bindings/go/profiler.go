package weft

// #include <stdlib.h>
// #include <weft/c_api.h>
import "C"

import (
	"sort"
	"unsafe"
)

// ProfilerSetConfig configures the engine's profiler with MXNet 1.9.1's keys
// and value spellings (mx.profiler.set_config), e.g. {"profile_all": "True",
// "filename": "trace.json", "continuous_dump": "False"}. An unknown key or a
// bad value fails naming it and changes nothing.
func ProfilerSetConfig(config map[string]string) error {
	keys := make([]string, 0, len(config))
	for k := range config {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ck := make([]*C.char, len(keys))
	cv := make([]*C.char, len(keys))
	for i, k := range keys {
		var err error
		if ck[i], err = cString("ProfilerSetConfig", "a key", k); err != nil {
			return err
		}
		defer C.free(unsafe.Pointer(ck[i]))
		if cv[i], err = cString("ProfilerSetConfig", "the value of "+k, config[k]); err != nil {
			return err
		}
		defer C.free(unsafe.Pointer(cv[i]))
	}
	var kp, vp **C.char
	if len(keys) > 0 {
		kp, vp = &ck[0], &cv[0]
	}
	return call("weft_profiler_set_config", func() C.int {
		return C.weft_profiler_set_config(C.int(len(keys)), kp, vp)
	})
}

// ProfilerSetState starts (run = true) or stops recording every engine op.
func ProfilerSetState(run bool) error {
	s := 0
	if run {
		s = 1
	}
	return call("weft_profiler_set_state", func() C.int { return C.weft_profiler_set_state(C.int(s)) })
}

// ProfilerPause leaves out the ops pushed until ProfilerResume.
func ProfilerPause() error {
	return call("weft_profiler_pause", func() C.int { return C.weft_profiler_pause(1) })
}

// ProfilerResume resumes recording after ProfilerPause.
func ProfilerResume() error {
	return call("weft_profiler_pause", func() C.int { return C.weft_profiler_pause(0) })
}

// ProfilerDump writes the Chrome trace (JSON) of what ran since the last
// finished dump to the configured file; finished starts the next one afresh.
func ProfilerDump(finished bool) error {
	f := 0
	if finished {
		f = 1
	}
	return call("weft_profiler_dump", func() C.int { return C.weft_profiler_dump(C.int(f)) })
}

// ProfilerDumps gives MXNet's aggregate table (asJSON: its JSON form), sorted
// by total time, largest first; reset starts counting afresh.
func ProfilerDumps(reset, asJSON bool) (string, error) {
	r, f := 0, 0
	if reset {
		r = 1
	}
	if asJSON {
		f = 1
	}
	var out *C.char
	var s string
	err := call("weft_profiler_dumps", func() C.int {
		rc := C.weft_profiler_dumps(C.int(r), C.int(f), 0, 0, &out)
		if rc == 0 {
			s = C.GoString(out) // valid until this thread's next call
		}
		return rc
	})
	return s, err
}
