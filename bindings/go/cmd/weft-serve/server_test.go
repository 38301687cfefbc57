package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"weft.dev/weft/internal/fixtures"
	"weft.dev/weft/internal/npy"
)

// fixtureDir finds MXNet 1.9.1's files with no set-up (internal/fixtures).
func fixtureDir(t testing.TB) string { return fixtures.Dir(t) }

type cnnIO struct {
	input, output []float32 // (2, 3, 8, 8) and (2, 5)
}

// modelDir makes a model directory holding MXNet's CNN as epoch 3 (epoch 1 is
// a broken file: loading it would fail, so the highest epoch must win) and a
// shapes file binding batch 1.
func modelDir(t testing.TB) (string, cnnIO) {
	t.Helper()
	src := fixtureDir(t)
	dir := t.TempDir()
	copyFile(t, filepath.Join(src, "cnn-symbol.json"), filepath.Join(dir, "cnn-symbol.json"))
	copyFile(t, filepath.Join(src, "cnn-0000.params"), filepath.Join(dir, "cnn-0003.params"))
	os.WriteFile(filepath.Join(dir, "cnn-0001.params"), []byte("an older, broken checkpoint"), 0o644)
	os.WriteFile(filepath.Join(dir, "cnn-shapes.json"), []byte(`{"data": [1, 3, 8, 8]}`), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a model"), 0o644)
	raw, err := os.ReadFile(filepath.Join(src, "cnn-io.npz"))
	if err != nil {
		t.Fatal(err)
	}
	arrays, err := npy.ReadNPZ(raw)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := arrays["data"].Float32s()
	out, _ := arrays["output"].Float32s()
	return dir, cnnIO{in, out}
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// startServer serves dir through httptest; the request log goes to logBuf.
func startServer(t testing.TB, cfg config) (*httptest.Server, *server, *syncBuffer) {
	t.Helper()
	logBuf := &syncBuffer{}
	if cfg.poolSize == 0 {
		cfg.poolSize = 2
	}
	if cfg.maxBody == 0 {
		cfg.maxBody = 1 << 20
	}
	if cfg.queueMax == 0 {
		cfg.queueMax = 64
	}
	if cfg.shapes == nil {
		cfg.shapes = shapeFlags{}
	}
	cfg.logger = slog.New(slog.NewJSONHandler(logBuf, nil))
	s, err := newServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.handler())
	t.Cleanup(func() { ts.Close(); s.close() })
	return ts, s, logBuf
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// images gives rows [from, to) of the fixture input as a nested JSON list.
func images(fx cnnIO, from, to int) [][][][]float32 {
	var out [][][][]float32
	for n := from; n < to; n++ {
		img := make([][][]float32, 3)
		for c := range img {
			img[c] = make([][]float32, 8)
			for y := range img[c] {
				at := ((n*3+c)*8 + y) * 8
				img[c][y] = fx.input[at : at+8]
			}
		}
		out = append(out, img)
	}
	return out
}

// postJSON sends body as JSON. It may run on other goroutines than the test's,
// so a failure is reported with Errorf and status 0.
func postJSON(t testing.TB, url string, body any) (int, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Errorf("POST %s: %v", url, err)
		return 0, nil
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Errorf("POST %s: reply is not JSON: %v", url, err)
		return 0, nil
	}
	return resp.StatusCode, out
}

func getJSON(t testing.TB, url string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("reply is not JSON: %v", err)
	}
	return resp.StatusCode, out
}

// flatScores reads {"outputs": {"cnn_dense1_fwd_output": [[...]]}} (nil when absent).
func flatScores(t testing.TB, reply map[string]any) []float32 {
	t.Helper()
	outs, _ := reply["outputs"].(map[string]any)
	rows, ok := outs["cnn_dense1_fwd_output"].([]any)
	if !ok { // Errorf: also called on other goroutines than the test's
		t.Errorf("reply has no cnn_dense1_fwd_output: %v", reply)
		return nil
	}
	var flat []float32
	for _, r := range rows {
		for _, v := range r.([]any) {
			flat = append(flat, float32(v.(float64)))
		}
	}
	return flat
}

func assertClose(t testing.TB, what string, got, want []float32, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(float64(got[i] - want[i])); !(d <= tol) {
			t.Fatalf("%s[%d] = %g, want %g", what, i, got[i], want[i])
		}
	}
}

