package weft

import (
	"fmt"
	"strings"
)

// DType is an element type, numbered with MXNet's dtype flags.
type DType int

// The dtype flags of c_api.h.
const (
	Float32  DType = 0
	Float64  DType = 1
	Float16  DType = 2
	Uint8    DType = 3
	Int32    DType = 4
	Int8     DType = 5
	Int64    DType = 6
	Bool     DType = 7
	BFloat16 DType = 12
)

var dtypeInfo = map[DType]struct {
	name string
	size int
}{
	Float32: {"float32", 4}, Float64: {"float64", 8}, Float16: {"float16", 2},
	Uint8: {"uint8", 1}, Int32: {"int32", 4}, Int8: {"int8", 1}, Int64: {"int64", 8},
	Bool: {"bool", 1}, BFloat16: {"bfloat16", 2},
}

// String gives numpy's name of the type ("float32").
func (d DType) String() string {
	if info, ok := dtypeInfo[d]; ok {
		return info.name
	}
	return fmt.Sprintf("dtype(%d)", int(d))
}

// Size is the number of bytes of one element (0 for an unknown flag).
func (d DType) Size() int { return dtypeInfo[d].size }

// ParseDType reads a numpy dtype name ("float32", "int64", ...).
func ParseDType(name string) (DType, error) {
	for d, info := range dtypeInfo {
		if info.name == strings.ToLower(strings.TrimSpace(name)) {
			return d, nil
		}
	}
	return 0, argError("ParseDType", "unknown dtype %q (want one of float32, float64, float16, bfloat16, "+
		"uint8, int8, int32, int64, bool)", name)
}

// Element is a Go element type with a Weft dtype. bool arrays are read and
// written as uint8; float16 and bfloat16 arrays as raw bytes (Bytes, SetBytes).
type Element interface {
	float32 | float64 | int32 | int64 | uint8 | int8
}

// DTypeOf gives the dtype of the element type T.
func DTypeOf[T Element]() DType {
	var zero T
	switch any(zero).(type) {
	case float32:
		return Float32
	case float64:
		return Float64
	case int32:
		return Int32
	case int64:
		return Int64
	case int8:
		return Int8
	default: // uint8
		return Uint8
	}
}
