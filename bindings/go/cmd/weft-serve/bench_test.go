package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
)

// The handlers without the network: one image of MXNet's CNN per request, as
// v1 JSON, v2 JSON and v2 binary data, from 1 and 16 goroutines at once
// (-pool 4). benchmarks/serve.sh measures the same over loopback; these find
// where a handler spends its time:
//
//	go test -run '^$' -bench Handler -cpuprofile cpu.out -mutexprofile mutex.out ./cmd/weft-serve
func BenchmarkHandler(b *testing.B) {
	dir, fx := exportDir(b)
	cfg := config{modelDir: dir, poolSize: 4, queueMax: 64, maxBody: 1 << 20, quiet: true}
	cfg.defaults()
	s, err := newServer(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer s.close()
	h := s.handler()
	image := fx.input[:3*8*8]
	v1, _ := json.Marshal(map[string]any{"inputs": map[string]any{"data": images(fx, 0, 1)}})
	v2, _ := json.Marshal(map[string]any{"inputs": []any{map[string]any{"name": "data", "shape": []int{1, 3, 8, 8},
		"datatype": "FP32", "data": image}}})
	header, _ := json.Marshal(map[string]any{"inputs": []any{map[string]any{"name": "data", "shape": []int{1, 3, 8, 8},
		"datatype": "FP32", "parameters": map[string]any{"binary_data_size": 4 * len(image)}}},
		"parameters": map[string]any{"binary_data_output": true}})
	v2bin := append(append([]byte(nil), header...), f32Bytes(image)...)
	cases := []struct {
		name, path, ctype string
		body              []byte
		extra             map[string]string
	}{
		{"v1json", "/v1/models/cnn:predict", "application/json", v1, nil},
		{"v2json", "/v2/models/cnn/infer", "application/json", v2, nil},
		{"v2bin", "/v2/models/cnn/infer", "application/octet-stream", v2bin,
			map[string]string{headerInferenceLength: strconv.Itoa(len(header))}},
	}
	one := func(b *testing.B, path, ctype string, body []byte, extra map[string]string) {
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		for k, v := range extra {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body.String())
		}
	}
	for _, c := range cases {
		for _, conc := range []int{1, 16} {
			b.Run(c.name+"/c="+strconv.Itoa(conc), func(b *testing.B) {
				one(b, c.path, c.ctype, c.body, c.extra) // the first request of a shape makes its predictor
				b.ResetTimer()
				if conc == 1 {
					for i := 0; i < b.N; i++ {
						one(b, c.path, c.ctype, c.body, c.extra)
					}
					return
				}
				b.SetParallelism(max(1, conc/runtime.GOMAXPROCS(0))) // goroutines = parallelism * GOMAXPROCS
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						one(b, c.path, c.ctype, c.body, c.extra)
					}
				})
			})
		}
	}
}
