package weft

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// shutdownChildEnv marks the copy of this test binary that TestShutdownRefusesLaterWork
// starts: Shutdown is final for the process, so it is checked in a process of its own.
const shutdownChildEnv = "WEFT_GO_SHUTDOWN_CHILD"

func TestShutdownRefusesLaterWork(t *testing.T) {
	if os.Getenv(shutdownChildEnv) == "1" {
		shutdownChild()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestShutdownRefusesLaterWork$")
	cmd.Env = append(os.Environ(), shutdownChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "shutdown-ok") {
		t.Fatalf("child did not finish its checks:\n%s", out)
	}
}

// shutdownChild runs in the child process and exits it with a message on failure.
func shutdownChild() {
	fail := func(format string, args ...interface{}) {
		os.Stderr.WriteString("shutdown child: " + strings.TrimSpace(fmt.Sprintf(format, args...)) + "\n")
		os.Exit(3)
	}
	a, err := FromSlice([]float32{1, 2, 3}, 3)
	if err != nil {
		fail("%v", err)
	}
	if err := Shutdown(); err != nil {
		fail("Shutdown: %v", err)
	}
	if err := Shutdown(); err != nil {
		fail("second Shutdown: %v", err)
	}
	err = a.SetBytes(make([]byte, 12))
	if !IsStatus(err, StatusEngine) || !strings.Contains(err.Error(), "shut down") {
		fail("SetBytes after Shutdown: want an engine error naming the shutdown, got %v", err)
	}
	got, err := ToSlice[float32](a)
	if err != nil || len(got) != 3 || got[2] != 3 {
		fail("reading after Shutdown: %v %v", got, err)
	}
	a.Close()
	os.Stdout.WriteString("shutdown-ok\n")
	os.Exit(0)
}
