package weft

import "unsafe"

// Element data crosses the C ABI as raw host-order bytes; every supported host
// (amd64, arm64) is little-endian, the byte order of the file formats.

// asBytes views a slice of elements as its bytes (no copy).
func asBytes[T Element](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// fromBytes copies bytes into a new slice of elements; len(b) must be a
// multiple of the element size.
func fromBytes[T Element](b []byte) []T {
	var zero T
	out := make([]T, len(b)/int(unsafe.Sizeof(zero)))
	copy(asBytes(out), b)
	return out
}

// numElements is the product of the dims (1 for a scalar shape).
func numElements(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	return n
}

// bytesPtr gives a pointer to b's first byte, or nil when b is empty (the C
// side accepts NULL with size 0).
func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}
