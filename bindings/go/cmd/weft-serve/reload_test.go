package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"weft.dev/weft"
)

// writeShiftedEpoch writes the fixture CNN's parameters with shift added to
// the last layer's bias, as epoch; every output then moves by shift.
func writeShiftedEpoch(t testing.TB, dir string, epoch int, shift float32) {
	t.Helper()
	p, err := weft.LoadParams(filepath.Join(fixtureDir(t), "cnn-0000.params"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	bias := p.Lookup("arg:cnn_dense1_bias")
	vals, err := weft.ToSlice[float32](bias)
	if err != nil {
		t.Fatal(err)
	}
	for i := range vals {
		vals[i] += shift
	}
	shifted, _ := weft.FromSlice(vals, 5)
	arrays := append([]*weft.NDArray(nil), p.Arrays...)
	for i, n := range p.Names {
		if n == "arg:cnn_dense1_bias" {
			arrays[i] = shifted
		}
	}
	// Written beside, then renamed: the poller never sees half a file.
	tmp := filepath.Join(dir, ".tmp-params")
	if err := weft.SaveParams(tmp, arrays, p.Names); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, fmt.Sprintf("cnn-%04d.params", epoch))); err != nil {
		t.Fatal(err)
	}
}

func v2Scores(t testing.TB, url string, fx cnnIO) (int, v2Reply) {
	t.Helper()
	return inferV2(t, url, map[string]any{"inputs": []any{map[string]any{"name": "data", "shape": []int{2, 3, 8, 8},
		"datatype": "FP32", "data": f64s(fx.input)}}}, nil)
}

func shifted(v []float32, d float32) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x + d
	}
	return out
}

// A new epoch file dropped in the folder becomes the default version without
// a restart (the poller finds it); the old one stays pinnable; a changed file
// is reloaded; a removed model goes.
func TestHotReloadOfANewEpochFile(t *testing.T) {
	dir, fx := exportDir(t)
	ts, s, _ := startServer(t, config{modelDir: dir})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.reg.poll(ctx, 20*time.Millisecond)

	if code, reply := v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx); code != 200 || reply.ModelVersion != "0" {
		t.Fatalf("before: %d %+v", code, reply)
	}
	writeShiftedEpoch(t, dir, 7, 1)
	var reply v2Reply
	waitFor(t, "version 7 to answer", func() bool {
		_, reply = v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx)
		return reply.ModelVersion == "7"
	})
	assertClose64(t, "epoch 7", reply.Outputs[0].Data, shifted(fx.output, 1), 1e-4)
	code, old := v2Scores(t, ts.URL+"/v2/models/cnn/versions/0/infer", fx)
	if code != 200 || old.ModelVersion != "0" {
		t.Fatalf("pinned version 0: %d %+v", code, old)
	}
	assertClose64(t, "epoch 0, pinned", old.Outputs[0].Data, fx.output, 1e-4)
	_, md := getJSON(t, ts.URL+"/v2/models/cnn")
	if fmt.Sprint(md["versions"]) != "[7 0]" {
		t.Fatalf("versions %v", md["versions"])
	}

	// The same epoch rewritten with other weights: reloaded in place.
	time.Sleep(20 * time.Millisecond) // a modification time the poller can tell apart
	writeShiftedEpoch(t, dir, 7, -2)
	waitFor(t, "the rewritten version 7", func() bool {
		_, reply = v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx)
		return len(reply.Outputs) == 1 && len(reply.Outputs[0].Data) == 10 &&
			abs32(float32(reply.Outputs[0].Data[0])-(fx.output[0]-2)) < 1e-3
	})
	assertClose64(t, "epoch 7 rewritten", reply.Outputs[0].Data, shifted(fx.output, -2), 1e-4)

	// The model's files go: so does the model.
	os.Remove(filepath.Join(dir, "cnn-symbol.json"))
	waitFor(t, "the model to go", func() bool {
		code, _ := getJSON(t, ts.URL+"/v2/models/cnn")
		return code == 404
	})
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}

