// Package npy reads numpy's .npy arrays and .npz archives (a zip of .npy
// files), enough for the tests to compare against recorded outputs: C-order
// little-endian arrays of fixed-size numeric dtypes.
package npy

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Array is a decoded .npy array.
type Array struct {
	Descr string  // numpy dtype string, e.g. "<f4"
	Shape []int64 // dims; empty for a scalar
	Data  []byte  // raw little-endian elements in C order
}

// Float32s gives the elements as float32 (for "<f4" and "<f8" arrays).
func (a *Array) Float32s() ([]float32, error) {
	switch a.Descr {
	case "<f4":
		out := make([]float32, len(a.Data)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(a.Data[4*i:]))
		}
		return out, nil
	case "<f8":
		out := make([]float32, len(a.Data)/8)
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(a.Data[8*i:])))
		}
		return out, nil
	}
	return nil, fmt.Errorf("npy: dtype %s is not a float type", a.Descr)
}

// ReadNPZ reads every array of an .npz archive, keyed by name without ".npy".
func ReadNPZ(data []byte) (map[string]*Array, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("npz: %w", err)
	}
	out := map[string]*Array{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("npz member %s: %w", f.Name, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("npz member %s: %w", f.Name, err)
		}
		a, err := ReadNPY(b)
		if err != nil {
			return nil, fmt.Errorf("npz member %s: %w", f.Name, err)
		}
		out[strings.TrimSuffix(f.Name, ".npy")] = a
	}
	return out, nil
}

// ReadNPY decodes one .npy file (format versions 1 to 3).
func ReadNPY(b []byte) (*Array, error) {
	if len(b) < 10 || string(b[:6]) != "\x93NUMPY" {
		return nil, fmt.Errorf("npy: not a .npy file (bad magic)")
	}
	var headerLen, start int
	switch b[6] {
	case 1:
		headerLen, start = int(binary.LittleEndian.Uint16(b[8:])), 10
	case 2, 3:
		if len(b) < 12 {
			return nil, fmt.Errorf("npy: truncated header")
		}
		headerLen, start = int(binary.LittleEndian.Uint32(b[8:])), 12
	default:
		return nil, fmt.Errorf("npy: unsupported format version %d", b[6])
	}
	if start+headerLen > len(b) {
		return nil, fmt.Errorf("npy: truncated header")
	}
	header := string(b[start : start+headerLen])
	a := &Array{Data: b[start+headerLen:]}
	descr, err := field(header, "descr")
	if err != nil {
		return nil, err
	}
	a.Descr = strings.Trim(descr, "'\" ")
	if a.Descr[0] == '|' { // one-byte types have no byte order
		a.Descr = "<" + a.Descr[1:]
	}
	if order, _ := field(header, "fortran_order"); strings.TrimSpace(order) != "False" {
		return nil, fmt.Errorf("npy: Fortran-order arrays are not supported")
	}
	shape, err := field(header, "shape")
	if err != nil {
		return nil, err
	}
	for _, d := range strings.Split(strings.Trim(strings.TrimSpace(shape), "()"), ",") {
		if d = strings.TrimSpace(d); d == "" {
			continue
		}
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("npy: bad shape %q", shape)
		}
		a.Shape = append(a.Shape, n)
	}
	size, err := strconv.Atoi(a.Descr[2:])
	if err != nil || a.Descr[0] != '<' {
		return nil, fmt.Errorf("npy: unsupported dtype %q", a.Descr)
	}
	n := int64(size)
	for _, d := range a.Shape {
		n *= d
	}
	if int64(len(a.Data)) != n {
		return nil, fmt.Errorf("npy: %d data bytes for shape %v of %s (want %d)", len(a.Data), a.Shape, a.Descr, n)
	}
	return a, nil
}

// field finds the value text of key in the header's Python dict literal.
func field(header, key string) (string, error) {
	i := strings.Index(header, "'"+key+"'")
	if i < 0 {
		return "", fmt.Errorf("npy: header has no %s: %s", key, header)
	}
	rest := header[i+len(key)+2:]
	colon := strings.Index(rest, ":")
	if colon < 0 {
		return "", fmt.Errorf("npy: bad header %s", header)
	}
	rest = strings.TrimSpace(rest[colon+1:])
	if strings.HasPrefix(rest, "(") {
		return rest[:strings.Index(rest, ")")+1], nil
	}
	end := strings.IndexAny(rest, ",}")
	if end < 0 {
		return "", fmt.Errorf("npy: bad header %s", header)
	}
	return rest[:end], nil
}
