package weft

// #include <weft/c_api.h>
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"
)

// NDArray is a handle to a Weft array. Its shape and dtype are fixed; its data
// lives on the array's device and is read and written with blocking copies.
type NDArray struct {
	mu    sync.Mutex // guards h against Close racing a call
	h     *C.weft_ndarray
	shape []int64
	dtype DType
}

// NewNDArray creates an uninitialised array on the CPU.
func NewNDArray(dtype DType, shape ...int64) (*NDArray, error) {
	return NewNDArrayOn(CPU, dtype, shape...)
}

// NewNDArrayOn creates an uninitialised array on dev.
func NewNDArrayOn(dev Device, dtype DType, shape ...int64) (*NDArray, error) {
	for i, d := range shape {
		if d < 0 {
			return nil, argError("NewNDArray", "dimension %d of shape %v is negative", i, shape)
		}
	}
	var h *C.weft_ndarray
	err := call("weft_ndarray_create", func() C.int {
		return C.weft_ndarray_create(int64Ptr(shape), C.int(len(shape)), C.enum_weft_dtype(dtype),
			C.enum_weft_dev_type(dev.Type), C.int(dev.ID), &h)
	})
	if err != nil {
		return nil, err
	}
	return wrapNDArray(h)
}

// FromSlice creates a CPU array of the given shape holding a copy of data;
// len(data) must equal the shape's element count.
func FromSlice[T Element](data []T, shape ...int64) (*NDArray, error) {
	if int64(len(data)) != numElements(shape) {
		return nil, argError("FromSlice", "%d values do not fill shape %v (%d elements)", len(data), shape,
			numElements(shape))
	}
	a, err := NewNDArray(DTypeOf[T](), shape...)
	if err != nil {
		return nil, err
	}
	if err := a.SetBytes(asBytes(data)); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// ToSlice copies the array's data into a new slice. T must match the array's
// dtype (uint8 also reads bool arrays); no conversion is made.
func ToSlice[T Element](a *NDArray) ([]T, error) {
	want := DTypeOf[T]()
	if a.dtype != want && !(want == Uint8 && a.dtype == Bool) {
		return nil, &Error{Status: StatusDType, Func: "ToSlice",
			Message: fmt.Sprintf("array has dtype %s, asked for %s", a.dtype, want)}
	}
	b, err := a.Bytes()
	if err != nil {
		return nil, err
	}
	return fromBytes[T](b), nil
}

// wrapNDArray takes ownership of h: reads its shape and dtype and sets the
// finalizer. On failure h is freed.
func wrapNDArray(h *C.weft_ndarray) (*NDArray, error) {
	a := &NDArray{h: h}
	err := onThread(func() error {
		var ndim C.int
		var dims *C.int64_t
		if err := check("weft_ndarray_shape", C.weft_ndarray_shape(h, &ndim, &dims)); err != nil {
			return err
		}
		a.shape = copyInt64s(dims, int(ndim))
		var dt C.enum_weft_dtype
		if err := check("weft_ndarray_dtype", C.weft_ndarray_dtype(h, &dt)); err != nil {
			return err
		}
		a.dtype = DType(dt)
		return nil
	})
	if err != nil {
		C.weft_ndarray_free(h)
		return nil, err
	}
	runtime.SetFinalizer(a, (*NDArray).Close)
	return a, nil
}

// Shape returns a copy of the array's dims.
func (a *NDArray) Shape() []int64 { return append([]int64(nil), a.shape...) }

// DType returns the element type.
func (a *NDArray) DType() DType { return a.dtype }

// Size is the number of elements.
func (a *NDArray) Size() int64 { return numElements(a.shape) }

// NBytes is the size of the data in bytes.
func (a *NDArray) NBytes() int64 { return a.Size() * int64(a.dtype.Size()) }

func (a *NDArray) String() string { return fmt.Sprintf("NDArray(%v, %s)", a.shape, a.dtype) }

// handle returns the live handle with a.mu held; the caller must unlock.
func (a *NDArray) handle(fn string) (*C.weft_ndarray, error) {
	a.mu.Lock()
	if a.h == nil {
		a.mu.Unlock()
		return nil, argError(fn, "the NDArray is closed")
	}
	return a.h, nil
}

// Bytes copies the data to host memory (waiting for pending writes).
func (a *NDArray) Bytes() ([]byte, error) {
	h, err := a.handle("NDArray.Bytes")
	if err != nil {
		return nil, err
	}
	defer a.mu.Unlock()
	out := make([]byte, a.NBytes())
	err = call("weft_ndarray_copy_to_host", func() C.int {
		return C.weft_ndarray_copy_to_host(h, bytesPtr(out), C.size_t(len(out)))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SetBytes overwrites the data with b (exactly NBytes bytes, host order).
func (a *NDArray) SetBytes(b []byte) error {
	if int64(len(b)) != a.NBytes() {
		return argError("NDArray.SetBytes", "%d bytes given for %v of %s (%d bytes)", len(b), a.shape, a.dtype,
			a.NBytes())
	}
	h, err := a.handle("NDArray.SetBytes")
	if err != nil {
		return err
	}
	defer a.mu.Unlock()
	return call("weft_ndarray_copy_from_host", func() C.int {
		return C.weft_ndarray_copy_from_host(h, bytesPtr(b), C.size_t(len(b)))
	})
}

// Close frees the handle (the memory goes after pending operations). Safe to
// call more than once; also run by the finalizer.
func (a *NDArray) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.h != nil {
		C.weft_ndarray_free(a.h)
		a.h = nil
		runtime.SetFinalizer(a, nil)
	}
}

func int64Ptr(s []int64) *C.int64_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&s[0]))
}

func copyInt64s(p *C.int64_t, n int) []int64 {
	if n <= 0 || p == nil {
		return []int64{}
	}
	return append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(p)), n)...)
}
