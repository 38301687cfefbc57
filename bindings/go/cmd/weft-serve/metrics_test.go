package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// promSample is one parsed sample line of the Prometheus text format.
type promSample struct {
	name   string
	labels map[string]string
	value  float64
}

// parseProm is a small parser of the text exposition format (0.0.4): # HELP
// and # TYPE lines, then samples `name{label="value",...} value`. It fails on
// anything the format does not allow: a sample before its family's TYPE, a
// TYPE given twice, bad names, unterminated or badly escaped label values,
// values that are not floats.
func parseProm(text string) ([]promSample, map[string]string, error) {
	types := map[string]string{}
	var out []promSample
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			f := strings.SplitN(line, " ", 4)
			if len(f) >= 3 && f[1] == "TYPE" {
				if _, dup := types[f[2]]; dup || len(f) != 4 {
					return nil, nil, fmt.Errorf("line %d: bad or repeated TYPE: %q", n, line)
				}
				switch f[3] {
				case "counter", "gauge", "histogram", "summary", "untyped":
				default:
					return nil, nil, fmt.Errorf("line %d: unknown type %q", n, f[3])
				}
				types[f[2]] = f[3]
			}
			continue
		}
		s, err := parseSample(line)
		if err != nil {
			return nil, nil, fmt.Errorf("line %d: %v: %q", n, err, line)
		}
		family := s.name
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			if base, ok := strings.CutSuffix(s.name, suffix); ok && types[base] == "histogram" {
				family = base
			}
		}
		if _, ok := types[family]; !ok {
			return nil, nil, fmt.Errorf("line %d: sample of %s before its TYPE", n, s.name)
		}
		out = append(out, s)
	}
	return out, types, sc.Err()
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func parseSample(line string) (promSample, error) {
	s := promSample{labels: map[string]string{}}
	i := strings.IndexAny(line, "{ ")
	if i < 0 {
		return s, fmt.Errorf("no value")
	}
	s.name = line[:i]
	if !validName(s.name) {
		return s, fmt.Errorf("bad metric name %q", s.name)
	}
	rest := line[i:]
	if rest[0] == '{' {
		rest = rest[1:]
		for {
			if strings.HasPrefix(rest, "}") {
				rest = rest[1:]
				break
			}
			eq := strings.Index(rest, `="`)
			if eq < 0 || !validName(rest[:eq]) {
				return s, fmt.Errorf("bad label in %q", rest)
			}
			key := rest[:eq]
			rest = rest[eq+2:]
			var val strings.Builder
			closed := false
			for k := 0; k < len(rest); k++ {
				c := rest[k]
				if c == '\\' {
					if k+1 >= len(rest) {
						return s, fmt.Errorf("dangling escape")
					}
					switch rest[k+1] {
					case '\\':
						val.WriteByte('\\')
					case '"':
						val.WriteByte('"')
					case 'n':
						val.WriteByte('\n')
					default:
						return s, fmt.Errorf("bad escape \\%c", rest[k+1])
					}
					k++
					continue
				}
				if c == '"' {
					rest, closed = rest[k+1:], true
					break
				}
				val.WriteByte(c)
			}
			if !closed {
				return s, fmt.Errorf("unterminated label value")
			}
			if _, dup := s.labels[key]; dup {
				return s, fmt.Errorf("label %s twice", key)
			}
			s.labels[key] = val.String()
			rest = strings.TrimPrefix(rest, ",")
		}
	}
	f := strings.Fields(rest)
	if len(f) < 1 || len(f) > 2 {
		return s, fmt.Errorf("want a value (and an optional timestamp)")
	}
	v, err := strconv.ParseFloat(strings.Replace(f[0], "Inf", "inf", 1), 64)
	if err != nil {
		return s, fmt.Errorf("bad value %q", f[0])
	}
	s.value = v
	return s, nil
}

