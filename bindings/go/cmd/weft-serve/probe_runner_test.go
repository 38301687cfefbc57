package main

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// runSh runs a shell script as if it were a probe child.
func runSh(t *testing.T, script string, lim probeLimits) error {
	t.Helper()
	frame, err := probeFrame(probeRequest{Name: "m", Version: 1}, "{}", []byte("params"))
	if err != nil {
		t.Fatal(err)
	}
	return runProbe(context.Background(), exec.Command("/bin/sh", "-c", script), frame, lim)
}

// A probe child that dies by a signal -- what a crash in the library does to
// a process -- is a failed probe naming the signal, and the caller lives on.
func TestProbeChildKilledBySignalIsAFailedProbe(t *testing.T) {
	err := runSh(t, "cat >/dev/null; kill -SEGV $$", probeLimits{timeout: 10 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "killed by signal SIGSEGV") {
		t.Fatalf("want a failure naming SIGSEGV, got %v", err)
	}
	err = runSh(t, "kill -ABRT $$", probeLimits{timeout: 10 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "killed by signal SIGABRT") {
		t.Fatalf("want a failure naming SIGABRT, got %v", err)
	}
}

// The Go runtime turns a signal in C code into a traceback and exit status 2;
// the reason names the signal and the library function it came in.
func TestProbeChildGoCrashReportNamesTheSignalAndFunction(t *testing.T) {
	report := `SIGSEGV: segmentation violation
PC=0x7f0000001234 m=0 sigcode=1 addr=0x7ffd000000
signal arrived during cgo execution

goroutine 1 gp=0xc000002380 m=0 mp=0x5f0b20 [syscall]:
runtime.cgocall(0x4c2a10, 0xc000051d18)
weft.dev/weft._Cfunc_weft_symbol_free(0x1d3a2b0)
`
	err := runSh(t, "printf '%s' '"+report+"' >&2; exit 2", probeLimits{timeout: 10 * time.Second})
	if err == nil || err.Error() != "the load probe crashed: SIGSEGV in weft_symbol_free (exit status 2)" {
		t.Fatalf("got %v", err)
	}
	err = runSh(t, "echo 'fatal error: runtime: out of memory' >&2; exit 2", probeLimits{timeout: 10 * time.Second,
		memory: 512 << 20})
	if err == nil || !strings.Contains(err.Error(), "runtime: out of memory") ||
		!strings.Contains(err.Error(), "512M more memory than at its start, -probe-memory") {
		t.Fatalf("got %v", err)
	}
}

// A child past its time limit is killed and the probe fails saying so; one
// that ends without the answer line fails too; an answer is passed on.
func TestProbeRunnerTimeLimitAndAnswers(t *testing.T) {
	start := time.Now()
	err := runSh(t, "exec sleep 30", probeLimits{timeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "took longer than 300ms (-probe-timeout)") {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the probe took %v to stop", d)
	}
	if err := runSh(t, "exit 0", probeLimits{}); err == nil ||
		err.Error() != "the load probe exited with status 0 without an answer" {
		t.Fatalf("got %v", err)
	}
	if err := runSh(t, `echo '{"error":"symbol JSON: unexpected end"}'`, probeLimits{}); err == nil ||
		err.Error() != "symbol JSON: unexpected end" {
		t.Fatalf("got %v", err)
	}
	if err := runSh(t, `head -c 19 | grep -q 'weft-serve probe 1' && echo '{"ok":true}'`, probeLimits{}); err != nil {
		t.Fatalf("a passing probe: %v", err)
	}
	if err := (runProbe(context.Background(), exec.Command("/nonexistent/weft-serve"), strings.NewReader(""),
		probeLimits{})); err == nil || !strings.Contains(err.Error(), "could not start") {
		t.Fatalf("got %v", err)
	}
}

// The probe frame reads back as what was sent, and the child refuses input
// that is not a frame (someone running weft-serve -probe-child by hand).
func TestProbeChildRefusesInputThatIsNotAFrame(t *testing.T) {
	reply := probeModel(strings.NewReader("hello\n"))
	if reply.OK || !strings.Contains(reply.Error, "not for use by hand") {
		t.Fatalf("got %+v", reply)
	}
	reply = probeModel(strings.NewReader(probeMagic + "{\"symbol_bytes\": -1}\n"))
	if reply.OK || !strings.Contains(reply.Error, "malformed") {
		t.Fatalf("got %+v", reply)
	}
	frame, _ := probeFrame(probeRequest{Name: "short"}, "{}", []byte("params"))
	all, _ := io.ReadAll(frame)
	reply = probeModel(bytes.NewReader(all[:len(all)-1]))
	if reply.OK || !strings.Contains(reply.Error, "the probe read short's params short") {
		t.Fatalf("a frame cut short: %+v", reply)
	}
}

func TestByteSizeFlag(t *testing.T) {
	for in, want := range map[string]int64{"8G": 8 << 30, "512M": 512 << 20, "1gib": 1 << 30, "4096": 4096, "0": -1} {
		var b byteSize
		if err := b.Set(in); err != nil || int64(b) != want {
			t.Errorf("%q: %d %v, want %d", in, b, err, want)
		}
	}
	for _, in := range []string{"", "-1", "8X", "G", "99999999999T"} {
		var b byteSize
		if err := b.Set(in); err == nil {
			t.Errorf("%q accepted as %d", in, b)
		}
	}
	if s := (*byteSize)(new(int64)); s.String() != "0" {
		t.Errorf("zero prints %q", s.String())
	}
	v := byteSize(8 << 30)
	if v.String() != "8G" {
		t.Errorf("8 GiB prints %q", v.String())
	}
}