func TestServerListsAndDescribesModels(t *testing.T) {
	dir, _ := modelDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir})
	code, list := getJSON(t, ts.URL+"/v1/models")
	models, _ := list["models"].([]any)
	if code != 200 || len(models) != 1 {
		t.Fatalf("GET /v1/models: %d %v", code, list)
	}
	code, info := getJSON(t, ts.URL+"/v1/models/cnn")
	if code != 200 || info["name"] != "cnn" || info["epoch"] != float64(3) {
		t.Fatalf("GET /v1/models/cnn: %d %v", code, info)
	}
	in := info["inputs"].([]any)[0].(map[string]any)
	out := info["outputs"].([]any)[0].(map[string]any)
	if in["name"] != "data" || fmt.Sprint(in["shape"]) != "[-1 3 8 8]" || in["dtype"] != "float32" ||
		out["name"] != "cnn_dense1_fwd_output" || fmt.Sprint(out["shape"]) != "[-1 5]" ||
		fmt.Sprint(info["versions"]) != "[3 1]" || info["ready"] != true {
		t.Fatalf("model info %v", info)
	}
	if code, h := getJSON(t, ts.URL+"/healthz"); code != 200 || h["status"] != "ok" {
		t.Fatalf("healthz %d %v", code, h)
	}
}

func TestServerJSONPredictMatchesMXNet(t *testing.T) {
	dir, fx := modelDir(t)
	ts, _, logBuf := startServer(t, config{modelDir: dir})
	url := ts.URL + "/v1/models/cnn:predict"
	code, reply := postJSON(t, url, map[string]any{"inputs": map[string]any{"data": images(fx, 0, 2)}})
	if code != 200 {
		t.Fatalf("predict: %d %v", code, reply)
	}
	assertClose(t, "batch of 2", flatScores(t, reply), fx.output, 1e-4)
	// Batch 1 (the bound shape) and the second image alone.
	_, reply = postJSON(t, url, map[string]any{"inputs": map[string]any{"data": images(fx, 1, 2)}})
	assertClose(t, "second image", flatScores(t, reply), fx.output[5:], 1e-4)
	if line := `"method":"POST","path":"/v1/models/cnn:predict","status":200`; !strings.Contains(logBuf.String(), line) {
		t.Fatalf("request log lacks %q:\n%s", line, logBuf)
	}
}

