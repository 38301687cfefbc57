package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The very first metadata request of a plain export (no shape file, no
// request yet) is complete: computed from the files at load (issue 42).
func TestV2MetadataIsCompleteBeforeTheFirstRequest(t *testing.T) {
	dir, _ := exportDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir})
	code, meta := getJSON(t, ts.URL+"/v2/models/cnn")
	if code != 200 {
		t.Fatalf("metadata: %d %v", code, meta)
	}
	if got := mustJSON(meta["inputs"]); got != `[{"datatype":"FP32","name":"data","shape":[-1,3,8,8]}]` {
		t.Fatalf("inputs %s", got)
	}
	if got := mustJSON(meta["outputs"]); got != `[{"datatype":"FP32","name":"cnn_dense1_fwd_output","shape":[-1,5]}]` {
		t.Fatalf("outputs %s", got)
	}
	code, info := getJSON(t, ts.URL+"/v1/models/cnn")
	if code != 200 || mustJSON(info["inputs"]) != `[{"dtype":"float32","name":"data","shape":[-1,3,8,8]}]` {
		t.Fatalf("v1 info: %d %v", code, info)
	}
}

func TestV2ModelConfiguration(t *testing.T) {
	dir, _ := exportDir(t)
	for _, batching := range []bool{false, true} {
		t.Run(fmt.Sprintf("batching=%v", batching), func(t *testing.T) {
			cfg := config{modelDir: dir, maxVersions: 2}
			if batching {
				cfg.batchMax, cfg.batchDelay = 8, 2*time.Millisecond
			}
			ts, _, _ := startServer(t, cfg)
			for _, path := range []string{"/v2/models/cnn/config", "/v2/models/cnn/versions/0/config"} {
				code, c := getJSON(t, ts.URL+path)
				if code != 200 || c["name"] != "cnn" || c["platform"] != "weft_mxnet" ||
					mustJSON(c["version_policy"]) != `{"latest":{"num_versions":2}}` {
					t.Fatalf("%s: %d %v", path, code, c)
				}
				in, out := mustJSON(c["input"]), mustJSON(c["output"])
				if batching {
					if c["max_batch_size"] != 8.0 || mustJSON(c["dynamic_batching"]) !=
						`{"max_queue_delay_microseconds":2000,"preferred_batch_size":[]}` ||
						in != `[{"data_type":"TYPE_FP32","dims":[3,8,8],"format":"FORMAT_NONE","name":"data"}]` ||
						out != `[{"data_type":"TYPE_FP32","dims":[5],"name":"cnn_dense1_fwd_output"}]` {
						t.Fatalf("%s: %v", path, c)
					}
				} else if c["max_batch_size"] != 0.0 || c["dynamic_batching"] != nil ||
					in != `[{"data_type":"TYPE_FP32","dims":[-1,3,8,8],"format":"FORMAT_NONE","name":"data"}]` ||
					out != `[{"data_type":"TYPE_FP32","dims":[-1,5],"name":"cnn_dense1_fwd_output"}]` {
					t.Fatalf("%s: %v", path, c)
				}
			}
			if code, _, body := do(t, "GET", ts.URL+"/v2/models/cnn/versions/9/config", nil, nil); code != 404 ||
				!strings.Contains(string(body), "9") {
				t.Fatalf("unknown version: %d %s", code, body)
			}
			if code, _, _ := do(t, "POST", ts.URL+"/v2/models/cnn/config", nil, nil); code != 405 {
				t.Fatalf("POST config: %d", code)
			}
		})
	}
}

type statsReply struct {
	ModelStats []struct {
		Name           string `json:"name"`
		Version        string `json:"version"`
		LastInference  int64  `json:"last_inference"`
		InferenceCount int64  `json:"inference_count"`
		ExecutionCount int64  `json:"execution_count"`
		InferenceStats map[string]struct {
			Count int64 `json:"count"`
			NS    int64 `json:"ns"`
		} `json:"inference_stats"`
	} `json:"model_stats"`
}