func TestPromParserRejectsMalformedText(t *testing.T) {
	for _, bad := range []string{
		"x 1\n",                                    // no TYPE
		"# TYPE x counter\nx{a=\"1} 2\n",           // unterminated
		"# TYPE x counter\nx{a=\"\\q\"} 2\n",       // bad escape
		"# TYPE x counter\nx one\n",                // bad value
		"# TYPE x counter\n# TYPE x gauge\nx 1\n",  // TYPE twice
		"# TYPE 1x counter\n1x 1\n",                // bad name
		"# TYPE x counter\nx{a=\"1\",a=\"2\"} 1\n", // label twice
	} {
		if _, _, err := parseProm(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
	s, _, err := parseProm("# TYPE x gauge\nx{a=\"q\\\"\\\\\\n\",b=\"\"} +Inf 123\n")
	if err != nil || len(s) != 1 || s[0].labels["a"] != "q\"\\\n" || !math.IsInf(s[0].value, 1) {
		t.Fatalf("parsed %v %v", s, err)
	}
}

func find(samples []promSample, name string, labels map[string]string) []promSample {
	var out []promSample
	for _, s := range samples {
		if s.name != name {
			continue
		}
		ok := true
		for k, v := range labels {
			if s.labels[k] != v {
				ok = false
			}
		}
		if ok {
			out = append(out, s)
		}
	}
	return out
}

// /metrics parses as the text format, histograms are cumulative and end in
// +Inf == _count, and the counts follow the requests made.
func TestMetricsEndpointParsesAndCounts(t *testing.T) {
	dir, fx := exportDir(t)
	ts, s, _ := startServer(t, config{modelDir: dir, poolSize: 1, queueMax: 1})
	for i := 0; i < 3; i++ {
		if code, r := v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx); code != 200 {
			t.Fatalf("infer: %d %+v", code, r)
		}
	}
	if code, _ := v2Scores(t, ts.URL+"/v2/models/cnn/infer", cnnIO{input: fx.input[:5]}); code != 400 {
		t.Fatalf("bad request: %d", code)
	}
	postJSON(t, ts.URL+"/v1/models/cnn:predict", map[string]any{"inputs": map[string]any{"data": images(fx, 0, 1)}})
	m := served(t, s, "cnn")
	release := holdSlots(m)
	go do(t, "POST", ts.URL+"/v1/models/cnn:predict", map[string]string{"Content-Type": "application/json",
		headerTimeout: "2s"}, []byte(mustJSON(map[string]any{"inputs": map[string]any{"data": images(fx, 0, 1)}})))
	waitFor(t, "a queued request", func() bool { return m.queueDepth() == 1 })

	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	release()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Fatalf("Content-Type %q", ct)
	}
	samples, types, err := parseProm(string(raw))
	if err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	for name, kind := range map[string]string{"weft_requests_total": "counter", "weft_request_duration_seconds": "histogram",
		"weft_batch_size": "histogram", "weft_queue_depth": "gauge", "weft_predictors_in_use": "gauge",
		"weft_predictors_capacity": "gauge", "weft_model_ready": "gauge"} {
		if types[name] != kind {
			t.Errorf("%s is %q, want %s", name, types[name], kind)
		}
	}
	check := func(name string, labels map[string]string, want float64) {
		t.Helper()
		got := find(samples, name, labels)
		if len(got) != 1 || got[0].value != want {
			t.Errorf("%s%v = %v, want %v", name, labels, got, want)
		}
	}
	check("weft_requests_total", map[string]string{"model": "cnn", "version": "0", "protocol": "v2", "code": "200"}, 3)
	check("weft_requests_total", map[string]string{"model": "cnn", "protocol": "v2", "code": "400"}, 1)
	check("weft_requests_total", map[string]string{"model": "cnn", "protocol": "v1", "code": "200"}, 1)
	check("weft_request_duration_seconds_count", map[string]string{"model": "cnn", "code": "200"}, 4)
	check("weft_batch_size_count", map[string]string{"model": "cnn"}, 4)
	check("weft_batch_size_bucket", map[string]string{"model": "cnn", "le": "1"}, 1) // the v1 request's one row
	check("weft_batch_size_bucket", map[string]string{"model": "cnn", "le": "2"}, 4)
	check("weft_batch_size_sum", map[string]string{"model": "cnn"}, 7)
	check("weft_queue_depth", map[string]string{"model": "cnn"}, 1)
	check("weft_predictors_capacity", map[string]string{"model": "cnn"}, 1)
	check("weft_model_ready", map[string]string{"model": "cnn", "version": "0"}, 1)

	// Every histogram: buckets ascending in le and cumulative, +Inf == _count.
	for name, kind := range types {
		if kind != "histogram" {
			continue
		}
		series := map[string][]promSample{}
		for _, s := range find(samples, name+"_bucket", nil) {
			key := fmt.Sprint(s.labels["model"], s.labels["code"])
			series[key] = append(series[key], s)
		}
		for key, buckets := range series {
			sort.SliceStable(buckets, func(i, j int) bool { return le(buckets[i]) < le(buckets[j]) })
			for i := 1; i < len(buckets); i++ {
				if buckets[i].value < buckets[i-1].value {
					t.Errorf("%s %s: buckets not cumulative: %v", name, key, buckets)
				}
			}
			last := buckets[len(buckets)-1]
			count := find(samples, name+"_count", map[string]string{"model": last.labels["model"]})
			if last.labels["le"] != "+Inf" || len(count) == 0 {
				t.Errorf("%s %s: no +Inf bucket or _count", name, key)
			}
		}
	}
	time.Sleep(10 * time.Millisecond)
}

func le(s promSample) float64 {
	v, _ := strconv.ParseFloat(strings.Replace(s.labels["le"], "Inf", "inf", 1), 64)
	return v
}
