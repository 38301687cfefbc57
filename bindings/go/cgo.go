package weft

// #cgo CFLAGS: -I${SRCDIR}/../../capi/include
// #cgo LDFLAGS: -lweft
// #include <stdlib.h>
// #include <weft/c_api.h>
// #include <weft/c_predict_api.h>
import "C"