func getStats(t *testing.T, url string) statsReply {
	t.Helper()
	code, _, body := do(t, "GET", url, nil, nil)
	var r statsReply
	if err := json.Unmarshal(body, &r); code != 200 || err != nil {
		t.Fatalf("GET %s: %d %s", url, code, body)
	}
	return r
}

func TestV2StatisticsCountRequestsAndTime(t *testing.T) {
	dir, fx := modelDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir})
	before := time.Now().UnixMilli()
	for rows := 1; rows <= 2; rows++ {
		code, reply := postJSON(t, ts.URL+"/v1/models/cnn:predict", map[string]any{"inputs": map[string]any{
			"data": images(fx, 0, rows)}})
		if code != 200 {
			t.Fatalf("predict: %d %v", code, reply)
		}
	}
	code, _ := inferV2(t, ts.URL+"/v2/models/cnn/infer", map[string]any{"inputs": []any{map[string]any{
		"name": "data", "shape": []int{1, 3, 4, 4}, "datatype": "FP32", "data": make([]float64, 48)}}}, nil)
	if code != 400 { // a shape the graph cannot take: a failure
		t.Fatalf("bad shape: %d", code)
	}
	for _, path := range []string{"/v2/models/stats", "/v2/models/cnn/stats", "/v2/models/cnn/versions/3/stats"} {
		r := getStats(t, ts.URL+path)
		if len(r.ModelStats) != 1 {
			t.Fatalf("%s: %+v", path, r)
		}
		st := r.ModelStats[0]
		is := st.InferenceStats
		if st.Name != "cnn" || st.Version != "3" || st.InferenceCount != 3 || st.ExecutionCount != 2 ||
			st.LastInference < before || is["success"].Count != 2 || is["fail"].Count != 1 ||
			is["queue"].Count != 2 || is["compute_input"].Count != 2 || is["compute_infer"].Count != 2 ||
			is["compute_output"].Count != 2 || is["compute_infer"].NS <= 0 ||
			is["success"].NS < is["compute_infer"].NS {
			t.Fatalf("%s: %+v", path, st)
		}
		for _, k := range []string{"cache_hit", "cache_miss"} {
			if _, ok := is[k]; !ok {
				t.Fatalf("%s: no %s in %+v", path, k, is)
			}
		}
	}
	if code, _, _ := do(t, "GET", ts.URL+"/v2/models/resnet/stats", nil, nil); code != 404 {
		t.Fatalf("unknown model stats: %d", code)
	}
	if code, _, _ := do(t, "GET", ts.URL+"/v2/models/cnn/versions/1/stats", nil, nil); code != 503 {
		t.Fatalf("stats of the broken version 1: %d", code)
	}
	code, meta := getJSON(t, ts.URL+"/v2")
	exts := fmt.Sprint(meta["extensions"])
	for _, e := range []string{"model_configuration", "statistics", "classification"} {
		if code != 200 || !strings.Contains(exts, e) {
			t.Fatalf("server metadata lacks %s: %v", e, meta)
		}
	}
}

// topK is what classification must answer for one row of scores.
func topK(scores []float32, k int, labels []string) []string {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	var out []string
	for _, i := range idx[:k] {
		s := strconv.FormatFloat(float64(scores[i]), 'f', 6, 64) + ":" + strconv.Itoa(i)
		if i < len(labels) {
			s += ":" + labels[i]
		}
		out = append(out, s)
	}
	return out
}

// assertClasses compares "score:index[:label]" strings: index and label
// exactly, the score within float32 rounding of MXNet's recorded output.
func assertClasses(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("classes %q, want %q", got, want)
	}
	for i := range got {
		g, w := strings.SplitN(got[i], ":", 2), strings.SplitN(want[i], ":", 2)
		gs, err1 := strconv.ParseFloat(g[0], 64)
		ws, err2 := strconv.ParseFloat(w[0], 64)
		if err1 != nil || err2 != nil || len(g) != 2 || g[1] != w[1] || math.Abs(gs-ws) > 1e-4 {
			t.Fatalf("classes %q, want %q", got, want)
		}
	}
}

