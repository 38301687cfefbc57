package main

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A second model whose input shape comes from the symbol's __shape__
// attribute is listed and served beside the first.
func TestServerShapeFromSymbolAttribute(t *testing.T) {
	dir, fx := modelDir(t)
	text, err := os.ReadFile(filepath.Join(dir, "cnn-symbol.json"))
	if err != nil {
		t.Fatal(err)
	}
	var graph map[string]any
	if err := json.Unmarshal(text, &graph); err != nil {
		t.Fatal(err)
	}
	data := graph["nodes"].([]any)[0].(map[string]any)
	data["attrs"] = map[string]any{"__shape__": "(0, 3, 8, 8)"}
	shaped, _ := json.Marshal(graph)
	os.WriteFile(filepath.Join(dir, "shaped-symbol.json"), shaped, 0o644)
	copyFile(t, filepath.Join(dir, "cnn-0003.params"), filepath.Join(dir, "shaped-0000.params"))
	ts, _, _ := startServer(t, config{modelDir: dir, poolSize: 3})
	_, list := getJSON(t, ts.URL+"/v1/models")
	if models := list["models"].([]any); len(models) != 2 || models[1].(map[string]any)["name"] != "shaped" ||
		models[1].(map[string]any)["pool_size"] != float64(3) {
		t.Fatalf("models %v", list)
	}
	code, reply := postJSON(t, ts.URL+"/v1/models/shaped:predict",
		map[string]any{"inputs": map[string]any{"data": images(fx, 0, 2)}})
	if code != 200 {
		t.Fatalf("predict: %d %v", code, reply)
	}
	assertClose(t, "shaped model", flatScores(t, reply), fx.output, 1e-4)
}

// SIGTERM stops the real serve loop gracefully: a request waiting in the
// batcher when the signal comes is still answered, then serve returns nil.
func TestServeStopsGracefullyOnSIGTERM(t *testing.T) {
	dir, fx := modelDir(t)
	logBuf := &syncBuffer{}
	cfg := config{modelDir: dir, poolSize: 1, queueMax: 8, batchMax: 64, batchDelay: 700 * time.Millisecond, maxBody: 1 << 20,
		shapes: shapeFlags{}, logger: slog.New(slog.NewJSONHandler(logBuf, nil))}
	done := make(chan error, 1)
	go func() { done <- serve(cfg, "127.0.0.1:0", 5*time.Second, 5*time.Second) }()
	var url string
	// Loading probes each version in a child first (Note [Load probe]): seconds under -race on a busy machine.
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && url == ""; {
		if _, rest, ok := strings.Cut(logBuf.String(), "listening on "); ok {
			url = strings.Fields(rest)[0] // the message goes on after a space
		}
		time.Sleep(10 * time.Millisecond)
	}
	if url == "" {
		t.Fatalf("serve did not start:\n%s", logBuf)
	}
	type answer struct {
		code  int
		reply map[string]any
	}
	answered := make(chan answer, 1)
	go func() {
		code, reply := postJSON(t, url+"/v1/models/cnn:predict",
			map[string]any{"inputs": map[string]any{"data": images(fx, 0, 2)}})
		answered <- answer{code, reply}
	}()
	time.Sleep(200 * time.Millisecond) // the request now waits for its batch to fill
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v\n%s", err, logBuf)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("serve did not stop after SIGTERM:\n%s", logBuf)
	}
	a := <-answered
	if a.code != 200 {
		t.Fatalf("the request in flight at SIGTERM got %d %v", a.code, a.reply)
	}
	assertClose(t, "in-flight answer", flatScores(t, a.reply), fx.output, 1e-4)
	if !strings.Contains(logBuf.String(), "shutting down") || !strings.Contains(logBuf.String(), "stopped") {
		t.Fatalf("log:\n%s", logBuf)
	}
}

func TestBucketRows(t *testing.T) {
	for _, c := range []struct{ rows, max, want int64 }{
		{1, 16, 1}, {2, 16, 2}, {3, 16, 4}, {5, 16, 8}, {9, 16, 16}, {16, 16, 16}, {11, 12, 12}, {7, 6, 7},
	} {
		if got := bucketRows(c.rows, c.max); got != c.want {
			t.Errorf("bucketRows(%d, %d) = %d, want %d", c.rows, c.max, got, c.want)
		}
	}
}
