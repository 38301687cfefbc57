package main

import (
	"encoding/binary"
	"fmt"
	"math"

	"weft.dev/weft"
)

// tensor is a request's or a reply's array: raw little-endian elements in C
// order. Axis 0 is the batch axis.
type tensor struct {
	shape []int64
	dtype weft.DType
	data  []byte
}

func (t tensor) rows() int64 { return t.shape[0] }

func (t tensor) rowBytes() int64 {
	n := int64(t.dtype.Size())
	for _, d := range t.shape[1:] {
		n *= d
	}
	return n
}

// concatRows joins tensors of the same trailing shape along axis 0.
func concatRows(parts []tensor) tensor {
	out := tensor{shape: append([]int64{0}, parts[0].shape[1:]...), dtype: parts[0].dtype}
	for _, p := range parts {
		out.shape[0] += p.shape[0]
		out.data = append(out.data, p.data...)
	}
	return out
}

// splitRows cuts t along axis 0 into pieces of the given row counts.
func splitRows(t tensor, rows []int64) []tensor {
	out := make([]tensor, len(rows))
	rb := t.rowBytes()
	var at int64
	for i, r := range rows {
		shape := append([]int64{r}, t.shape[1:]...)
		out[i] = tensor{shape: shape, dtype: t.dtype, data: t.data[at*rb : (at+r)*rb]}
		at += r
	}
	return out
}

// putNumber stores v as element i of data in dtype.
func putNumber(data []byte, i int, dtype weft.DType, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%v is not a finite number", v)
	}
	switch dtype {
	case weft.Float32:
		if math.Abs(v) > math.MaxFloat32 {
			return fmt.Errorf("%v is out of range for float32 (largest %g)", v, math.MaxFloat32)
		}
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(v)))
	case weft.Float64:
		binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(v))
	case weft.Int32, weft.Int64, weft.Int8, weft.Uint8, weft.Bool:
		if v != math.Trunc(v) {
			return fmt.Errorf("%v is not an integer (the input is %s)", v, dtype)
		}
		switch dtype {
		case weft.Int32:
			if v < math.MinInt32 || v > math.MaxInt32 {
				return fmt.Errorf("%v is out of range for int32", v)
			}
			binary.LittleEndian.PutUint32(data[4*i:], uint32(int32(v)))
		case weft.Int64:
			// float64(MaxInt64) rounds up to 2^63, itself out of range.
			if v < math.MinInt64 || v >= math.MaxInt64 {
				return fmt.Errorf("%v is out of range for int64", v)
			}
			binary.LittleEndian.PutUint64(data[8*i:], uint64(int64(v)))
		case weft.Int8:
			if v < math.MinInt8 || v > math.MaxInt8 {
				return fmt.Errorf("%v is out of range for int8", v)
			}
			data[i] = byte(int8(v))
		default:
			if v < 0 || v > math.MaxUint8 || (dtype == weft.Bool && v > 1) {
				return fmt.Errorf("%v is out of range for %s", v, dtype)
			}
			data[i] = byte(v)
		}
	default:
		return fmt.Errorf("inputs of dtype %s cannot be given as JSON numbers", dtype)
	}
	return nil
}

// number reads element i of data in dtype; ok is false for dtypes JSON
// cannot carry as numbers (float16, bfloat16).
func number(data []byte, i int, dtype weft.DType) (v float64, bits int, ok bool) {
	switch dtype {
	case weft.Float32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))), 32, true
	case weft.Float64:
		return math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:])), 64, true
	case weft.Int32:
		return float64(int32(binary.LittleEndian.Uint32(data[4*i:]))), 0, true
	case weft.Int64:
		return float64(int64(binary.LittleEndian.Uint64(data[8*i:]))), 0, true
	case weft.Int8:
		return float64(int8(data[i])), 0, true
	case weft.Uint8, weft.Bool:
		return float64(data[i]), 0, true
	}
	return 0, 0, false
}

// byteCount is the size of a tensor of shape and dtype, or an error when a
// dim is negative or the count overflows int64 (a hostile shape header).
func byteCount(shape []int64, dtype weft.DType) (int64, error) {
	n := int64(dtype.Size())
	if n == 0 {
		return 0, fmt.Errorf("unsupported dtype %s", dtype)
	}
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("shape %v has a negative dimension", shape)
		}
		if d != 0 && n > math.MaxInt64/d {
			return 0, fmt.Errorf("shape %v of %s is too large (its byte count overflows)", shape, dtype)
		}
		n *= d
	}
	return n, nil
}

// checkFinite refuses NaN and infinities in floating-point data (raw and
// binary requests; JSON cannot carry them and putNumber refuses out-of-range
// numbers): a model fed them answers NaN, which is the client's error.
func checkFinite(t tensor) error {
	switch t.dtype {
	case weft.Float32:
		for i := 0; i+4 <= len(t.data); i += 4 {
			if bits := binary.LittleEndian.Uint32(t.data[i:]); bits&0x7f800000 == 0x7f800000 {
				return fmt.Errorf("element %d is %v (not finite)", i/4, math.Float32frombits(bits))
			}
		}
	case weft.Float64:
		for i := 0; i+8 <= len(t.data); i += 8 {
			if v := math.Float64frombits(binary.LittleEndian.Uint64(t.data[i:])); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("element %d is %v (not finite)", i/8, v)
			}
		}
	case weft.Float16:
		for i := 0; i+2 <= len(t.data); i += 2 {
			if binary.LittleEndian.Uint16(t.data[i:])&0x7c00 == 0x7c00 {
				return fmt.Errorf("element %d is a float16 NaN or infinity (not finite)", i/2)
			}
		}
	case weft.BFloat16:
		for i := 0; i+2 <= len(t.data); i += 2 {
			if binary.LittleEndian.Uint16(t.data[i:])&0x7f80 == 0x7f80 {
				return fmt.Errorf("element %d is a bfloat16 NaN or infinity (not finite)", i/2)
			}
		}
	}
	return nil
}
