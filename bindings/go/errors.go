package weft

// #include <weft/c_api.h>
import "C"

import (
	"errors"
	"fmt"
	"runtime"
)

// Status is a weft_status code returned by a failed library call.
type Status int

// The values of enum weft_status (c_api.h).
const (
	StatusInvalidArgument Status = 1
	StatusShape           Status = 2
	StatusDType           Status = 3
	StatusOutOfMemory     Status = 4
	StatusNotFound        Status = 5
	StatusEngine          Status = 6
	StatusIO              Status = 7
	StatusInternal        Status = 8
)

var statusNames = map[Status]string{
	StatusInvalidArgument: "invalid argument",
	StatusShape:           "shape",
	StatusDType:           "dtype",
	StatusOutOfMemory:     "out of memory",
	StatusNotFound:        "not found",
	StatusEngine:          "engine",
	StatusIO:              "io",
	StatusInternal:        "internal",
}

func (s Status) String() string {
	if name, ok := statusNames[s]; ok {
		return name
	}
	return fmt.Sprintf("status %d", int(s))
}

// Error is a failure reported by the library (Status and its message) or by
// this binding before a call was made (Status StatusInvalidArgument), or a
// Go-side failure such as a missing file (Status StatusIO, Err the cause).
//
// Test the status with errors.As (or IsStatus), the cause with errors.Is:
//
//	var werr *weft.Error
//	if errors.As(err, &werr) && werr.Status == weft.StatusShape { ... }
//	if errors.Is(err, fs.ErrNotExist) { ... } // a model file is missing
type Error struct {
	Status  Status
	Func    string // the C function (or Go method) that failed
	Message string // the library's message, as weft_last_error gave it
	Err     error  // the Go error behind it (an *fs.PathError for files), or nil
}

func (e *Error) Error() string {
	return fmt.Sprintf("weft: %s: %s", e.Func, e.Message)
}

// Unwrap gives the cause (nil for the library's own failures), so
// errors.Is(err, fs.ErrNotExist) holds for a file that does not exist.
func (e *Error) Unwrap() error { return e.Err }

// ioError wraps a Go I/O failure of fn.
func ioError(fn string, err error) error {
	return &Error{Status: StatusIO, Func: fn, Message: err.Error(), Err: err}
}

// IsStatus reports whether err is (or wraps) an *Error with status s.
func IsStatus(err error, s Status) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == s
}

func argError(fn, format string, args ...any) error {
	return &Error{Status: StatusInvalidArgument, Func: fn, Message: fmt.Sprintf(format, args...)}
}

// onThread runs f with the goroutine locked to its OS thread. The library keeps
// the last error and the buffers it returns (name lists, loaded handles) per
// thread, so a call, its weft_last_error and the reading of its results must
// happen on one thread without another call in between.
func onThread(f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return f()
}

// check turns the status rc of C function fn into an error. It must run on the
// thread that made the call (inside onThread).
func check(fn string, rc C.int) error {
	if rc == 0 {
		return nil
	}
	status := Status(rc)
	if status < StatusInvalidArgument || status > StatusInternal {
		// docs/DESIGN.md allows -1 for "failure"; keep the message, call it internal.
		status = StatusInternal
	}
	return &Error{Status: status, Func: fn, Message: C.GoString(C.weft_last_error())}
}

// call runs one C call that returns a status and has no thread-local results.
func call(fn string, f func() C.int) error {
	return onThread(func() error { return check(fn, f()) })
}
