package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"weft.dev/weft"
)

// Raw requests (Content-Type application/octet-stream): the body is one input
// tensor's elements, C order, little-endian; headers say what it is:
//
//	X-Weft-Shape: 1,1,8,8     (required)
//	X-Weft-Dtype: float32     (default float32; must be the input's dtype)
//	X-Weft-Input: data        (optional; raw requests serve single-input models)
//
// The reply is one output (X-Weft-Output or ?output=NAME picks it; default
// the first) as raw bytes with the same three headers describing it.
const (
	headerShape  = "X-Weft-Shape"
	headerDType  = "X-Weft-Dtype"
	headerInput  = "X-Weft-Input"
	headerOutput = "X-Weft-Output"
)

func decodeRawInput(m *model, h http.Header, body []byte) ([]tensor, error) {
	if len(m.inputs) != 1 {
		return nil, fmt.Errorf("model %s has %d inputs (%s): raw requests serve single-input models; use JSON",
			m.name, len(m.inputs), m.inputNames())
	}
	name := m.inputs[0].name
	if given := h.Get(headerInput); given != "" && given != name {
		return nil, fmt.Errorf("model %s has no input '%s' (its input is '%s')", m.name, given, name)
	}
	shapeText := h.Get(headerShape)
	if shapeText == "" {
		return nil, fmt.Errorf("raw request without %s header (e.g. %s: 1,3,224,224)", headerShape, headerShape)
	}
	shape, err := parseDims(shapeText)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", headerShape, err)
	}
	dtype := weft.Float32
	if text := h.Get(headerDType); text != "" {
		if dtype, err = weft.ParseDType(text); err != nil {
			return nil, fmt.Errorf("%s: %v", headerDType, err)
		}
	}
	if want := m.inputDTypes()[0]; dtype != want {
		return nil, fmt.Errorf("input '%s' is %s, the request says %s", name, want, dtype)
	}
	n, err := byteCount(shape, dtype)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", headerShape, err)
	}
	if int64(len(body)) != n {
		return nil, fmt.Errorf("body has %d bytes; shape %v of %s needs %d", len(body), shape, dtype, n)
	}
	t := []tensor{{shape: shape, dtype: dtype, data: body}}
	if err := checkFinite(t[0]); err != nil {
		return nil, fmt.Errorf("input '%s': %v", name, err)
	}
	return t, m.checkInputs(t)
}

// rawOutputIndex picks the output a raw reply carries among names.
func rawOutputIndex(m *model, names []string, r *http.Request) (int, error) {
	name := r.Header.Get(headerOutput)
	if name == "" {
		name = r.URL.Query().Get("output")
	}
	if name == "" {
		return 0, nil
	}
	for i, o := range names {
		if o == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("model %s has no output '%s' (outputs: %s)", m.name, name, strings.Join(names, ", "))
}

func writeRawOutput(w http.ResponseWriter, name string, t tensor) {
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set(headerShape, intsText(t.shape))
	w.Header().Set(headerDType, t.dtype.String())
	w.Header().Set(headerOutput, name)
	w.Header().Set("Content-Length", strconv.Itoa(len(t.data)))
	w.WriteHeader(http.StatusOK)
	w.Write(t.data)
}

func intsText(v []int64) string {
	parts := make([]string, len(v))
	for i, d := range v {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return strings.Join(parts, ",")
}
