package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"weft.dev/weft"
)

// probeDiesEnv, set in this test binary's environment, makes its probe
// children die by SIGSEGV before reading their model (TestMain): a child
// crashing for real, through the registry's own probe path, whatever model it
// was given. The variable means nothing to weft-serve itself.
const probeDiesEnv = "WEFT_SERVE_TEST_PROBE_DIES"

// TestMain lets this test binary be the probe child too: the registry
// re-executes os.Executable() -- here the test binary -- with probeArg, as
// weft-serve's main does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == probeArg {
		if os.Getenv(probeDiesEnv) != "" {
			// The shell replaces this process (same pid) and kills itself.
			err := syscall.Exec("/bin/sh", []string{"sh", "-c", "kill -SEGV $$"}, os.Environ())
			fmt.Fprintln(os.Stderr, "exec /bin/sh:", err)
			os.Exit(3)
		}
		os.Exit(probeMain(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// reluChain is the symbol JSON of data -> relu -> relu -> ... (n relus): a
// graph deep enough to overflow a recursive walk's stack.
func reluChain(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"nodes": [{"op": "null", "name": "data", "inputs": []}`)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `, {"op": "relu", "name": "relu%d", "inputs": [[%d, 0, 0]]}`, i, i-1)
	}
	fmt.Fprintf(&b, `], "arg_nodes": [0], "heads": [[%d, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]}}`, n)
	return []byte(b.String())
}

// writeRenamed writes a file beside its place and renames it in, as the
// README asks, so the poller never sees half of it.
func writeRenamed(t testing.TB, path string, b []byte) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// indexStates reads the repository index as "name/version" -> state and reason.
func indexStates(t testing.TB, url string) map[string][2]string {
	t.Helper()
	code, _, body := do(t, "POST", url+"/v2/repository/index", nil, nil)
	var rows []map[string]string
	if err := json.Unmarshal(body, &rows); code != 200 || err != nil {
		t.Fatalf("repository index: %d %v %s", code, err, body)
	}
	out := map[string][2]string{}
	for _, r := range rows {
		out[r["name"]+"/"+r["version"]] = [2]string{r["state"], r["reason"]}
	}
	return out
}

// waitLong polls cond for up to two minutes (a probe of a 200,000-node graph
// on a loaded machine takes seconds).
func waitLong(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// keepAsking sends the healthy model a request every few milliseconds until
// the returned stop is called, which gives how many were answered and the
// first failure.
func keepAsking(t *testing.T, url string, fx cnnIO) (stop func() (int, string)) {
	var answered atomic.Int64
	var failure atomic.Value
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			code, reply := v2Scores(t, url+"/v2/models/cnn/infer", fx)
			if code != 200 || len(reply.Outputs) != 1 {
				failure.CompareAndSwap(nil, fmt.Sprintf("%d %+v", code, reply))
				continue
			}
			answered.Add(1)
		}
	}()
	return func() (int, string) {
		close(done)
		<-finished
		f, _ := failure.Load().(string)
		return int(answered.Load()), f
	}
}

// badModels writes the two model files of issue 35 point 2 into dir: evil, a
// 200,000-node relu chain (it crashed the server from the poller), and trunc,
// the CNN with its params file cut in half.
func badModels(t *testing.T, dir string) {
	empty, err := weft.SaveParamsBytes(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	writeRenamed(t, filepath.Join(dir, "evil-0001.params"), empty)
	writeRenamed(t, filepath.Join(dir, "evil-symbol.json"), reluChain(200000))
	params, err := os.ReadFile(filepath.Join(fixtureDir(t), "cnn-0000.params"))
	if err != nil {
		t.Fatal(err)
	}
	writeRenamed(t, filepath.Join(dir, "trunc-0001.params"), params[:len(params)/2])
	copyFile(t, filepath.Join(fixtureDir(t), "cnn-symbol.json"), filepath.Join(dir, "trunc-symbol.json"))
}

// checkBadModels: trunc is UNAVAILABLE with a reason everywhere a client
// looks; evil is UNAVAILABLE with a reason too, or -- once the library walks
// deep graphs without recursion -- READY. The healthy cnn is READY.
func checkBadModels(t *testing.T, url string, states map[string][2]string) {
	t.Helper()
	if st := states["cnn/0"]; st[0] != "READY" {
		t.Errorf("cnn/0: %v", st)
	}
	if st := states["trunc/1"]; st[0] != "UNAVAILABLE" || st[1] == "" {
		t.Errorf("trunc/1: %v, want UNAVAILABLE with a reason", st)
	}
	if st := states["evil/1"]; !(st[0] == "READY" && st[1] == "") && !(st[0] == "UNAVAILABLE" && st[1] != "") {
		t.Errorf("evil/1: %v, want READY or UNAVAILABLE with a reason", st)
	}
	t.Logf("evil/1: %v", states["evil/1"])
	code, r := getJSON(t, url+"/v2/models/trunc/ready")
	if code != 503 || r["ready"] != false || !strings.Contains(fmt.Sprint(r["error"]), "version 1") {
		t.Errorf("trunc ready: %d %v", code, r)
	}
	if code, r := getJSON(t, url+"/v2/models/trunc/versions/1"); code != 503 || !strings.Contains(fmt.Sprint(r["error"]),
		"unavailable") {
		t.Errorf("trunc metadata: %d %v", code, r)
	}
}

// Issue 35 point 2: model files that fail to load or crash the loader,
// dropped into the folder of a running server, leave it up and its healthy
// model answering throughout; a server started with them already there comes
// up the same.
func TestModelFilesThatFailOrCrashDoNotTakeTheServerDown(t *testing.T) {
	dir, fx := exportDir(t)
	ts, s, logBuf := startServer(t, config{modelDir: dir})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.reg.poll(ctx, 20*time.Millisecond)
	stop := keepAsking(t, ts.URL, fx)
	badModels(t, dir)
	waitLong(t, "both bad models in the index", func() bool {
		st := indexStates(t, ts.URL)
		return st["evil/1"][0] != "" && st["trunc/1"][0] != ""
	})
	time.Sleep(100 * time.Millisecond) // a few more requests after the probes
	answered, failure := stop()
	if failure != "" || answered == 0 {
		t.Fatalf("the healthy model answered %d requests, then failed: %s", answered, failure)
	}
	checkBadModels(t, ts.URL, indexStates(t, ts.URL))
	if !strings.Contains(logBuf.String(), `"msg":"model version unavailable","model":"trunc"`) {
		t.Errorf("trunc's failure is not logged:\n%s", logBuf)
	}

	// Started with the bad files already there.
	ts2, _, _ := startServer(t, config{modelDir: dir})
	if code, reply := v2Scores(t, ts2.URL+"/v2/models/cnn/infer", fx); code != 200 {
		t.Fatalf("a server started beside the bad files: %d %+v", code, reply)
	}
	checkBadModels(t, ts2.URL, indexStates(t, ts2.URL))
}

// A probe child that dies by a signal (here the test binary, re-executed by
// the registry as its probe, killing itself: TestMain) marks the new version
// UNAVAILABLE naming the signal -- a new model, and a new epoch of a served
// model, whose older version goes on answering -- and the server lives on.
// When the files change, the version is probed again.
func TestProbeChildCrashMarksOnlyThatVersionUnavailable(t *testing.T) {
	dir, fx := exportDir(t)
	ts, s, logBuf := startServer(t, config{modelDir: dir})
	if code, reply := v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx); code != 200 { // bound (after a probe)
		t.Fatalf("cnn: %d %+v", code, reply)
	}
	t.Setenv(probeDiesEnv, "1")
	copyFile(t, filepath.Join(dir, "cnn-symbol.json"), filepath.Join(dir, "victim-symbol.json"))
	copyFile(t, filepath.Join(dir, "cnn-0000.params"), filepath.Join(dir, "victim-0001.params"))
	copyFile(t, filepath.Join(dir, "cnn-0000.params"), filepath.Join(dir, "cnn-0005.params"))
	if err := s.reg.scan(); err != nil {
		t.Fatal(err)
	}
	states := indexStates(t, ts.URL)
	for _, v := range []string{"victim/1", "cnn/5"} {
		if st := states[v]; st[0] != "UNAVAILABLE" || !strings.Contains(st[1], "killed by signal SIGSEGV") {
			t.Errorf("%s: %v, want UNAVAILABLE naming SIGSEGV", v, st)
		}
	}
	if st := states["cnn/0"]; st[0] != "READY" {
		t.Errorf("cnn/0: %v", st)
	}
	code, reply := v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx)
	if code != 200 || reply.ModelVersion != "0" {
		t.Fatalf("cnn without a version after its epoch 5 crashed the probe: %d %+v", code, reply)
	}
	assertClose64(t, "cnn/0", reply.Outputs[0].Data, fx.output, 1e-4)
	if code, r := getJSON(t, ts.URL+"/v2/models/cnn/versions/5/ready"); code != 503 ||
		!strings.Contains(fmt.Sprint(r["error"]), "SIGSEGV") {
		t.Errorf("cnn/5 ready: %d %v", code, r)
	}
	if !strings.Contains(logBuf.String(), `"msg":"model version unavailable","model":"victim","version":1,"error":"the load probe was killed by signal SIGSEGV`) {
		t.Errorf("the crash is not logged:\n%s", logBuf)
	}

	// Unchanged files are not probed again; changed ones are.
	os.Unsetenv(probeDiesEnv)
	if err := s.reg.scan(); err != nil {
		t.Fatal(err)
	}
	if st := indexStates(t, ts.URL)["victim/1"]; st[0] != "UNAVAILABLE" {
		t.Fatalf("victim/1 reprobed without a change: %v", st)
	}
	later := time.Now().Add(time.Second)
	os.Chtimes(filepath.Join(dir, "victim-0001.params"), later, later)
	if err := s.reg.scan(); err != nil {
		t.Fatal(err)
	}
	if st := indexStates(t, ts.URL)["victim/1"]; st[0] != "READY" {
		t.Fatalf("victim/1 after its file changed: %v", st)
	}
}

