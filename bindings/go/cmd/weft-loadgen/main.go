// Command weft-loadgen measures a weft-serve predict endpoint: requests per
// second and latency percentiles at each concurrency level, sending one
// random input of the given shape per request.
//
//	weft-loadgen -url http://127.0.0.1:8080/v1/models/digits:predict -shape 1,1,8,8 \
//	    [-input data] [-format json|raw|v2|v2bin|grpc] [-concurrency 1,4,16] [-duration 5s] [-warmup 1s] [-json]
//
// Formats: json and raw are weft-serve's v1 requests; v2 is the KServe / Open
// Inference Protocol v2 JSON request (POST to .../v2/models/NAME/infer), v2bin
// the same with the tensor and the reply as binary data; grpc the v2 gRPC
// ModelInfer call with raw_input_contents, as tritonclient.grpc sends it
// (-url grpc://HOST:PORT/NAME: weft-serve -grpc-addr's address and the model;
// the clients share one connection, as HTTP/2 streams).
//
// Each level runs -warmup unmeasured, then -duration measured. A request that
// fails or answers non-200 counts as an error; the run exits 1 if any did.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

type result struct {
	Concurrency int     `json:"concurrency"`
	Format      string  `json:"format"`
	Requests    int     `json:"requests"`
	Errors      int     `json:"errors"`
	RPS         float64 `json:"requests_per_s"`
	P50ms       float64 `json:"p50_ms"`
	P99ms       float64 `json:"p99_ms"`
}

func main() {
	url := flag.String("url", "", "predict URL, e.g. http://127.0.0.1:8080/v1/models/digits:predict")
	shapeText := flag.String("shape", "1,1,8,8", "input shape of each request")
	input := flag.String("input", "data", "input name (JSON requests)")
	format := flag.String("format", "json", "request body: json or raw (v1), v2 or v2bin (v2 JSON, v2 binary data), "+
		"grpc (v2 gRPC, -url grpc://HOST:PORT/MODEL)")
	levels := flag.String("concurrency", "1,4,16", "comma-separated numbers of concurrent clients")
	duration := flag.Duration("duration", 5*time.Second, "measured time per level")
	warmup := flag.Duration("warmup", time.Second, "unmeasured time before each level")
	asJSON := flag.Bool("json", false, "print one JSON object per level instead of a table")
	flag.Parse()
	if *url == "" || (*format != "json" && *format != "raw" && *format != "v2" && *format != "v2bin" && *format != "grpc") {
		fmt.Fprintln(os.Stderr, "weft-loadgen: -url is required; -format is json, raw, v2, v2bin or grpc")
		os.Exit(2)
	}
	shape, err := parseInts(*shapeText)
	if err != nil {
		fmt.Fprintln(os.Stderr, "weft-loadgen: -shape:", err)
		os.Exit(2)
	}
	conc, err := parseInts(*levels)
	if err != nil {
		fmt.Fprintln(os.Stderr, "weft-loadgen: -concurrency:", err)
		os.Exit(2)
	}
	maxConc := 0
	for _, c := range conc {
		maxConc = max(maxConc, c)
	}
	var send func() error
	if *format == "grpc" {
		values, _ := randomInput(shape)
		send, err = grpcSender(*url, *input, shape, values)
		if err != nil {
			fmt.Fprintln(os.Stderr, "weft-loadgen:", err)
			os.Exit(2)
		}
	} else {
		body, ctype, headers := requestBody(*format, *input, shape)
		client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			MaxIdleConns: maxConc, MaxIdleConnsPerHost: maxConc, DisableCompression: true}}
		send = func() error { return sendHTTP(client, *url, body, ctype, headers) }
	}
	failed := false
	if !*asJSON {
		fmt.Printf("%-6s %11s %9s %10s %9s %9s %7s\n", "format", "concurrency", "requests", "req/s", "p50 ms", "p99 ms",
			"errors")
	}
	for _, c := range conc {
		run(send, c, *warmup)
		r := run(send, c, *duration)
		r.Format = *format
		failed = failed || r.Errors > 0
		if *asJSON {
			b, _ := json.Marshal(r)
			fmt.Println(string(b))
		} else {
			fmt.Printf("%-6s %11d %9d %10.1f %9.3f %9.3f %7d\n", r.Format, r.Concurrency, r.Requests, r.RPS, r.P50ms,
				r.P99ms, r.Errors)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// run keeps c clients busy for d and summarises their latencies.
func run(send func() error, c int, d time.Duration) result {
	var mu sync.Mutex
	var latencies []time.Duration
	errors := 0
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < c; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			bad := 0
			for time.Now().Before(deadline) {
				t0 := time.Now()
				if err := send(); err != nil {
					bad++
					if bad == 1 {
						fmt.Fprintln(os.Stderr, "weft-loadgen:", err)
					}
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			errors += bad
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	return result{Concurrency: c, Requests: len(latencies), Errors: errors,
		RPS: float64(len(latencies)) / elapsed.Seconds(), P50ms: percentile(latencies, 0.50),
		P99ms: percentile(latencies, 0.99)}
}

func sendHTTP(client *http.Client, url string, body []byte, ctype string, headers map[string]string) error {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", ctype)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(resp.Body) // read fully so the connection is reused
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(reply)))
	}
	return nil
}

// percentile of sorted latencies in milliseconds (nearest rank).
func percentile(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return float64(sorted[max(i, 0)]) / float64(time.Millisecond)
}

// requestBody is one random input (uniform in [0, 1), seeded) in the format.
func requestBody(format, input string, shape []int) ([]byte, string, map[string]string) {
	values, n := randomInput(shape)
	if format == "raw" {
		b := make([]byte, 4*n)
		for i, v := range values {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		dims := make([]string, len(shape))
		for i, d := range shape {
			dims[i] = strconv.Itoa(d)
		}
		return b, "application/octet-stream", map[string]string{"X-Weft-Shape": strings.Join(dims, ","),
			"X-Weft-Dtype": "float32"}
	}
	switch format {
	case "v2":
		b, _ := json.Marshal(map[string]any{"inputs": []any{map[string]any{"name": input, "shape": shape,
			"datatype": "FP32", "data": values}}})
		return b, "application/json", nil
	case "v2bin":
		header, _ := json.Marshal(map[string]any{"inputs": []any{map[string]any{"name": input, "shape": shape,
			"datatype": "FP32", "parameters": map[string]any{"binary_data_size": 4 * n}}},
			"parameters": map[string]any{"binary_data_output": true}})
		b := append([]byte(nil), header...)
		for _, v := range values {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
		return b, "application/octet-stream", map[string]string{
			"Inference-Header-Content-Length": strconv.Itoa(len(header))}
	}
	b, _ := json.Marshal(map[string]any{"inputs": map[string]any{input: nest(values, shape)}})
	return b, "application/json", nil
}

// randomInput is one input of shape, uniform in [0, 1), seeded; n is its size.
func randomInput(shape []int) (values []float32, n int) {
	n = 1
	for _, d := range shape {
		n *= d
	}
	rng := rand.New(rand.NewSource(1))
	values = make([]float32, n)
	for i := range values {
		values[i] = rng.Float32()
	}
	return values, n
}

func nest(values []float32, shape []int) any {
	if len(shape) == 1 {
		return values
	}
	step := len(values) / shape[0]
	out := make([]any, shape[0])
	for i := range out {
		out[i] = nest(values[i*step:(i+1)*step], shape[1:])
	}
	return out
}

func parseInts(text string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(text, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("want positive integers separated by commas, got %q", text)
		}
		out = append(out, v)
	}
	return out, nil
}
