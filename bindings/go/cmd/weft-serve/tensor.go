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
	switch dtype {
	case weft.Float32:
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
