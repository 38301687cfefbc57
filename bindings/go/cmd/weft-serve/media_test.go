package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// A JSON body sent with no Content-Type or with curl -d's form type is read
// as JSON, on v1 and v2 (Note [Lenient Content-Type]); one that is not JSON
// still gets a 415 naming the type.
func TestBodiesWithoutOrWithFormContentTypeAreReadAsJSON(t *testing.T) {
	dir, fx := modelDir(t)
	ts, _, _ := startServer(t, config{modelDir: dir})
	v1, _ := json.Marshal(map[string]any{"inputs": map[string]any{"data": images(fx, 0, 2)}})
	v2, _ := json.Marshal(map[string]any{"inputs": []any{map[string]any{
		"name": "data", "shape": []int{2, 3, 8, 8}, "datatype": "FP32", "data": f64s(fx.input)}}})
	for _, ct := range []string{"", "application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8"} {
		h := map[string]string{}
		if ct != "" {
			h["Content-Type"] = ct
		}
		code, _, body := do(t, "POST", ts.URL+"/v1/models/cnn:predict", h, v1)
		var reply map[string]any
		if err := json.Unmarshal(body, &reply); code != 200 || err != nil {
			t.Fatalf("v1 with Content-Type %q: %d %s", ct, code, body)
		}
		assertClose(t, "v1 "+ct, flatScores(t, reply), fx.output, 1e-4)

		code, _, body = do(t, "POST", ts.URL+"/v2/models/cnn/infer", h, v2)
		var r2 v2Reply
		if err := json.Unmarshal(body, &r2); code != 200 || err != nil || len(r2.Outputs) != 1 {
			t.Fatalf("v2 with Content-Type %q: %d %s", ct, code, body)
		}
		assertClose64(t, "v2 "+ct, r2.Outputs[0].Data, fx.output, 1e-4)

		for _, path := range []string{"/v1/models/cnn:predict", "/v2/models/cnn/infer"} {
			code, _, body = do(t, "POST", ts.URL+path, h, []byte("data=1&x=2"))
			want := "Content-Type"
			if ct != "" {
				want = ct
			}
			if code != 415 || !strings.Contains(string(body), want) {
				t.Fatalf("%s, form body with Content-Type %q: %d %s", path, ct, code, body)
			}
		}
	}
	code, _, body := do(t, "POST", ts.URL+"/v2/models/cnn/infer", map[string]string{"Content-Type": "text/plain"}, v2)
	if code != 415 || !strings.Contains(string(body), "text/plain") {
		t.Fatalf("text/plain: %d %s", code, body)
	}
}

func TestBodyKindOf(t *testing.T) {
	for ct, want := range map[string]bodyKind{
		"": bodyLenient, "application/json": bodyJSON, "application/json; charset=utf-8": bodyJSON,
		"Application/JSON": bodyJSON, "application/octet-stream": bodyOctet,
		"application/x-www-form-urlencoded": bodyLenient, "text/plain": bodyRefused, "multipart/form-data": bodyRefused,
		";;": bodyRefused,
	} {
		if got := bodyKindOf(ct); got != want {
			t.Errorf("bodyKindOf(%q) = %v, want %v", ct, got, want)
		}
	}
}