func TestV2ClassificationGivesTopKWithLabels(t *testing.T) {
	dir, fx := exportDir(t)
	labels := []string{"zero", "one", "two", "three", "four"}
	want := append(topK(fx.output[:5], 3, labels), topK(fx.output[5:], 3, labels)...)
	for _, labelFile := range []string{"cnn-labels.txt", "synset.txt", ""} {
		t.Run(labelFile, func(t *testing.T) {
			d := t.TempDir()
			copyFile(t, filepath.Join(dir, "cnn-symbol.json"), filepath.Join(d, "cnn-symbol.json"))
			copyFile(t, filepath.Join(dir, "cnn-0000.params"), filepath.Join(d, "cnn-0000.params"))
			want := want
			if labelFile != "" {
				os.WriteFile(filepath.Join(d, labelFile), []byte(strings.Join(labels, "\n")+"\n"), 0o644)
			} else {
				want = append(topK(fx.output[:5], 3, nil), topK(fx.output[5:], 3, nil)...)
			}
			ts, _, _ := startServer(t, config{modelDir: d})
			url := ts.URL + "/v2/models/cnn/infer"
			input := map[string]any{"name": "data", "shape": []int{2, 3, 8, 8}, "datatype": "FP32",
				"data": f64s(fx.input)}
			// JSON output.
			b, _ := json.Marshal(map[string]any{"inputs": []any{input}, "outputs": []any{map[string]any{
				"name": "cnn_dense1_fwd_output", "parameters": map[string]any{"classification": 3}}}})
			code, _, body := do(t, "POST", url, map[string]string{"Content-Type": "application/json"}, b)
			var reply struct {
				Outputs []struct {
					Datatype string   `json:"datatype"`
					Shape    []int64  `json:"shape"`
					Data     []string `json:"data"`
				} `json:"outputs"`
			}
			if err := json.Unmarshal(body, &reply); code != 200 || err != nil || len(reply.Outputs) != 1 ||
				reply.Outputs[0].Datatype != "BYTES" || fmt.Sprint(reply.Outputs[0].Shape) != "[2 3]" {
				t.Fatalf("classification: %d %s", code, body)
			}
			assertClasses(t, reply.Outputs[0].Data, want)
			// Binary output: 4-byte lengths, then the strings.
			b, _ = json.Marshal(map[string]any{"inputs": []any{input}, "outputs": []any{map[string]any{
				"name": "cnn_dense1_fwd_output", "parameters": map[string]any{"classification": 3, "binary_data": true}}}})
			code, h, body := do(t, "POST", url, map[string]string{"Content-Type": "application/json"}, b)
			n, err := strconv.Atoi(h.Get(headerInferenceLength))
			if code != 200 || err != nil {
				t.Fatalf("binary classification: %d %s", code, body)
			}
			var got []string
			for rest := body[n:]; len(rest) >= 4; {
				l := binary.LittleEndian.Uint32(rest)
				got, rest = append(got, string(rest[4:4+l])), rest[4+l:]
			}
			assertClasses(t, got, want)
			// More classes than there are: all of them; a negative count: 400.
			b, _ = json.Marshal(map[string]any{"inputs": []any{input}, "outputs": []any{map[string]any{
				"name": "cnn_dense1_fwd_output", "parameters": map[string]any{"classification": 50}}}})
			code, _, body = do(t, "POST", url, map[string]string{"Content-Type": "application/json"}, b)
			if code != 200 || !strings.Contains(string(body), `"shape":[2,5]`) {
				t.Fatalf("classification 50: %d %s", code, body)
			}
			b, _ = json.Marshal(map[string]any{"inputs": []any{input}, "outputs": []any{map[string]any{
				"name": "cnn_dense1_fwd_output", "parameters": map[string]any{"classification": -1}}}})
			code, _, body = do(t, "POST", url, map[string]string{"Content-Type": "application/json"}, b)
			if code != 400 || !strings.Contains(string(body), "classification") {
				t.Fatalf("classification -1: %d %s", code, body)
			}
		})
	}
}
