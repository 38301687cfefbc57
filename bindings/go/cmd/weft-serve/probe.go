package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// Note [Load probe]
// ~~~~~~~~~~~~~~~~~
// A model file is input the server does not control: a symbol JSON whose
// graph makes the library crash (a 200,000-node chain overflowed the stack in
// weft_symbol_free) would take every model down with the process, from the
// folder poller, and again at every restart. So a new version is adopted only
// after a child process -- weft-serve itself, re-executed with the hidden first
// argument probeArg -- has done with the very same bytes what adopting it does
// in the server (newModel: parse, find the inputs, bind the root predictor when
// a shape hint exists). The child runs under a time limit (-probe-timeout, then
// SIGKILL) and an address-space limit (-probe-memory more than it had mapped at
// start, set with setrlimit(RLIMIT_AS) in the child before it reads the model).
// A crash, a timeout, an exit without an answer or a load error there marks the
// version UNAVAILABLE with the reason (the library function it crashed in, when
// the Go runtime's report names one) and nothing else happens: the version's
// files are not probed again until they change (the registry's stamps), and
// the other models keep serving. Only a version that passed is loaded in the
// server.
//
// The bytes go to the child through its stdin, so what was probed is what is
// loaded even if the file is replaced meanwhile. A child outlives neither its
// time limit nor the server (Pdeathsig).
//
// A version without a shape hint (-shape, NAME-shapes.json, __shape__) can
// only be parsed at load; it is bound at its first request's shapes. That bind
// is probed too (model.probeBind, before the root predictor is made in the
// server): if the child crashes, the request gets a 503 and the version is
// UNAVAILABLE from then on (model.bindCrash) until its files change. A child
// that answers a load error is not a crash: the bind then runs here and gives
// the same error, typed (a bad shape is the request's 400); a timeout fails
// that request only. Later shapes reshape the root in the server, through the
// same graph walks the probe survived.
//
// The probe child's threads have the stacks the server's have (cgo calls run
// on stacks of RLIMIT_STACK's size in both), so a graph that would overflow a
// stack in the server overflows it in the child too; the child's memory limit
// only makes it fail sooner.

// probeArg, as the first argument, makes weft-serve the probe child
// (probeMain); it is not a flag users give.
const probeArg = "-probe-child"

// probeMagic starts the frame the server writes to the child's stdin.
const probeMagic = "weft-serve probe 1\n"

// probeRequest is the frame's header line; the symbol and params bytes follow.
type probeRequest struct {
	Name        string             `json:"name"`
	Version     int                `json:"version"`
	Hints       map[string][]int64 `json:"hints"`
	SymbolBytes int                `json:"symbol_bytes"`
	ParamsBytes int                `json:"params_bytes"`
	Memory      int64              `json:"memory"` // address space the child may add (<= 0: no limit)
}

// probeReply is the child's one line on stdout.
type probeReply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// probeLimits bound a probe child.
type probeLimits struct {
	timeout time.Duration
	memory  int64 // bytes of address space beyond the child's own at start; <= 0: none
}

// probeFrame is what the child reads on stdin (the model's bytes are not
// copied).
func probeFrame(req probeRequest, symJSON string, params []byte) (io.Reader, error) {
	req.SymbolBytes, req.ParamsBytes = len(symJSON), len(params)
	header, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	head := probeMagic + string(header) + "\n"
	return io.MultiReader(strings.NewReader(head), strings.NewReader(symJSON), bytes.NewReader(params)), nil
}

// probeError is why a probe did not pass; the registry keeps it as the
// version's error.
type probeError struct {
	reason   string
	crashed  bool   // the child died or exited without an answer (not a timeout or a stop)
	answered string // the child's load error, when it answered one
}

func (e *probeError) Error() string { return e.reason }

// runProbe runs cmd (a probe child) with frame on its stdin under lim and says
// whether the model it was given can be adopted: nil, or a *probeError naming
// the load error, the crash, or the limit the child ran into.
func runProbe(ctx context.Context, cmd *exec.Cmd, frame io.Reader, lim probeLimits) error {
	if lim.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.timeout)
		defer cancel()
	}
	stdout := &tailBuffer{max: 64 << 10}
	stderr := &tailBuffer{max: 64 << 10}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = frame, stdout, stderr
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL // the child never outlives the server
	cmd.WaitDelay = time.Second                 // pipes held open past the child's end do not hold us
	if err := cmd.Start(); err != nil {
		return &probeError{reason: fmt.Sprintf("the load probe could not start: %v", err)}
	}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	stopped := !stop()
	if stopped {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return &probeError{reason: fmt.Sprintf("the load probe took longer than %v (-probe-timeout) and was stopped",
				lim.timeout)}
		}
		return &probeError{reason: "the load probe was stopped: the server is shutting down"}
	}
	var reply probeReply
	line := strings.TrimSpace(stdout.String())
	if err == nil && json.Unmarshal([]byte(line), &reply) == nil && (reply.OK || reply.Error != "") {
		if reply.OK {
			return nil
		}
		return &probeError{reason: reply.Error, answered: reply.Error}
	}
	return &probeError{reason: describeCrash(cmd.ProcessState, err, stderr.String(), lim.memory), crashed: true}
}