// The probe's memory limit is real: a model whose binding needs more than
// -probe-memory (a shape hint of a million images, 800 MB for the input
// alone) is UNAVAILABLE saying so, without the server allocating anything for
// it; the model beside it loads under the same limit.
func TestProbeMemoryLimitMarksAModelTooBigUnavailable(t *testing.T) {
	dir, fx := exportDir(t)
	copyFile(t, filepath.Join(dir, "cnn-symbol.json"), filepath.Join(dir, "huge-symbol.json"))
	copyFile(t, filepath.Join(dir, "cnn-0000.params"), filepath.Join(dir, "huge-0000.params"))
	os.WriteFile(filepath.Join(dir, "huge-shapes.json"), []byte(`{"data": [1048576, 3, 8, 8]}`), 0o644)
	ts, _, _ := startServer(t, config{modelDir: dir, probeMemory: 256 << 20})
	st := indexStates(t, ts.URL)["huge/0"]
	if st[0] != "UNAVAILABLE" || !strings.Contains(st[1], "out of memory") ||
		!strings.Contains(st[1], "256M more memory than at its start, -probe-memory") {
		t.Fatalf("huge/0: %v", st)
	}
	if code, reply := v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx); code != 200 {
		t.Fatalf("cnn: %d %+v", code, reply)
	}
}

