package main

// Fuzz tests of weft-serve's request decoding (issue 22): the raw, JSON and
// KServe v2 decoders get arbitrary bodies and headers. A request either gets
// an error (the server answers 400 with it) or tensors that are exactly what
// the model is then fed: one per input, every dim positive, the byte count of
// the shape, finite floats. `go test` replays the seeds below and every
// failing input `go test -fuzz` ever saved under testdata/fuzz/ (the
// regression corpus); scripts/fuzz_go.sh runs each target for a bounded time.

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft"
)

// fuzzModel is a model as the decoders see it: input names and dtypes, no
// predictor (decoding never reaches one).
func fuzzModel(names []string, dtypes []weft.DType) *model {
	m := &model{name: "fuzz"}
	for _, n := range names {
		m.inputs = append(m.inputs, inputSpec{name: n})
	}
	m.fixed.Store(&fixedInfo{dtypes: dtypes})
	return m
}

func checkDecoded(t *testing.T, m *model, ts []tensor) {
	t.Helper()
	if len(ts) != len(m.inputs) {
		t.Fatalf("decoded %d tensors for %d inputs", len(ts), len(m.inputs))
	}
	for i, tn := range ts {
		if len(tn.shape) == 0 {
			t.Fatalf("input %d accepted as a scalar", i)
		}
		for _, d := range tn.shape {
			if d <= 0 {
				t.Fatalf("input %d accepted with shape %v", i, tn.shape)
			}
		}
		n, err := byteCount(tn.shape, tn.dtype)
		if err != nil || n != int64(len(tn.data)) {
			t.Fatalf("input %d: shape %v of %s, %d bytes (byteCount %d, %v)", i, tn.shape, tn.dtype, len(tn.data), n,
				err)
		}
		if tn.dtype != m.inputDTypes()[i] {
			t.Fatalf("input %d decoded as %s, the model's is %s", i, tn.dtype, m.inputDTypes()[i])
		}
		if err := checkFinite(tn); err != nil {
			t.Fatalf("input %d accepted with a value that is not finite: %v", i, err)
		}
	}
}

func FuzzDecodeRawInput(f *testing.F) {
	f.Add("1,2", "float32", "", []byte{0, 0, 128, 63, 0, 0, 0, 64})
	f.Add("2", "float64", "data", make([]byte, 16))
	f.Add("72057594037927936,3,8,8", "", "", []byte{})
	f.Add("-1,4", "float32", "", make([]byte, 16))
	f.Add("1,1", "float32", "", []byte{0, 0, 128, 127}) // +Inf
	f.Add("1", "int8", "", []byte{1})
	m32 := fuzzModel([]string{"data"}, []weft.DType{weft.Float32})
	m64 := fuzzModel([]string{"data"}, []weft.DType{weft.Float64})
	f.Fuzz(func(t *testing.T, shape, dtype, input string, body []byte) {
		h := http.Header{}
		h.Set(headerShape, shape)
		if dtype != "" {
			h.Set(headerDType, dtype)
		}
		if input != "" {
			h.Set(headerInput, input)
		}
		for _, m := range []*model{m32, m64} {
			ts, err := decodeRawInput(m, h, body)
			if err == nil {
				checkDecoded(t, m, ts)
			}
		}
	})
}

func FuzzDecodeJSONInputs(f *testing.F) {
	f.Add([]byte(`{"inputs": {"data": [[1, 2.5], [3, 4]], "mask": [[1], [0]]}}`))
	f.Add([]byte(`{"inputs": {"data": [[1e39]], "mask": [[1]]}}`))
	f.Add([]byte(`{"inputs": {"data": [], "mask": []}}`))
	f.Add([]byte(`{"inputs": {"data": [[1]], "mask": [[2147483648]]}}`))
	f.Add([]byte(`{"inputs": {"data": [[[[[[[[1]]]]]]]], "mask": [1]}, "x": 1}`))
	m := fuzzModel([]string{"data", "mask"}, []weft.DType{weft.Float32, weft.Int32})
	f.Fuzz(func(t *testing.T, body []byte) {
		ts, err := decodeJSONInputs(m, body)
		if err == nil {
			checkDecoded(t, m, ts)
		}
	})
}

