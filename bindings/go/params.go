package weft

// #include <stdlib.h>
// #include <weft/c_api.h>
import "C"

import (
	"os"
	"unsafe"
)

// Params are the arrays of an MXNet 1.x .params file in file order. Names is
// nil for a list file and holds one name per array for a dict file
// ("arg:fc1_weight", "aux:bn_moving_mean" in checkpoints).
type Params struct {
	Arrays []*NDArray
	Names  []string
}

// Lookup gives the array called name, or nil.
func (p *Params) Lookup(name string) *NDArray {
	for i, n := range p.Names {
		if n == name {
			return p.Arrays[i]
		}
	}
	return nil
}

// Close frees every array.
func (p *Params) Close() {
	for _, a := range p.Arrays {
		a.Close()
	}
}

// LoadParams reads a .params file (NDArray list or dict).
func LoadParams(path string) (*Params, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, ioError("LoadParams", err)
	}
	return LoadParamsBytes(b)
}

// LoadParamsBytes reads the bytes of a .params file.
func LoadParamsBytes(b []byte) (*Params, error) {
	var handles []*C.weft_ndarray
	var names []string
	err := onThread(func() error {
		var n, numKeys C.int
		var arrays **C.weft_ndarray
		var keys **C.char
		rc := C.weft_ndarray_load_from_buffer(bytesPtr(b), C.size_t(len(b)), &n, &arrays, &numKeys, &keys)
		if err := check("weft_ndarray_load_from_buffer", rc); err != nil {
			return err
		}
		// The list and the names are thread-local: copy them before any other call.
		if n > 0 {
			handles = append(handles, unsafe.Slice(arrays, int(n))...)
		}
		if keys != nil && numKeys > 0 {
			for _, k := range unsafe.Slice(keys, int(numKeys)) {
				names = append(names, C.GoString(k))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p := &Params{Names: names}
	for i, h := range handles {
		a, err := wrapNDArray(h)
		if err != nil {
			for _, rest := range handles[i+1:] {
				C.weft_ndarray_free(rest)
			}
			p.Close()
			return nil, err
		}
		p.Arrays = append(p.Arrays, a)
	}
	return p, nil
}

// SaveParams writes arrays to path in MXNet 1.x format: a dict when names is
// non-nil (one name per array), else a list.
func SaveParams(path string, arrays []*NDArray, names []string) error {
	b, err := SaveParamsBytes(arrays, names)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return ioError("SaveParams", err)
	}
	return nil
}

// SaveParamsBytes gives the bytes of the .params file SaveParams would write.
func SaveParamsBytes(arrays []*NDArray, names []string) ([]byte, error) {
	if names != nil && len(names) != len(arrays) {
		return nil, argError("SaveParams", "%d names for %d arrays", len(names), len(arrays))
	}
	handles := make([]*C.weft_ndarray, len(arrays))
	held := map[*NDArray]*C.weft_ndarray{}
	for i, a := range arrays {
		if a == nil {
			return nil, argError("SaveParams", "array %d is nil", i)
		}
		if h, ok := held[a]; ok { // the same array twice: locked once
			handles[i] = h
			continue
		}
		h, err := a.handle("SaveParams")
		if err != nil {
			return nil, err
		}
		// Hold every array open until the buffer is copied.
		defer a.mu.Unlock()
		held[a] = h
		handles[i] = h
	}
	cnames, err := newCStrings("SaveParams", "an array name", names)
	if err != nil {
		return nil, err
	}
	defer cnames.free()
	var out []byte
	err = onThread(func() error {
		var buf *C.char
		var size C.size_t
		var hp **C.weft_ndarray
		if len(handles) > 0 {
			hp = &handles[0]
		}
		rc := C.weft_ndarray_save_to_buffer(C.int(len(handles)), hp, cnames.ptr(), &buf, &size)
		if err := check("weft_ndarray_save_to_buffer", rc); err != nil {
			return err
		}
		out = C.GoBytes(unsafe.Pointer(buf), C.int(size)) // thread-local buffer: copy now
		return nil
	})
	return out, err
}

// cStrings is a C array of C strings for calls taking const char**.
type cStrings []*C.char

// newCStrings refuses a string holding a NUL (cString), naming fn and what.
func newCStrings(fn, what string, s []string) (cStrings, error) {
	if s == nil {
		return nil, nil
	}
	out := make(cStrings, len(s))
	for i, v := range s {
		p, err := cString(fn, what, v)
		if err != nil {
			out[:i].free()
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// ptr is the array's address, NULL for nil. The slice is Go memory holding only
// C pointers, which cgo allows to pass.
func (c cStrings) ptr() **C.char {
	if len(c) == 0 {
		return nil
	}
	return &c[0]
}

func (c cStrings) free() {
	for _, p := range c {
		C.free(unsafe.Pointer(p))
	}
}