// A version without shape hints is bound at its first request's shapes; that
// bind is probed in a child first, and a crash there makes the request a 503
// and the version UNAVAILABLE naming the signal -- nothing is bound in the
// server -- while the model beside it answers. Changed files bring it back.
func TestBindProbeCrashAtTheFirstRequestMarksTheVersionUnavailable(t *testing.T) {
	dir, fx := exportDir(t)
	copyFile(t, filepath.Join(dir, "cnn-symbol.json"), filepath.Join(dir, "steady-symbol.json"))
	copyFile(t, filepath.Join(dir, "cnn-0000.params"), filepath.Join(dir, "steady-0000.params"))
	ts, s, logBuf := startServer(t, config{modelDir: dir})
	if code, reply := v2Scores(t, ts.URL+"/v2/models/steady/infer", fx); code != 200 {
		t.Fatalf("steady: %d %+v", code, reply)
	}
	t.Setenv(probeDiesEnv, "1")
	code, reply := v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx)
	if code != 503 || !strings.Contains(reply.Error, "killed by signal SIGSEGV") {
		t.Fatalf("cnn's first request with its bind probe crashing: %d %+v", code, reply)
	}
	if _, err := s.reg.acquire("cnn", ""); err == nil || !strings.Contains(err.Error(), "SIGSEGV") {
		t.Fatalf("cnn after its bind probe crashed: %v", err)
	}
	if st := indexStates(t, ts.URL)["cnn/0"]; st[0] != "UNAVAILABLE" || !strings.Contains(st[1], "SIGSEGV") {
		t.Fatalf("cnn/0: %v", st)
	}
	if code, r := getJSON(t, ts.URL+"/v2/models/cnn/ready"); code != 503 || !strings.Contains(fmt.Sprint(r["error"]),
		"SIGSEGV") {
		t.Fatalf("cnn ready: %d %v", code, r)
	}
	if code, reply := v2Scores(t, ts.URL+"/v2/models/steady/infer", fx); code != 200 {
		t.Fatalf("steady after cnn's crash: %d %+v", code, reply)
	}
	if !strings.Contains(logBuf.String(), `"msg":"model version unavailable","model":"cnn","version":0,`+
		`"error":"the load probe was killed by signal SIGSEGV (segmentation fault)","at":"binding the first `+
		`request's shapes map[data:[2 3 8 8]]"`) {
		t.Errorf("the bind crash is not logged:\n%s", logBuf)
	}
	os.Unsetenv(probeDiesEnv)
	later := time.Now().Add(time.Second)
	os.Chtimes(filepath.Join(dir, "cnn-0000.params"), later, later)
	if err := s.reg.scan(); err != nil {
		t.Fatal(err)
	}
	code, reply = v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx)
	if code != 200 {
		t.Fatalf("cnn after its file changed: %d %+v", code, reply)
	}
	assertClose64(t, "cnn", reply.Outputs[0].Data, fx.output, 1e-4)
}