func FuzzDecodeV2Request(f *testing.F) {
	f.Add("", []byte(`{"inputs": [{"name": "data", "shape": [1, 2], "datatype": "FP32", "data": [1, 2]},`+
		`{"name": "mask", "shape": [1], "datatype": "INT32", "data": 7}]}`))
	f.Add("120", []byte(`{"inputs": [{"name": "data", "shape": [1, 2], "datatype": "FP32",`+
		`"parameters": {"binary_data_size": 8}}, {"name": "mask", "shape": [1], "datatype": "INT32", "data": [1]}]}`+
		"\x00\x00\x80\x3f\x00\x00\x80\x7f"))
	f.Add("", []byte(`{"inputs": [{"name": "data", "shape": [4611686018427387904, 4], "datatype": "FP32", "data": [1]}]}`))
	f.Add("-5", []byte(`{}`))
	m := fuzzModel([]string{"data", "mask"}, []weft.DType{weft.Float32, weft.Int32})
	f.Fuzz(func(t *testing.T, length string, body []byte) {
		h := http.Header{}
		if length != "" {
			h.Set(headerInferenceLength, length)
		}
		_, ts, err := decodeV2Request(m, h, body)
		if err == nil {
			checkDecoded(t, m, ts)
		}
	})
}

// FuzzClassify: the classification extension's top-k over any output bytes
// and any class count (the count comes from the request) either errs or gives
// rows x min(k, classes) strings "score:index[:label]" with valid indices,
// best first.
func FuzzClassify(f *testing.F) {
	f.Add(uint8(2), 3, uint8(0), []byte{0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64})
	f.Add(uint8(1), 1<<62, uint8(1), make([]byte, 24))
	f.Add(uint8(0), 0, uint8(3), []byte{1, 2, 3})
	f.Add(uint8(3), -4, uint8(2), []byte{0, 0, 192, 127, 0, 0, 128, 255, 0, 0, 0, 0}) // NaN, -Inf
	labels := []string{"a", "", "c:d"}
	f.Fuzz(func(t *testing.T, rows uint8, k int, dt uint8, data []byte) {
		dtypes := []weft.DType{weft.Float32, weft.Float64, weft.Int32, weft.Uint8, weft.Float16}
		dtype := dtypes[int(dt)%len(dtypes)]
		size := dtype.Size()
		if len(data) > 4096 || size == 0 || len(data)%size != 0 {
			return
		}
		n := len(data) / size
		shape := []int64{int64(n)}
		if rows > 0 && n%int(rows) == 0 {
			shape = []int64{int64(rows), int64(n / int(rows))}
		}
		c, err := classify(tensor{shape: shape, dtype: dtype, data: data}, k, labels)
		if err != nil {
			return
		}
		if k <= 0 {
			t.Fatalf("classify(k=%d) succeeded: %v", k, c.elems)
		}
		if n == 0 { // an empty output has no classes: nothing to rank
			if len(c.elems) != 0 {
				t.Fatalf("%d classes of an empty output", len(c.elems))
			}
			return
		}
		perRow := n
		if len(shape) == 2 {
			perRow = int(shape[1])
		}
		want := min(k, perRow)
		if int64(len(c.elems)) != int64(want)*int64(n/perRow) || c.shape[len(c.shape)-1] != int64(want) {
			t.Fatalf("shape %v, k %d: %d elements, shape %v", shape, k, len(c.elems), c.shape)
		}
		for _, e := range c.elems {
			parts := strings.SplitN(e, ":", 3)
			idx, err := strconv.Atoi(parts[1])
			if len(parts) < 2 || err != nil || idx < 0 || idx >= perRow {
				t.Fatalf("element %q", e)
			}
		}
		if b := c.bytesTensor(); len(b) < 4*len(c.elems) {
			t.Fatalf("BYTES serialization of %d elements is %d bytes", len(c.elems), len(b))
		}
	})
}

// FuzzLenientBody: any Content-Type, Inference-Header-Content-Length and
// body classify without a panic, and a body read as JSON under the lenient
// rule (Note [Lenient Content-Type]) is valid JSON.
func FuzzLenientBody(f *testing.F) {
	f.Add("", "", []byte(`{"inputs": []}`))
	f.Add("application/x-www-form-urlencoded", "", []byte("a=1&b=2"))
	f.Add("application/x-www-form-urlencoded; charset=utf-8", "14", []byte(`{"inputs": []}`+"\x00\x01"))
	f.Add(";;=", "-3", []byte("{"))
	f.Add("", "99999999999999999999", []byte("{}"))
	f.Fuzz(func(t *testing.T, ct, length string, body []byte) {
		h := http.Header{}
		if length != "" {
			h.Set(headerInferenceLength, length)
		}
		kind := bodyKindOf(ct)
		part := v2JSONPart(h, body)
		if len(part) > len(body) {
			t.Fatalf("JSON part of %d bytes from a body of %d", len(part), len(body))
		}
		if kind == bodyLenient && lenientJSON(ct, part) == nil && !json.Valid(part) {
			t.Fatalf("accepted %q as JSON", part)
		}
	})
}