var (
	goSignal = regexp.MustCompile(`\b(SIG[A-Z]+)\b`)
	cFunc    = regexp.MustCompile(`_Cfunc_(\w+)`)
	goFatal  = regexp.MustCompile(`(?m)^fatal error: (.*)$`)
)

// describeCrash says how a probe child ended without an answer: the signal it
// died of, or what the Go runtime reported before exiting (a signal in C code
// -- "signal arrived during cgo execution" -- and the C function it was in, or
// a fatal error such as running out of the memory limit).
func describeCrash(st *os.ProcessState, waitErr error, stderr string, memory int64) string {
	var details []string
	if m := goFatal.FindStringSubmatch(stderr); m != nil {
		details = append(details, m[1])
	}
	if strings.Contains(stderr, "signal arrived during cgo execution") ||
		strings.Contains(stderr, "unexpected signal during runtime execution") {
		if m := goSignal.FindStringSubmatch(stderr); m != nil {
			details = append(details, m[1])
		}
	}
	if m := cFunc.FindStringSubmatch(stderr); m != nil {
		details = append(details, "in "+m[1])
	}
	var why string
	switch ws, ok := waitStatus(st); {
	case ok && ws.Signaled():
		why = fmt.Sprintf("the load probe was killed by signal %s (%v)", signalName(ws.Signal()), ws.Signal())
	case ok && ws.Exited() && len(details) > 0: // the Go runtime's report of a crash
		why = fmt.Sprintf("the load probe crashed: %s (exit status %d)", strings.Join(details, " "), ws.ExitStatus())
		details = nil
	case ok && ws.Exited():
		why = fmt.Sprintf("the load probe exited with status %d without an answer", ws.ExitStatus())
	default:
		why = fmt.Sprintf("the load probe failed: %v", waitErr)
	}
	if len(details) == 0 && !strings.Contains(why, "crashed") && lastLine(stderr) != "" {
		details = append(details, lastLine(stderr))
	}
	if len(details) > 0 {
		why += ": " + strings.Join(details, " ")
	}
	if memory > 0 && (strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "cannot allocate")) {
		why += fmt.Sprintf(" (the probe may use %s more memory than at its start, -probe-memory)",
			formatBytes(memory))
	}
	return why
}

func waitStatus(st *os.ProcessState) (syscall.WaitStatus, bool) {
	if st == nil {
		return 0, false
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ws, ok
}

// signalName gives a signal's SIG name ("SIGSEGV"), as the Go runtime and
// kill(1) call it.
func signalName(s syscall.Signal) string {
	names := map[syscall.Signal]string{syscall.SIGSEGV: "SIGSEGV", syscall.SIGBUS: "SIGBUS", syscall.SIGABRT: "SIGABRT",
		syscall.SIGILL: "SIGILL", syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL", syscall.SIGTERM: "SIGTERM",
		syscall.SIGXCPU: "SIGXCPU", syscall.SIGTRAP: "SIGTRAP", syscall.SIGSYS: "SIGSYS"}
	if n, ok := names[s]; ok {
		return n
	}
	return fmt.Sprintf("%d", int(s))
}

// lastLine is stderr's last non-empty line, at most 300 bytes of it.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(last) > 300 {
		last = last[:300] + "..."
	}
	return last
}

// tailBuffer keeps the last max bytes written to it (a crashing child's
// traceback can be long; its end names the cause, and its start too for Go).
type tailBuffer struct {
	max  int
	head []byte // the first max/2 bytes
	tail []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := b.max/2 - len(b.head); room > 0 {
		take := min(room, len(p))
		b.head = append(b.head, p[:take]...)
		p = p[take:]
	}
	b.tail = append(b.tail, p...)
	if over := len(b.tail) - b.max/2; over > 0 {
		b.tail = append(b.tail[:0], b.tail[over:]...)
	}
	return n, nil
}

func (b *tailBuffer) String() string { return string(b.head) + string(b.tail) }
