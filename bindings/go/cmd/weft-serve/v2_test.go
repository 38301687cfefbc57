package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft"
)

// exportDir is a folder holding MXNet 1.9.1's export exactly as written:
// cnn-symbol.json and cnn-0000.params, no shape file.
func exportDir(t testing.TB) (string, cnnIO) {
	t.Helper()
	src := fixtureDir(t)
	dir := t.TempDir()
	copyFile(t, filepath.Join(src, "cnn-symbol.json"), filepath.Join(dir, "cnn-symbol.json"))
	copyFile(t, filepath.Join(src, "cnn-0000.params"), filepath.Join(dir, "cnn-0000.params"))
	_, fx := modelDir(t)
	return dir, fx
}

func f32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func bytesF32(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// do sends a request and gives the status, headers and body.
func do(t testing.TB, method, url string, header map[string]string, body []byte) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", method, url, err)
		return 0, nil, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

type v2Reply struct {
	ModelName    string `json:"model_name"`
	ModelVersion string `json:"model_version"`
	ID           string `json:"id"`
	Error        string `json:"error"`
	Outputs      []struct {
		Name       string    `json:"name"`
		Datatype   string    `json:"datatype"`
		Shape      []int64   `json:"shape"`
		Data       []float64 `json:"data"`
		Parameters struct {
			BinaryDataSize int `json:"binary_data_size"`
		} `json:"parameters"`
	} `json:"outputs"`
}

func inferV2(t testing.TB, url string, req any, header map[string]string) (int, v2Reply) {
	t.Helper()
	b, _ := json.Marshal(req)
	h := map[string]string{"Content-Type": "application/json"}
	for k, v := range header {
		h[k] = v
	}
	code, _, body := do(t, "POST", url, h, b)
	var reply v2Reply
	if err := json.Unmarshal(body, &reply); err != nil {
		t.Errorf("reply is not JSON: %v: %s", err, body)
	}
	return code, reply
}

func f64s(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func assertClose64(t testing.TB, what string, got []float64, want []float32, tol float64) {
	t.Helper()
	g := make([]float32, len(got))
	for i, v := range got {
		g[i] = float32(v)
	}
	assertClose(t, what, g, want, tol)
}

// The MXNet 1.9.1 export, dropped in a folder with no shape file and served
// with no flags, answers v2 JSON (flat and nested data) and binary requests of
// any batch size with the predict API's output (and MXNet's recorded one).
func TestV2ServesAPlainMXNetExportLikeThePredictAPI(t *testing.T) {
	dir, fx := exportDir(t)
	want := predictAPI(t, dir, fx.input, 2)
	assertClose(t, "predict API vs MXNet", want, fx.output, 1e-4)
	ts, _, _ := startServer(t, config{modelDir: dir})
	url := ts.URL + "/v2/models/cnn/infer"

	code, reply := inferV2(t, url, map[string]any{"id": "req-7", "inputs": []any{map[string]any{
		"name": "data", "shape": []int{2, 3, 8, 8}, "datatype": "FP32", "data": f64s(fx.input)}}}, nil)
	if code != 200 || reply.ModelName != "cnn" || reply.ModelVersion != "0" || reply.ID != "req-7" ||
		len(reply.Outputs) != 1 || reply.Outputs[0].Name != "cnn_dense1_fwd_output" ||
		reply.Outputs[0].Datatype != "FP32" || fmt.Sprint(reply.Outputs[0].Shape) != "[2 5]" {
		t.Fatalf("v2 infer: %d %+v", code, reply)
	}
	assertClose64(t, "v2 flat JSON", reply.Outputs[0].Data, want, 1e-6)

	// Nested data, batch 1 (a new shape for the server).
	code, reply = inferV2(t, ts.URL+"/v2/models/cnn/versions/0/infer", map[string]any{"inputs": []any{
		map[string]any{"name": "data", "shape": []int{1, 3, 8, 8}, "datatype": "FP32", "data": images(fx, 1, 2)}}}, nil)
	if code != 200 {
		t.Fatalf("v2 nested: %d %+v", code, reply)
	}
	assertClose64(t, "v2 nested JSON, second image", reply.Outputs[0].Data, want[5:], 1e-6)

	// Binary data extension: the input after the JSON header, the output asked as binary.
	header, _ := json.Marshal(map[string]any{
		"inputs": []any{map[string]any{"name": "data", "shape": []int{2, 3, 8, 8}, "datatype": "FP32",
			"parameters": map[string]any{"binary_data_size": 4 * len(fx.input)}}},
		"outputs": []any{map[string]any{"name": "cnn_dense1_fwd_output", "parameters": map[string]any{"binary_data": true}}},
	})
	code, h, body := do(t, "POST", url, map[string]string{"Content-Type": "application/octet-stream",
		headerInferenceLength: strconv.Itoa(len(header))}, append(header, f32Bytes(fx.input)...))
	n, err := strconv.Atoi(h.Get(headerInferenceLength))
	if code != 200 || err != nil || n > len(body) {
		t.Fatalf("v2 binary: %d %v %s", code, h, body)
	}
	var meta v2Reply
	if err := json.Unmarshal(body[:n], &meta); err != nil || meta.Outputs[0].Parameters.BinaryDataSize != 40 ||
		len(body)-n != 40 || meta.Outputs[0].Data != nil {
		t.Fatalf("v2 binary reply header %s (%v), %d bytes after it", body[:n], err, len(body)-n)
	}
	assertClose(t, "v2 binary", bytesF32(body[n:]), want, 1e-6)

	// Metadata and readiness.
	code, md := getJSON(t, ts.URL+"/v2/models/cnn")
	ins, _ := md["inputs"].([]any)
	if code != 200 || md["name"] != "cnn" || fmt.Sprint(md["versions"]) != "[0]" || len(ins) != 1 ||
		fmt.Sprint(ins[0]) != "map[datatype:FP32 name:data shape:[-1 3 8 8]]" {
		t.Fatalf("v2 metadata: %d %v", code, md)
	}
	for _, path := range []string{"/v2/health/live", "/v2/health/ready", "/v2/models/cnn/ready",
		"/v2/models/cnn/versions/0/ready", "/v2"} {
		if code, reply := getJSON(t, ts.URL+path); code != 200 {
			t.Errorf("GET %s: %d %v", path, code, reply)
		}
	}
	if code, reply := getJSON(t, ts.URL+"/v2/models/cnn/versions/9/ready"); code != 404 ||
		!strings.Contains(fmt.Sprint(reply["error"]), "version '9'") {
		t.Errorf("unknown version: %d %v", code, reply)
	}
}

// predictAPI runs the fixture through weft.LoadPredictor (the predict API).
func predictAPI(t testing.TB, dir string, input []float32, batch int64) []float32 {
	t.Helper()
	p, err := weft.LoadPredictor(filepath.Join(dir, "cnn-symbol.json"), filepath.Join(dir, "cnn-0000.params"),
		[]weft.Input{{Name: "data", Shape: []int64{batch, 3, 8, 8}}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.SetInput("data", input); err != nil {
		t.Fatal(err)
	}
	if err := p.Forward(); err != nil {
		t.Fatal(err)
	}
	out, err := p.Output(0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A checkpoint saved with its SoftmaxOutput (as R's and Module's training
// write it) is served asking only for data: softmax_label is bound inside.
// Its outputs are softmax(x W^T + b), computed here.
func TestLabelInputsAreNotAskedOfTheClient(t *testing.T) {
	dir := t.TempDir()
	sym := `{"nodes": [
	  {"op": "null", "name": "data", "inputs": []},
	  {"op": "null", "name": "fc_weight", "inputs": []},
	  {"op": "null", "name": "fc_bias", "inputs": []},
	  {"op": "FullyConnected", "name": "fc", "attrs": {"num_hidden": "3"}, "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]},
	  {"op": "null", "name": "softmax_label", "inputs": []},
	  {"op": "SoftmaxOutput", "name": "softmax", "inputs": [[3, 0, 0], [4, 0, 0]]}],
	 "arg_nodes": [0, 1, 2, 4], "heads": [[5, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]}}`
	os.WriteFile(filepath.Join(dir, "iris-symbol.json"), []byte(sym), 0o644)
	w := []float32{0.5, -1, 0.25, 2, 1, 0, -0.5, 0.75, -2, 0.5, 1.5, -1} // (3, 4)
	b := []float32{0.1, -0.2, 0.3}
	wa, _ := weft.FromSlice(w, 3, 4)
	ba, _ := weft.FromSlice(b, 3)
	if err := weft.SaveParams(filepath.Join(dir, "iris-0010.params"), []*weft.NDArray{wa, ba},
		[]string{"arg:fc_weight", "arg:fc_bias"}); err != nil {
		t.Fatal(err)
	}
	if labels, err := weft.LabelInputNames(sym); err != nil || fmt.Sprint(labels) != "[softmax_label]" {
		t.Fatalf("LabelInputNames: %v %v", labels, err)
	}
	ts, _, _ := startServer(t, config{modelDir: dir})
	code, md := getJSON(t, ts.URL+"/v2/models/iris")
	if ins, _ := md["inputs"].([]any); code != 200 || len(ins) != 1 || ins[0].(map[string]any)["name"] != "data" {
		t.Fatalf("metadata asks for more than data: %d %v", code, md)
	}
	x := []float32{5.1, 3.5, 1.4, 0.2, 6.7, 3.0, 5.2, 2.3}
	want := make([]float32, 6)
	for r := 0; r < 2; r++ {
		var z [3]float64
		var sum float64
		for j := 0; j < 3; j++ {
			z[j] = float64(b[j])
			for k := 0; k < 4; k++ {
				z[j] += float64(x[4*r+k]) * float64(w[4*j+k])
			}
		}
		top := math.Max(z[0], math.Max(z[1], z[2]))
		for j := range z {
			z[j] = math.Exp(z[j] - top)
			sum += z[j]
		}
		for j := range z {
			want[3*r+j] = float32(z[j] / sum)
		}
	}
	code, reply := inferV2(t, ts.URL+"/v2/models/iris/infer", map[string]any{"inputs": []any{map[string]any{
		"name": "data", "shape": []int{2, 4}, "datatype": "FP32", "data": f64s(x)}}}, nil)
	if code != 200 || reply.ModelVersion != "10" {
		t.Fatalf("infer with data only: %d %+v", code, reply)
	}
	assertClose64(t, "softmax", reply.Outputs[0].Data, want, 1e-6)
	// The v1 raw path serves it too: one input.
	code, _, raw := do(t, "POST", ts.URL+"/v1/models/iris:predict", map[string]string{
		"Content-Type": "application/octet-stream", "X-Weft-Shape": "2,4"}, f32Bytes(x))
	if code != 200 {
		t.Fatalf("v1 raw: %d %s", code, raw)
	}
	assertClose(t, "v1 raw softmax", bytesF32(raw), want, 1e-6)
	// Naming the label is an error that lists the real inputs.
	code, reply = inferV2(t, ts.URL+"/v2/models/iris/infer", map[string]any{"inputs": []any{
		map[string]any{"name": "data", "shape": []int{1, 4}, "datatype": "FP32", "data": f64s(x[:4])},
		map[string]any{"name": "softmax_label", "shape": []int{1}, "datatype": "FP32", "data": []int{0}}}}, nil)
	if code != 400 || !strings.Contains(reply.Error, "softmax_label") || !strings.Contains(reply.Error, "data") {
		t.Fatalf("label given: %d %+v", code, reply)
	}
}

// A fully convolutional graph takes any spatial size: each shape gets its own
// cached predictor, and the cache stays within -max-shapes.
func TestSpatialSizesVaryPerRequestAndTheCacheIsBounded(t *testing.T) {
	src := fixtureDir(t)
	dir := t.TempDir()
	sym := `{"nodes": [
	  {"op": "null", "name": "data", "inputs": []},
	  {"op": "null", "name": "cnn_conv0_weight", "inputs": []},
	  {"op": "null", "name": "cnn_conv0_bias", "inputs": []},
	  {"op": "Convolution", "name": "conv", "attrs": {"kernel": "(3, 3)", "pad": "(1, 1)", "num_filter": "4"},
	   "inputs": [[0, 0, 0], [1, 0, 0], [2, 0, 0]]},
	  {"op": "Pooling", "name": "gap", "attrs": {"global_pool": "True", "pool_type": "avg", "kernel": "(1, 1)"},
	   "inputs": [[3, 0, 0]]}],
	 "arg_nodes": [0, 1, 2], "heads": [[4, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]}}`
	os.WriteFile(filepath.Join(dir, "fcn-symbol.json"), []byte(sym), 0o644)
	all, err := weft.LoadParams(filepath.Join(src, "cnn-0000.params"))
	if err != nil {
		t.Fatal(err)
	}
	defer all.Close()
	if err := weft.SaveParams(filepath.Join(dir, "fcn-0001.params"), []*weft.NDArray{
		all.Lookup("arg:cnn_conv0_weight"), all.Lookup("arg:cnn_conv0_bias")},
		[]string{"arg:cnn_conv0_weight", "arg:cnn_conv0_bias"}); err != nil {
		t.Fatal(err)
	}
	ts, s, _ := startServer(t, config{modelDir: dir, maxShapes: 2})
	for i, hw := range [][2]int{{8, 8}, {5, 11}, {16, 4}, {8, 8}} {
		n := 2 * 3 * hw[0] * hw[1]
		x := make([]float32, n)
		for k := range x {
			x[k] = float32(math.Sin(float64(k + i)))
		}
		shape := []int64{2, 3, int64(hw[0]), int64(hw[1])}
		code, reply := inferV2(t, ts.URL+"/v2/models/fcn/infer", map[string]any{"inputs": []any{map[string]any{
			"name": "data", "shape": shape, "datatype": "FP32", "data": f64s(x)}}}, nil)
		if code != 200 || fmt.Sprint(reply.Outputs[0].Shape) != "[2 4 1 1]" {
			t.Fatalf("%v: %d %+v", hw, code, reply)
		}
		p, err := weft.LoadPredictor(filepath.Join(dir, "fcn-symbol.json"), filepath.Join(dir, "fcn-0001.params"),
			[]weft.Input{{Name: "data", Shape: shape}})
		if err != nil {
			t.Fatal(err)
		}
		p.SetInput("data", x)
		p.Forward()
		want, _ := p.Output(0)
		p.Close()
		assertClose64(t, fmt.Sprintf("%v", hw), reply.Outputs[0].Data, want, 1e-6)
		if shapes, _, _ := served(t, s, "fcn").cache.stats(); shapes > 2 {
			t.Fatalf("%d shapes cached, the bound is 2", shapes)
		}
	}
}

// What the v2 decoder refuses, with a message naming the problem.
func TestV2BadRequests(t *testing.T) {
	dir, fx := exportDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir})
	url := ts.URL + "/v2/models/cnn/infer"
	one := f64s(fx.input[:192])
	in := func(fields map[string]any) map[string]any {
		m := map[string]any{"name": "data", "shape": []int{1, 3, 8, 8}, "datatype": "FP32", "data": one}
		for k, v := range fields {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		return map[string]any{"inputs": []any{m}}
	}
	cases := []struct {
		name string
		req  any
		code int
		want string
	}{
		{"wrong datatype", in(map[string]any{"datatype": "FP64"}), 400, "FP64"},
		{"unknown datatype", in(map[string]any{"datatype": "STRING"}), 400, "STRING"},
		{"count mismatch", in(map[string]any{"shape": []int{2, 3, 8, 8}}), 400, "values"},
		{"no shape", in(map[string]any{"shape": nil}), 400, "shape"},
		{"no data", in(map[string]any{"data": nil}), 400, "data"},
		{"unknown input", in(map[string]any{"name": "pixels"}), 400, "pixels"},
		{"no inputs", map[string]any{"inputs": []any{}}, 400, "missing"},
		{"a shape the graph cannot take", in(map[string]any{"shape": []int{2, 3, 4, 8}}), 400, "shape"},
		{"overflowing shape", in(map[string]any{"shape": []int64{1 << 40, 1 << 40, 3, 8}}), 400, "overflow"},
		{"negative dim", in(map[string]any{"shape": []int{-1, 3, 8, 8}}), 400, "negative"},
		{"beyond float32", in(map[string]any{"data": append([]float64{1e39}, one[1:]...)}), 400, "out of range"},
		{"unknown output", map[string]any{"inputs": in(nil)["inputs"], "outputs": []any{map[string]any{"name": "fc9"}}},
			400, "fc9"},
	}
	for _, c := range cases {
		code, reply := inferV2(t, url, c.req, nil)
		if code != c.code || !strings.Contains(reply.Error, c.want) {
			t.Errorf("%s: %d %q, want %d naming %q", c.name, code, reply.Error, c.code, c.want)
		}
	}
	// Binary data: NaN, a short body, a wrong header length.
	header, _ := json.Marshal(map[string]any{"inputs": []any{map[string]any{"name": "data", "shape": []int{1, 3, 8, 8},
		"datatype": "FP32", "parameters": map[string]any{"binary_data_size": 768}}}})
	nan := append([]float32{float32(math.NaN())}, fx.input[1:192]...)
	inf := append([]float32{float32(math.Inf(-1))}, fx.input[1:192]...)
	for _, c := range []struct {
		name, length string
		body         []byte
		want         string
	}{
		{"NaN", strconv.Itoa(len(header)), append(header, f32Bytes(nan)...), "not finite"},
		{"-Inf", strconv.Itoa(len(header)), append(header, f32Bytes(inf)...), "not finite"},
		{"short", strconv.Itoa(len(header)), append(header, f32Bytes(fx.input[:10])...), "bytes of binary data left"},
		{"bad length", "99999", append(header, f32Bytes(fx.input[:192])...), headerInferenceLength},
		{"extra bytes", strconv.Itoa(len(header)), append(append(header, f32Bytes(fx.input[:192])...), 1, 2), "after"},
	} {
		code, _, body := do(t, "POST", url, map[string]string{"Content-Type": "application/octet-stream",
			headerInferenceLength: c.length}, c.body)
		if code != 400 || !strings.Contains(string(body), c.want) {
			t.Errorf("binary %s: %d %s, want 400 naming %q", c.name, code, body, c.want)
		}
	}
	for _, c := range []struct{ path string }{{"/v2/models/resnet/infer"}, {"/v2/models/cnn/explain"},
		{"/v2/models/cnn/versions/4/infer"}, {"/v2/repository"}} {
		if code, _, _ := do(t, "POST", ts.URL+c.path, map[string]string{"Content-Type": "application/json"},
			[]byte(`{"inputs": []}`)); code != 404 {
			t.Errorf("POST %s: %d, want 404", c.path, code)
		}
	}
}

// v1 requests get the same checks: out-of-range JSON numbers, NaN in raw
// bodies and raw shapes whose byte count overflows are 400s.
func TestV1RefusesNonFiniteAndOverflowingInput(t *testing.T) {
	dir, fx := exportDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir})
	url := ts.URL + "/v1/models/cnn:predict"
	img := images(fx, 0, 1)
	img[0][0][0][0] = 0 // placeholder, replaced in the text below
	text := strings.Replace(mustJSON(map[string]any{"inputs": map[string]any{"data": img}}), "0,", "1e39,", 1)
	code, _, body := do(t, "POST", url, map[string]string{"Content-Type": "application/json"}, []byte(text))
	if code != 400 || !strings.Contains(string(body), "out of range for float32") {
		t.Fatalf("1e39: %d %s", code, body)
	}
	nan := append([]float32{float32(math.NaN())}, fx.input[1:192]...)
	code, _, body = do(t, "POST", url, map[string]string{"Content-Type": "application/octet-stream",
		"X-Weft-Shape": "1,3,8,8"}, f32Bytes(nan))
	if code != 400 || !strings.Contains(string(body), "not finite") {
		t.Fatalf("raw NaN: %d %s", code, body)
	}
	code, _, body = do(t, "POST", url, map[string]string{"Content-Type": "application/octet-stream",
		"X-Weft-Shape": "4611686018427387904,4,3,8"}, []byte("abcd"))
	if code != 400 || !strings.Contains(string(body), "overflows") {
		t.Fatalf("overflowing raw shape: %d %s", code, body)
	}
}

// Concurrent first requests of several shapes (no root predictor yet) race
// to make it; every answer is the predict API's. Run under -race by test_go.sh.
func TestConcurrentFirstRequestsOfManyShapes(t *testing.T) {
	dir, fx := exportDir(t)
	want := predictAPI(t, dir, fx.input, 2)
	ts, _, _ := startServer(t, config{modelDir: dir, poolSize: 3, maxShapes: 2})
	done := make(chan string, 12)
	for g := 0; g < 12; g++ {
		go func(g int) {
			rows := g%3 + 1
			var x []float32
			var w []float32
			for r := 0; r < rows; r++ {
				img := (g + r) % 2
				x = append(x, fx.input[192*img:192*img+192]...)
				w = append(w, want[5*img:5*img+5]...)
			}
			code, reply := inferV2(t, ts.URL+"/v2/models/cnn/infer", map[string]any{"inputs": []any{map[string]any{
				"name": "data", "shape": []int{rows, 3, 8, 8}, "datatype": "FP32", "data": f64s(x)}}}, nil)
			if code != 200 || len(reply.Outputs) != 1 || len(reply.Outputs[0].Data) != len(w) {
				done <- fmt.Sprintf("request %d: %d %+v", g, code, reply)
				return
			}
			for i := range w {
				if math.Abs(reply.Outputs[0].Data[i]-float64(w[i])) > 1e-6 {
					done <- fmt.Sprintf("request %d: %v, want %v", g, reply.Outputs[0].Data, w)
					return
				}
			}
			done <- ""
		}(g)
	}
	for g := 0; g < 12; g++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