func TestServerRawPredictMatchesMXNet(t *testing.T) {
	dir, fx := modelDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir})
	body := make([]byte, 4*len(fx.input))
	for i, v := range fx.input {
		binary.LittleEndian.PutUint32(body[4*i:], math.Float32bits(v))
	}
	req, _ := http.NewRequest("POST", ts.URL+"/v1/models/cnn:predict", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("X-Weft-Shape", "2,3,8,8")
	req.Header.Set("X-Weft-Dtype", "float32")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("X-Weft-Shape") != "2,5" ||
		resp.Header.Get("X-Weft-Dtype") != "float32" || resp.Header.Get("X-Weft-Output") != "cnn_dense1_fwd_output" {
		t.Fatalf("raw predict: %d %v %s", resp.StatusCode, resp.Header, raw)
	}
	got := make([]float32, len(raw)/4)
	for i := range got {
		got[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	assertClose(t, "raw output", got, fx.output, 1e-4)
}

// With dynamic batching, concurrent single-image requests are answered from
// fewer forward passes and every answer equals the unbatched one.
// Both with a shape hint (root bound at load) and without (root made by the
// first request).
func TestServerDynamicBatchingGivesTheSameAnswers(t *testing.T) {
	for _, hint := range []bool{true, false} {
		t.Run(fmt.Sprintf("hint=%v", hint), func(t *testing.T) { dynamicBatching(t, hint) })
	}
}

func dynamicBatching(t *testing.T, hint bool) {
	dir, fx := modelDir(t)
	if !hint {
		os.Remove(filepath.Join(dir, "cnn-shapes.json"))
	}
	// One predictor slot: the batcher gathers while it is busy (Note [Batch at
	// once]), so concurrent requests must batch however fast the machine is.
	ts, s, _ := startServer(t, config{modelDir: dir, batchMax: 8, batchDelay: 50 * time.Millisecond, poolSize: 1})
	if served(t, s, "cnn").batcher == nil {
		t.Fatal("batching is off for a batchable model")
	}
	const requests = 24
	var wg sync.WaitGroup
	errs := make(chan string, requests)
	for i := 0; i < requests; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			// Requests of 1, 2 and 3 images (image n%2 first, then alternating) and
			// one of 9, more than a batch holds.
			rows := n%3 + 1
			if n == 0 {
				rows = 9
			}
			var batch [][][][]float32
			var want []float32
			for r := 0; r < rows; r++ {
				img := (n + r) % 2
				batch = append(batch, images(fx, img, img+1)...)
				want = append(want, fx.output[5*img:5*img+5]...)
			}
			code, reply := postJSON(t, ts.URL+"/v1/models/cnn:predict",
				map[string]any{"inputs": map[string]any{"data": batch}})
			if code != 200 {
				errs <- fmt.Sprintf("request %d: %d %v", n, code, reply)
				return
			}
			got := flatScores(t, reply)
			if len(got) != len(want) {
				errs <- fmt.Sprintf("request %d: %d scores for %d images", n, len(got), rows)
				return
			}
			for j := range got {
				if d := math.Abs(float64(got[j] - want[j])); !(d <= 1e-4) {
					errs <- fmt.Sprintf("request %d (%d images) got %v, want %v", n, rows, got, want)
					return
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if n := served(t, s, "cnn").forwards.Load(); n >= requests {
		t.Fatalf("%d requests took %d forward passes: nothing was batched", requests, n)
	}
}

func TestServerBadRequestsGet4xxAndTheServerKeepsAnswering(t *testing.T) {
	dir, fx := modelDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir, maxBody: 64 << 10})
	predict := ts.URL + "/v1/models/cnn:predict"
	oneImage := `{"inputs": {"data": ` + mustJSON(images(fx, 0, 1)) + `}}`
	cases := []struct {
		name, method, url, ctype string
		header                   map[string]string
		body                     string
		status                   int
		want                     string // in the error message
	}{
		{"malformed JSON", "POST", predict, "application/json", nil, `{"inputs": {"data": [[1, 2`, 400, "malformed JSON"},
		{"not an object", "POST", predict, "application/json", nil, `[1, 2, 3]`, 400, "malformed JSON"},
		{"no inputs", "POST", predict, "application/json", nil, `{}`, 400, "inputs"},
		{"unknown field", "POST", predict, "application/json", nil, `{"inptus": {}}`, 400, "inptus"},
		{"unknown input", "POST", predict, "application/json", nil, `{"inputs": {"pixels": [[1]]}}`, 400, "pixels"},
		{"wrong shape", "POST", predict, "application/json", nil, `{"inputs": {"data": [[[[1, 2], [3, 4]]]]}}`, 400, "shape"},
		{"ragged list", "POST", predict, "application/json", nil, `{"inputs": {"data": [[1, 2], [3]]}}`, 400, "ragged"},
		{"strings", "POST", predict, "application/json", nil, `{"inputs": {"data": [["a"]]}}`, 400, "number"},
		{"a scalar", "POST", predict, "application/json", nil, `{"inputs": {"data": 5}}`, 400, "nested list"},
		{"empty batch", "POST", predict, "application/json", nil, `{"inputs": {"data": []}}`, 400, "shape"},
		{"unknown model", "POST", ts.URL + "/v1/models/resnet:predict", "application/json", nil, oneImage, 404, "resnet"},
		{"unknown model info", "GET", ts.URL + "/v1/models/resnet", "", nil, "", 404, "resnet"},
		{"unknown action", "POST", ts.URL + "/v1/models/cnn:train", "application/json", nil, oneImage, 404, "train"},
		{"unknown path", "GET", ts.URL + "/v2/everything", "", nil, "", 404, "/v2/everything"},
		{"wrong method", "GET", predict, "", nil, "", 405, "POST"},
		{"wrong content type", "POST", predict, "text/plain", nil, oneImage, 415, "text/plain"},
		{"no content type, not JSON", "POST", predict, "", nil, "data=1", 415, "Content-Type"},
		{"form content type, not JSON", "POST", predict, "application/x-www-form-urlencoded", nil, "data=1", 415,
			"x-www-form-urlencoded"},
		{"oversized body", "POST", predict, "application/json", nil, `{"inputs": {"data": [` +
			strings.Repeat("0,", 40000) + `0]}}`, 413, "limit"},
		{"raw without shape", "POST", predict, "application/octet-stream", nil, "abcd", 400, "X-Weft-Shape"},
		{"raw wrong size", "POST", predict, "application/octet-stream", map[string]string{"X-Weft-Shape": "1,3,8,8"},
			"abcd", 400, "768"},
		{"raw wrong dtype", "POST", predict, "application/octet-stream",
			map[string]string{"X-Weft-Shape": "1,3,8,8", "X-Weft-Dtype": "float64"}, strings.Repeat("x", 1536), 400, "float64"},
		{"raw bad dtype", "POST", predict, "application/octet-stream",
			map[string]string{"X-Weft-Shape": "1,3,8,8", "X-Weft-Dtype": "float128"}, "", 400, "float128"},
		{"raw bad shape", "POST", predict, "application/octet-stream", map[string]string{"X-Weft-Shape": "1,x"}, "", 400, "1,x"},
		{"raw wrong shape", "POST", predict, "application/octet-stream", map[string]string{"X-Weft-Shape": "1,3,4,4"},
			strings.Repeat("x", 192), 400, "shape"},
		{"raw unknown output", "POST", predict + "?output=fc9", "application/octet-stream",
			map[string]string{"X-Weft-Shape": "1,3,8,8"}, strings.Repeat("x", 768), 400, "fc9"},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, c.url, strings.NewReader(c.body))
		if c.ctype != "" {
			req.Header.Set("Content-Type", c.ctype)
		}
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var reply map[string]string
		decodeErr := json.NewDecoder(resp.Body).Decode(&reply)
		resp.Body.Close()
		if resp.StatusCode != c.status || decodeErr != nil || !strings.Contains(reply["error"], c.want) ||
			resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: got %d %v (decode error %v), want %d with an error naming %q", c.name, resp.StatusCode,
				reply, decodeErr, c.status, c.want)
		}
	}
	if code, reply := postJSON(t, predict, map[string]any{"inputs": map[string]any{"data": images(fx, 0, 1)}}); code != 200 {
		t.Fatalf("a good request after the bad ones: %d %v", code, reply)
	}
	if code, _ := getJSON(t, ts.URL+"/healthz"); code != 200 {
		t.Fatalf("healthz after the bad requests: %d", code)
	}
}

