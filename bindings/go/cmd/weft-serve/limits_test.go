package main

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

// holdSlots takes every prediction slot of m, as long-running requests would;
// the returned function gives them back.
func holdSlots(m *model) func() {
	for i := 0; i < m.poolSize; i++ {
		m.slots <- struct{}{}
	}
	return func() {
		for i := 0; i < m.poolSize; i++ {
			<-m.slots
		}
	}
}

func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// With the predictor busy, -queue requests wait; the next gets 429 with
// Retry-After, and the waiting ones are answered once the predictor frees.
func TestFullQueueGets429WithRetryAfter(t *testing.T) {
	dir, fx := exportDir(t)
	ts, s, _ := startServer(t, config{modelDir: dir, poolSize: 1, queueMax: 2})
	m := served(t, s, "cnn")
	release := holdSlots(m)
	body := mustJSON(map[string]any{"inputs": map[string]any{"data": images(fx, 0, 1)}})
	var wg sync.WaitGroup
	codes := make(chan int, 3)
	for i := 0; i < 3; i++ { // poolSize + queueMax = 3 admitted
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _, _ := do(t, "POST", ts.URL+"/v1/models/cnn:predict",
				map[string]string{"Content-Type": "application/json"}, []byte(body))
			codes <- code
		}()
	}
	waitFor(t, "3 admitted requests", func() bool { return m.admitted.Load() == 3 })
	code, h, reply := do(t, "POST", ts.URL+"/v1/models/cnn:predict",
		map[string]string{"Content-Type": "application/json"}, []byte(body))
	if code != 429 || h.Get("Retry-After") != "1" || !strings.Contains(string(reply), "busy") {
		t.Fatalf("the fourth request: %d %v %s", code, h, reply)
	}
	code, h, _ = do(t, "POST", ts.URL+"/v2/models/cnn/infer", map[string]string{"Content-Type": "application/json"},
		[]byte(mustJSON(map[string]any{"inputs": []any{map[string]any{"name": "data", "shape": []int{1, 3, 8, 8},
			"datatype": "FP32", "data": f64s(fx.input[:192])}}})))
	if code != 429 || h.Get("Retry-After") == "" {
		t.Fatalf("v2 on a full queue: %d %v", code, h)
	}
	if depth := m.queueDepth(); depth != 3 {
		t.Fatalf("queue depth %d, want 3", depth)
	}
	release()
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != 200 {
			t.Fatalf("a queued request got %d", c)
		}
	}
	// A request leaves the queue just after its answer is handed over.
	waitFor(t, "no request admitted", func() bool { return m.admitted.Load() == 0 })
}

// A request's deadline (X-Request-Timeout, v2 "timeout" in microseconds, or
// the server's -timeout) ends it with 504 while it waits; the server still
// answers the next request.
func TestRequestDeadlines(t *testing.T) {
	dir, fx := exportDir(t)
	// The server default is long: a request ending well before it ended at its own deadline.
	ts, s, _ := startServer(t, config{modelDir: dir, poolSize: 1, timeout: 20 * time.Second})
	m := served(t, s, "cnn")
	v1 := mustJSON(map[string]any{"inputs": map[string]any{"data": images(fx, 0, 1)}})
	v2 := func(params map[string]any) []byte {
		return []byte(mustJSON(map[string]any{"parameters": params, "inputs": []any{map[string]any{"name": "data",
			"shape": []int{1, 3, 8, 8}, "datatype": "FP32", "data": f64s(fx.input[:192])}}}))
	}
	release := holdSlots(m)
	for _, c := range []struct {
		name, url string
		header    map[string]string
		body      []byte
		atLeast   time.Duration
		serverDef time.Duration // sets the server's default first when not 0
	}{
		{"header", ts.URL + "/v1/models/cnn:predict", map[string]string{headerTimeout: "50ms"}, []byte(v1),
			50 * time.Millisecond, 0},
		{"header in ms", ts.URL + "/v2/models/cnn/infer", map[string]string{headerTimeout: "40"}, v2(nil),
			40 * time.Millisecond, 0},
		{"v2 parameter", ts.URL + "/v2/models/cnn/infer", nil, v2(map[string]any{"timeout": 60000}),
			60 * time.Millisecond, 0},
		{"server default", ts.URL + "/v1/models/cnn:predict", nil, []byte(v1), 100 * time.Millisecond,
			100 * time.Millisecond},
	} {
		if c.serverDef > 0 {
			s.cfg.timeout = c.serverDef // no request is in flight
		}
		h := map[string]string{"Content-Type": "application/json"}
		for k, v := range c.header {
			h[k] = v
		}
		start := time.Now()
		code, _, body := do(t, "POST", c.url, h, c.body)
		took := time.Since(start)
		if code != 504 || !strings.Contains(string(body), "deadline") || took < c.atLeast || took > 10*time.Second {
			t.Errorf("%s: %d after %s: %s", c.name, code, took, body)
		}
	}
	release()
	s.cfg.timeout = 20 * time.Second
	code, _, body := do(t, "POST", ts.URL+"/v1/models/cnn:predict", map[string]string{
		"Content-Type": "application/json", headerTimeout: "bogus"}, []byte(v1))
	if code != 400 || !strings.Contains(string(body), headerTimeout) {
		t.Fatalf("bad timeout header: %d %s", code, body)
	}
	code, _, body = do(t, "POST", ts.URL+"/v1/models/cnn:predict", map[string]string{
		"Content-Type": "application/json", headerTimeout: "10s"}, []byte(v1))
	if code != 200 {
		t.Fatalf("after the deadlines: %d %s", code, body)
	}
}

// Request ids: the client's X-Request-Id is echoed (header and log), one is
// made when absent, and v2's "id" comes back in the body.
func TestRequestIDsInRepliesAndLogs(t *testing.T) {
	dir, fx := exportDir(t)
	ts, _, logBuf := startServer(t, config{modelDir: dir})
	_, h, _ := do(t, "POST", ts.URL+"/v1/models/cnn:predict", map[string]string{"Content-Type": "application/json",
		headerRequestID: "client-42"}, []byte(mustJSON(map[string]any{"inputs": map[string]any{"data": images(fx, 0, 1)}})))
	if h.Get(headerRequestID) != "client-42" {
		t.Fatalf("X-Request-Id not echoed: %v", h)
	}
	_, h, _ = do(t, "GET", ts.URL+"/v2/health/live", nil, nil)
	made := h.Get(headerRequestID)
	if len(made) != 24 {
		t.Fatalf("generated id %q", made)
	}
	found := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(logBuf.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		if rec["msg"] == "request" {
			found[rec["request_id"].(string)] = true
			if rec["request_id"] == "client-42" && (rec["model"] != "cnn" || rec["status"] != float64(200)) {
				t.Fatalf("log record %v", rec)
			}
		}
	}
	if !found["client-42"] || !found[made] {
		t.Fatalf("ids in the log: %v", found)
	}
}
