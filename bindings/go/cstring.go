package weft

// #include <stdlib.h>
// #include <weft/c_api.h>
import "C"

import (
	"strings"
	"unsafe"
)

// cString is C.CString for a string that crosses the C ABI, refused when it
// holds a NUL byte, which the C side would read as the string's end (Note [C
// strings] in core/base/c_string.h: the library states the rule and the
// message; only the binding still knows the string's length). fn names the
// Go function for the error, what the string. Free the result with C.free.
func cString(fn, what, s string) (*C.char, error) {
	if strings.IndexByte(s, 0) >= 0 {
		b := C.CBytes([]byte(s))
		defer C.free(b)
		cwhat := C.CString(what)
		defer C.free(unsafe.Pointer(cwhat))
		err := call(fn, func() C.int { return C.weft_check_string((*C.char)(b), C.size_t(len(s)), cwhat) })
		if err == nil { // the library and this test disagree: never pass the string on
			err = argError(fn, "%s holds a NUL byte", what)
		}
		return nil, err
	}
	return C.CString(s), nil
}