// A broken model (unparsable files, a symbol without parameters) is reported
// unavailable with its error while the good model beside it keeps serving;
// fixing it brings it up at the next scan.
func TestBrokenModelBesideAGoodOne(t *testing.T) {
	dir, fx := exportDir(t)
	os.WriteFile(filepath.Join(dir, "broken-symbol.json"), []byte(`{"nodes": [`), 0o644)
	os.WriteFile(filepath.Join(dir, "broken-0001.params"), []byte("not a params file"), 0o644)
	copyFile(t, filepath.Join(dir, "cnn-symbol.json"), filepath.Join(dir, "lonely-symbol.json"))
	copyFile(t, filepath.Join(dir, "cnn-symbol.json"), filepath.Join(dir, "halfdone-symbol.json"))
	os.WriteFile(filepath.Join(dir, "halfdone-0002.params"), []byte{0x12, 1, 0, 0}, 0o644)
	ts, s, logBuf := startServer(t, config{modelDir: dir})

	if code, reply := v2Scores(t, ts.URL+"/v2/models/cnn/infer", fx); code != 200 {
		t.Fatalf("the good model: %d %+v", code, reply)
	}
	if code, _ := getJSON(t, ts.URL+"/v2/health/ready"); code != 200 {
		t.Fatalf("server ready with one good model: %d", code)
	}
	for name, want := range map[string]string{"broken": "version 1", "lonely": "no lonely-NNNN.params",
		"halfdone": "version 2"} {
		code, r := getJSON(t, ts.URL+"/v2/models/"+name+"/ready")
		if code != 503 || r["ready"] != false || !strings.Contains(fmt.Sprint(r["error"]), want) {
			t.Errorf("%s ready: %d %v, want 503 naming %q", name, code, r, want)
		}
		code, reply := v2Scores(t, ts.URL+"/v2/models/"+name+"/infer", fx)
		if code != 503 || !strings.Contains(reply.Error, "unavailable") {
			t.Errorf("%s infer: %d %+v", name, code, reply)
		}
	}
	_, list := getJSON(t, ts.URL+"/v1/models")
	states := map[string]string{}
	for _, m := range list["models"].([]any) {
		info := m.(map[string]any)
		states[info["name"].(string)] = fmt.Sprint(info["ready"], " ", info["error"] != nil)
	}
	if fmt.Sprint(states) != "map[broken:false true cnn:true false halfdone:false true lonely:false true]" {
		t.Fatalf("v1 model list states: %v", states)
	}
	code, _, index := do(t, "POST", ts.URL+"/v2/repository/index", nil, nil)
	var rows []map[string]string
	json.Unmarshal(index, &rows)
	got := []string{}
	for _, r := range rows {
		got = append(got, r["name"]+"/"+r["version"]+"="+r["state"]+fmt.Sprint(r["reason"] != ""))
	}
	if code != 200 || fmt.Sprint(got) != "[broken/1=UNAVAILABLEtrue cnn/0=READYfalse halfdone/2=UNAVAILABLEtrue "+
		"lonely/=UNAVAILABLEtrue]" {
		t.Fatalf("repository index: %d %v", code, got)
	}
	if !strings.Contains(logBuf.String(), `"msg":"model version unavailable","model":"broken"`) {
		t.Fatalf("the failure is not logged:\n%s", logBuf)
	}
	// Fixed: the next scan (here asked for with the repository extension's load) brings it up.
	if code, _, body := do(t, "POST", ts.URL+"/v2/repository/models/halfdone/load", nil, nil); code != 503 ||
		!strings.Contains(string(body), "version 2") {
		t.Fatalf("load of the still broken model: %d %s", code, body)
	}
	copyFile(t, filepath.Join(fixtureDir(t), "cnn-0000.params"), filepath.Join(dir, "halfdone-0002.params"))
	if code, _, body := do(t, "POST", ts.URL+"/v2/repository/models/halfdone/load", nil, nil); code != 200 {
		t.Fatalf("load of the fixed model: %d %s", code, body)
	}
	if code, _, _ := do(t, "POST", ts.URL+"/v2/repository/models/resnet/load", nil, nil); code != 404 {
		t.Fatalf("load of a model that is not there: %d", code)
	}
	if err := s.reg.scan(); err != nil {
		t.Fatal(err)
	}
	code, reply := v2Scores(t, ts.URL+"/v2/models/halfdone/infer", fx)
	if code != 200 || reply.ModelVersion != "2" {
		t.Fatalf("fixed model: %d %+v", code, reply)
	}
	assertClose64(t, "fixed model", reply.Outputs[0].Data, fx.output, 1e-4)
}
