package weft

// #include <weft/c_api.h>
import "C"

// Shutdown finishes every operation pushed so far, stops the library's engine
// threads and refuses new work from then on (Note [Engine shutdown] in
// core/engine/engine.h). Call it once, last, at the end of main:
//
//	func main() {
//		defer weft.Shutdown()
//		...
//	}
//
// A Go program ends without C's exit() (a return from main, os.Exit), so no
// library destructor can run under a busy engine thread as in C or Python;
// what Shutdown adds is that work pushed and never waited for (a prediction
// whose output was not read) is finished rather than cut off. Afterwards any
// call that computes fails with StatusEngine, while Close, Bytes and WaitAll
// still work. Calling it again does nothing.
func Shutdown() error { return call("weft_shutdown", func() C.int { return C.weft_shutdown() }) }
