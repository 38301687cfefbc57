package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"weft.dev/weft"
)

// probeMain is the probe child (Note [Load probe]): it reads one frame from
// in, limits its own address space, does with the model what adopting it does
// in the server, and writes one probeReply line to out. It returns the exit
// status; a crash ends it before that, which is what the server looks for.
func probeMain(in io.Reader, out io.Writer) int {
	reply := probeModel(in)
	if err := json.NewEncoder(out).Encode(reply); err != nil {
		return 1
	}
	return 0
}

func probeModel(in io.Reader) probeReply {
	fail := func(format string, args ...any) probeReply {
		return probeReply{Error: fmt.Sprintf(format, args...)}
	}
	r := bufio.NewReaderSize(in, 64<<10)
	magic := make([]byte, len(probeMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != probeMagic {
		return fail("%s makes weft-serve the model probe the server starts itself; it reads a frame on stdin "+
			"and is not for use by hand", probeArg)
	}
	line, err := r.ReadSlice('\n')
	var req probeRequest
	if err != nil || json.Unmarshal(bytes.TrimSpace(line), &req) != nil || req.SymbolBytes < 0 || req.ParamsBytes < 0 {
		return fail("the probe's request header is malformed")
	}
	if req.Memory > 0 {
		if err := limitAddressSpace(req.Memory); err != nil {
			return fail("the probe could not limit its memory: %v", err)
		}
	}
	sym := make([]byte, req.SymbolBytes)
	params := make([]byte, req.ParamsBytes)
	if _, err := io.ReadFull(r, sym); err != nil {
		return fail("the probe read %s's symbol short: %v", req.Name, err)
	}
	if _, err := io.ReadFull(r, params); err != nil {
		return fail("the probe read %s's params short: %v", req.Name, err)
	}
	cfg := config{poolSize: 1, maxShapes: 1}
	cfg.defaults()
	m, err := newModel(req.Name, req.Version, string(sym), params, req.Hints, cfg, newMetrics())
	if err != nil && req.Memory > 0 && weft.IsStatus(err, weft.StatusOutOfMemory) {
		return fail("%v (the probe may use %s more memory than at its start, -probe-memory)", err,
			formatBytes(req.Memory))
	}
	if err != nil {
		return fail("%v", err)
	}
	m.close()
	return probeReply{OK: true}
}

// limitAddressSpace caps the process's address space at what it has mapped now
// plus extra bytes (the Go runtime and the library's threads are already
// mapped; a race-detector build maps terabytes of shadow at start, so a cap
// that ignored them would refuse everything).
func limitAddressSpace(extra int64) error {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return err
	}
	var mapped int64 = -1
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return fmt.Errorf("VmSize %q: %v", v, err)
			}
			mapped = kb << 10
		}
	}
	if mapped < 0 {
		return fmt.Errorf("/proc/self/status has no VmSize")
	}
	limit := uint64(mapped + extra)
	return syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit})
}
