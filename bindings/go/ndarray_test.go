package weft

import (
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func roundTrip[T Element](t *testing.T, data []T, shape ...int64) {
	t.Helper()
	a, err := FromSlice(data, shape...)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.DType() != DTypeOf[T]() || !reflect.DeepEqual(a.Shape(), shape) {
		t.Fatalf("got %v %s, want %v %s", a.Shape(), a.DType(), shape, DTypeOf[T]())
	}
	back, err := ToSlice[T](a)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, data) {
		t.Fatalf("%s round trip: got %v, want %v", a.DType(), back, data)
	}
}

func TestNDArrayRoundTripEveryDType(t *testing.T) {
	roundTrip(t, []float32{1.5, -2, 3.25, 1e-30, 7, 8}, 2, 3)
	roundTrip(t, []float64{1.5, -2, 3.141592653589793}, 3)
	roundTrip(t, []int32{-1 << 31, 0, 1<<31 - 1, 4}, 2, 2)
	roundTrip(t, []int64{-1 << 62, 1 << 62, 5}, 3, 1)
	roundTrip(t, []uint8{0, 1, 255}, 1, 3)
	roundTrip(t, []int8{-128, 0, 127, 5}, 4)
	roundTrip(t, []float32{42}) // a scalar
}

func TestNDArrayRawBytesForFloat16(t *testing.T) {
	a, err := NewNDArray(Float16, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	half := []byte{0x00, 0x3c, 0x00, 0xc0} // 1.0, -2.0
	if err := a.SetBytes(half); err != nil {
		t.Fatal(err)
	}
	got, err := a.Bytes()
	if err != nil || !reflect.DeepEqual(got, half) {
		t.Fatalf("float16 bytes: got %v (%v), want %v", got, err, half)
	}
}

func TestNDArrayBadInputIsAnError(t *testing.T) {
	if _, err := FromSlice([]float32{1, 2, 3}, 2, 2); err == nil || !strings.Contains(err.Error(), "shape [2 2]") {
		t.Fatalf("3 values for 2x2: %v", err)
	}
	if _, err := NewNDArray(Float32, 2, -1); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Fatalf("negative dim: %v", err)
	}
	a, _ := FromSlice([]int32{1, 2}, 2)
	if _, err := ToSlice[float32](a); !IsStatus(err, StatusDType) || !strings.Contains(err.Error(), "int32") {
		t.Fatalf("reading int32 as float32: %v", err)
	}
	if err := a.SetBytes([]byte{1, 2, 3}); err == nil || !strings.Contains(err.Error(), "3 bytes") {
		t.Fatalf("3 bytes into 2 int32: %v", err)
	}
	a.Close()
	a.Close() // twice is fine
	if _, err := a.Bytes(); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("use after Close: %v", err)
	}
}

func TestLibraryErrorCarriesStatusAndMessage(t *testing.T) {
	// An unknown dtype flag is rejected by the library itself, not by Go.
	_, err := NewNDArray(DType(99), 2)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %T %v", err, err)
	}
	if e.Func != "weft_ndarray_create" || e.Message == "" || e.Status == 0 {
		t.Fatalf("error lacks the library's details: %+v", e)
	}
	if !strings.Contains(e.Error(), e.Message) {
		t.Fatalf("Error() %q does not include the message %q", e.Error(), e.Message)
	}
}

func TestParseDType(t *testing.T) {
	for _, d := range []DType{Float32, Float64, Float16, Uint8, Int32, Int8, Int64, Bool, BFloat16} {
		got, err := ParseDType(d.String())
		if err != nil || got != d {
			t.Fatalf("ParseDType(%q) = %v, %v", d.String(), got, err)
		}
	}
	if _, err := ParseDType("complex64"); err == nil || !strings.Contains(err.Error(), "complex64") {
		t.Fatalf("unknown dtype: %v", err)
	}
}

// Arrays dropped without Close are freed by their finalizers: the device's
// bytes in use come back down.
func TestNDArrayFinalizerFreesMemory(t *testing.T) {
	const n, elems = 50, 1 << 16 // 50 arrays of 256 KiB
	before := bytesInUse(t)
	for i := 0; i < n; i++ {
		if _, err := NewNDArray(Float32, elems); err != nil {
			t.Fatal(err)
		}
	}
	if grown := bytesInUse(t) - before; grown < n*elems*4 {
		t.Fatalf("bytes in use grew by %d after %d arrays of %d bytes", grown, n, elems*4)
	}
	for i := 0; i < 10 && bytesInUse(t)-before >= elems*4*n/2; i++ {
		runtime.GC() // finalizers run after a GC cycle, in their own goroutine
		runtime.Gosched()
		if err := WaitAll(); err != nil {
			t.Fatal(err)
		}
	}
	if left := bytesInUse(t) - before; left >= elems*4*n/2 {
		t.Fatalf("finalizers freed too little: %d bytes of %d still in use", left, n*elems*4)
	}
}

func bytesInUse(t *testing.T) int64 {
	t.Helper()
	if err := WaitAll(); err != nil {
		t.Fatal(err)
	}
	s, err := ReadStorageStats(CPU)
	if err != nil {
		t.Fatal(err)
	}
	return s.BytesInUse
}