// served gives the default version of a model, failing the test when none
// can answer.
func served(t testing.TB, s *server, name string) *model {
	t.Helper()
	m, err := s.reg.acquire(name, "")
	if err != nil {
		t.Fatalf("model %s: %v", name, err)
	}
	m.refs.Done()
	return m
}

// Shapes are optional hints now; what remains refused at start is named.
func TestServerStartErrorsNameTheFix(t *testing.T) {
	dir, _ := modelDir(t)
	os.Remove(filepath.Join(dir, "cnn-shapes.json"))
	s, err := newServer(config{modelDir: dir, poolSize: 1})
	if err != nil {
		t.Fatalf("no shapes anywhere must serve (shapes come from requests): %v", err)
	}
	if m := served(t, s, "cnn"); m.hints != nil || m.root != nil {
		t.Fatalf("no hint, yet a root predictor was made at %v", m.hints)
	}
	s.close()
	flags := shapeFlags{}
	if err := flags.Set("cnn:data=2,3,8,8"); err != nil {
		t.Fatal(err)
	}
	s, err = newServer(config{modelDir: dir, poolSize: 1, shapes: flags})
	if err != nil {
		t.Fatalf("shape from the flag: %v", err)
	}
	if got := served(t, s, "cnn").root.Inputs()[0].Shape; fmt.Sprint(got) != "[2 3 8 8]" {
		t.Fatalf("bound shape %v", got)
	}
	s.close()
	for _, bad := range []string{"cnn", "cnn:data", "cnn:data=1,-3", ":data=1"} {
		if err := (shapeFlags{}).Set(bad); err == nil {
			t.Errorf("-shape %q accepted", bad)
		}
	}
	flags = shapeFlags{}
	flags.Set("resnet:data=1,3,8,8")
	if _, err := newServer(config{modelDir: dir, poolSize: 1, shapes: flags}); err == nil ||
		!strings.Contains(err.Error(), "resnet") {
		t.Fatalf("-shape for a model that is not there: %v", err)
	}
	if _, err := newServer(config{modelDir: filepath.Join(dir, "nope"), poolSize: 1}); err == nil ||
		!strings.Contains(err.Error(), "model directory") {
		t.Fatalf("missing directory: %v", err)
	}
	s, err = newServer(config{modelDir: t.TempDir(), poolSize: 1})
	if err != nil {
		t.Fatalf("an empty directory is watched, not refused: %v", err)
	}
	s.close()
	if got := shapeAttr("(0, 3, 8, 8)"); fmt.Sprint(got) != "[1 3 8 8]" {
		t.Fatalf("shapeAttr: %v", got)
	}
	if got := shapeAttr("(4, 0, 3, 3)"); got != nil {
		t.Fatalf("shapeAttr with an unknown inner dim: %v", got)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
