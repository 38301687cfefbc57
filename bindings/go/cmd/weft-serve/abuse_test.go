package main

import (
	"bufio"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// rssBytes is this process's resident set (server, predictors and client).
func rssBytes(t testing.TB) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kb, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// A malformed request: what to send and the status it must get.
type abuse struct {
	what   string
	path   string
	header map[string]string
	body   string
	status int
}

func abuses(fx cnnIO) []abuse {
	raw := map[string]string{"Content-Type": "application/octet-stream"}
	withShape := func(s string) map[string]string {
		return map[string]string{"Content-Type": "application/octet-stream", "X-Weft-Shape": s}
	}
	js := map[string]string{"Content-Type": "application/json"}
	one := string(f32Bytes(fx.input[:192]))
	nan := string(f32Bytes(append([]float32{float32(math.NaN())}, fx.input[1:192]...)))
	inf := string(f32Bytes(append([]float32{float32(math.Inf(-1))}, fx.input[1:192]...)))
	own := cnnIO{input: append([]float32(nil), fx.input...)} // images() shares its slice
	pix := images(own, 0, 1)
	pix[0][0][0][0] = 0 // replaced by 1e39 in the text below
	big := strings.Replace(mustJSON(map[string]any{"inputs": map[string]any{"data": pix}}), "0,", "1e39,", 1)
	v1 := "/v1/models/cnn:predict"
	v2 := "/v2/models/cnn/infer"
	return []abuse{
		{"bad JSON", v1, js, `{"inputs": {"data": [[1, 2,`, 400},
		{"JSON not an object", v1, js, `[1, 2, 3]`, 400},
		{"wrong shape", v1, js, `{"inputs": {"data": [[1, 2, 3]]}}`, 400},
		{"ragged array", v1, js, `{"inputs": {"data": [[[[1, 2], [3]]]]}}`, 400},
		{"beyond float32 (1e39)", v1, js, big, 400},
		{"unknown input", v1, js, `{"inputs": {"nope": [1]}}`, 400},
		{"raw without a shape header", v1, raw, one, 400},
		{"overflowing raw shape", v1, withShape("72057594037927936,3,8,8"), "abcd", 400},
		{"negative raw shape", v1, withShape("-1,3,8,8"), one, 400},
		{"zero raw dim", v1, withShape("0,3,8,8"), "", 400},
		{"raw shape not numbers", v1, withShape("1,x,8,8"), one, 400},
		{"raw body too short", v1, withShape("1,3,8,8"), one[:100], 400},
		{"raw NaN", v1, withShape("1,3,8,8"), nan, 400},
		{"raw -Inf", v1, withShape("1,3,8,8"), inf, 400},
		{"v2 bad JSON", v2, js, `{"inputs": [{"name": "data", "shape": [1,3,8,8]`, 400},
		{"v2 huge shape", v2, js, `{"inputs": [{"name": "data", "shape": [1099511627776, 1099511627776, 3, 8], "datatype": "FP32", "data": [1]}]}`, 400},
		{"v2 negative dim", v2, js, `{"inputs": [{"name": "data", "shape": [-1, 3, 8, 8], "datatype": "FP32", "data": [1]}]}`, 400},
		{"v2 data count", v2, js, `{"inputs": [{"name": "data", "shape": [1, 3, 8, 8], "datatype": "FP32", "data": [1, 2]}]}`, 400},
		{"v2 NaN text", v2, js, `{"inputs": [{"name": "data", "shape": [1], "datatype": "FP32", "data": [NaN]}]}`, 400},
	}
}

// Issue 22, point 8: 10,000 malformed requests (bad JSON, wrong and huge
// shapes, negative shape headers, NaN/Inf and out-of-range values, short
// bodies), truncated bodies and slow clients holding connections; the server
// answers each with a 400, still predicts exactly afterwards, and its memory
// stays bounded. About 14 s on the shared 2-core machine.
func TestServesAfterTenThousandMalformedRequests(t *testing.T) {
	dir, fx := exportDir(t)
	_, s, _ := startServer(t, config{modelDir: dir})
	// The real server's timeouts (serve() uses -read-timeout), short here so
	// slow clients are cut off within the test.
	ts := httptest.NewUnstartedServer(s.handler())
	ts.Config.ReadHeaderTimeout = 300 * time.Millisecond
	ts.Config.ReadTimeout = 300 * time.Millisecond
	ts.Start()
	defer ts.Close()
	good := func() {
		t.Helper()
		code, _, body := do(t, "POST", ts.URL+"/v1/models/cnn:predict", map[string]string{
			"Content-Type": "application/octet-stream", "X-Weft-Shape": "1,3,8,8"}, f32Bytes(fx.input[:192]))
		if code != 200 {
			t.Fatalf("a good request after the abuse: %d %s", code, body)
		}
		assertClose(t, "scores", bytesF32(body), fx.output[:5], 1e-4)
	}
	good()
	runtime.GC()
	debug.FreeOSMemory()
	before := rssBytes(t)

	// Slow clients: connections that send half a request line and hold.
	var slow []net.Conn
	for i := 0; i < 64; i++ {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST /v1/models/cnn:predict HTTP/1.1\r\nHost: x\r\nContent-Len")
		slow = append(slow, c)
	}
	list := abuses(fx)
	const total = 10000
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			client := &http.Client{Timeout: 10 * time.Second}
			for i := w; i < total; i += 8 {
				a := list[i%len(list)]
				if i%97 == 0 { // a truncated body: Content-Length promises more than comes
					c, err := net.Dial("tcp", ts.Listener.Addr().String())
					if err == nil {
						fmt.Fprintf(c, "POST /v1/models/cnn:predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"inputs\": ")
						c.Close()
					}
					continue
				}
				req, _ := http.NewRequest("POST", ts.URL+a.path, strings.NewReader(a.body))
				for k, v := range a.header {
					req.Header.Set(k, v)
				}
				resp, err := client.Do(req)
				if err != nil {
					select {
					case errs <- fmt.Sprintf("%s: %v", a.what, err):
					default:
					}
					continue
				}
				resp.Body.Close()
				if resp.StatusCode != a.status {
					select {
					case errs <- fmt.Sprintf("%s: status %d, want %d", a.what, resp.StatusCode, a.status):
					default:
					}
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// The slow clients were cut off by the read timeout, not left holding.
	for _, c := range slow {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, _ := bufio.NewReader(c).ReadString('\n')
		if line != "" && !strings.Contains(line, "408") && !strings.Contains(line, "400") {
			t.Errorf("a slow client got %q", line)
		}
		c.Close()
	}
	good()
	runtime.GC()
	debug.FreeOSMemory()
	after := rssBytes(t)
	t.Logf("RSS before %d MiB, after %d malformed requests %d MiB", before>>20, total, after>>20)
	limit := int64(64 << 20)
	if raceDetector {
		limit *= 10 // the race detector's shadow memory (race_on_test.go)
	}
	if int64(after-before) > limit {
		t.Errorf("RSS grew by %d MiB over %d malformed requests (limit %d MiB)", (after-before)>>20, total, limit>>20)
	}
}

// Each kind of malformed request, alone, leaves the next good answer exact.
func TestEachMalformedRequestLeavesPredictionsExact(t *testing.T) {
	dir, fx := exportDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir})
	check := func(after string) {
		t.Helper()
		code, _, body := do(t, "POST", ts.URL+"/v1/models/cnn:predict", map[string]string{
			"Content-Type": "application/octet-stream", "X-Weft-Shape": "1,3,8,8"}, f32Bytes(fx.input[:192]))
		if code != 200 {
			t.Fatalf("after %s: %d %s", after, code, body)
		}
		got := bytesF32(body)
		for i, want := range fx.output[:5] {
			if math.Abs(float64(got[i]-want)) > 1e-4 {
				t.Fatalf("after %s: scores %v, want %v", after, got, fx.output[:5])
			}
		}
	}
	check("nothing")
	for _, a := range abuses(fx) {
		for i := 0; i < 3; i++ {
			code, _, body := do(t, "POST", ts.URL+a.path, a.header, []byte(a.body))
			if code != a.status {
				t.Errorf("%s: %d %s, want %d", a.what, code, body, a.status)
			}
		}
		check(a.what)
	}
}
