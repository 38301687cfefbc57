package main

import (
	"testing"
	"time"
)

// A lone request does not wait for company (Note [Batch at once]): with a
// batch delay far longer than a prediction, sequential requests still answer
// at once, each as its own forward pass.
func TestBatcherSendsALoneRequestAtOnce(t *testing.T) {
	dir, fx := modelDir(t)
	const delay = 3 * time.Second
	ts, s, _ := startServer(t, config{modelDir: dir, batchMax: 8, batchDelay: delay})
	m := served(t, s, "cnn")
	if m.batcher == nil {
		t.Fatal("batching is off for a batchable model")
	}
	url := ts.URL + "/v1/models/cnn:predict"
	postJSON(t, url, map[string]any{"inputs": map[string]any{"data": images(fx, 0, 1)}}) // binds the shapes
	start := time.Now()
	const requests = 3
	for i := 0; i < requests; i++ {
		code, reply := postJSON(t, url, map[string]any{"inputs": map[string]any{"data": images(fx, 1, 2)}})
		if code != 200 {
			t.Fatalf("predict: %d %v", code, reply)
		}
		assertClose(t, "second image", flatScores(t, reply), fx.output[5:], 1e-4)
	}
	// Even on a loaded machine three small predictions take far less than one
	// delay; waiting for the delay would take three.
	if took := time.Since(start); took >= delay {
		t.Fatalf("%d sequential batched requests took %v: the batcher waited for company (delay %v)", requests,
			took, delay)
	}
	if n := m.batcher.waiting.Load(); n != 0 {
		t.Fatalf("%d jobs still counted as waiting", n)
	}
}
