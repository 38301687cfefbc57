package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"weft.dev/weft/internal/inferpb"
)

// grpcClient serves s's gRPC API in process (over an in-memory connection)
// and gives a client of it.
func grpcClient(t testing.TB, s *server) inferpb.GRPCInferenceServiceClient {
	t.Helper()
	ln := bufconn.Listen(1 << 20)
	gs := newGRPCServer(s)
	go gs.Serve(ln)
	conn, err := grpc.Dial("bufnet", grpc.WithInsecure(),
		grpc.WithContextDialer(func(context.Context, string) (net.Conn, error) { return ln.Dial() }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); gs.Stop() })
	return inferpb.NewGRPCInferenceServiceClient(conn)
}

func callCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func rawInfer(name string, shape []int64, datatype string, data []byte) *inferpb.ModelInferRequest {
	return &inferpb.ModelInferRequest{ModelName: name, Inputs: []*inferpb.ModelInferRequest_InferInputTensor{
		{Name: "data", Datatype: datatype, Shape: shape}}, RawInputContents: [][]byte{data}}
}

func TestGRPCAnswersWhatRESTAnswers(t *testing.T) {
	dir, fx := exportDir(t)
	want := predictAPI(t, dir, fx.input, 2)
	ts, s, _ := startServer(t, config{modelDir: dir})
	c := grpcClient(t, s)
	ctx := callCtx(t)

	if r, err := c.ServerLive(ctx, &inferpb.ServerLiveRequest{}); err != nil || !r.Live {
		t.Fatalf("ServerLive: %v %v", r, err)
	}
	if r, err := c.ServerReady(ctx, &inferpb.ServerReadyRequest{}); err != nil || !r.Ready {
		t.Fatalf("ServerReady: %v %v", r, err)
	}
	if r, err := c.ModelReady(ctx, &inferpb.ModelReadyRequest{Name: "cnn", Version: "0"}); err != nil || !r.Ready {
		t.Fatalf("ModelReady: %v %v", r, err)
	}
	_, restMeta := getJSON(t, ts.URL+"/v2")
	sm, err := c.ServerMetadata(ctx, &inferpb.ServerMetadataRequest{})
	if err != nil || sm.Name != restMeta["name"] || sm.Version != restMeta["version"] ||
		fmt.Sprint(sm.Extensions) != fmt.Sprint(restMeta["extensions"]) {
		t.Fatalf("ServerMetadata %v (%v) vs REST %v", sm, err, restMeta)
	}
	_, restModel := getJSON(t, ts.URL+"/v2/models/cnn")
	mm, err := c.ModelMetadata(ctx, &inferpb.ModelMetadataRequest{Name: "cnn"})
	if err != nil {
		t.Fatal(err)
	}
	tensors := func(ts []*inferpb.ModelMetadataResponse_TensorMetadata) string {
		var parts []string
		for _, t := range ts {
			parts = append(parts, fmt.Sprintf("map[datatype:%s name:%s shape:%v]", t.Datatype, t.Name, t.Shape))
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	if mm.Name != "cnn" || fmt.Sprint(mm.Versions) != fmt.Sprint(restModel["versions"]) ||
		mm.Platform != restModel["platform"] || tensors(mm.Inputs) != fmt.Sprint(restModel["inputs"]) ||
		tensors(mm.Outputs) != fmt.Sprint(restModel["outputs"]) {
		t.Fatalf("ModelMetadata %v vs REST %v", mm, restModel)
	}

	// Inference: raw contents, typed contents and REST JSON give the same floats.
	code, rest := inferV2(t, ts.URL+"/v2/models/cnn/infer", map[string]any{"inputs": []any{map[string]any{
		"name": "data", "shape": []int{2, 3, 8, 8}, "datatype": "FP32", "data": f64s(fx.input)}}}, nil)
	if code != 200 {
		t.Fatalf("REST infer: %d %+v", code, rest)
	}
	req := rawInfer("cnn", []int64{2, 3, 8, 8}, "FP32", f32Bytes(fx.input))
	req.Id = "g-1"
	r, err := c.ModelInfer(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if r.ModelName != "cnn" || r.ModelVersion != "0" || r.Id != "g-1" || len(r.Outputs) != 1 ||
		r.Outputs[0].Name != "cnn_dense1_fwd_output" || r.Outputs[0].Datatype != "FP32" ||
		fmt.Sprint(r.Outputs[0].Shape) != "[2 5]" || len(r.RawOutputContents) != 1 {
		t.Fatalf("ModelInfer: %v", r)
	}
	got := bytesF32(r.RawOutputContents[0])
	assertClose(t, "gRPC raw vs predict API", got, want, 1e-6)
	for i, v := range rest.Outputs[0].Data {
		if float32(v) != got[i] {
			t.Fatalf("gRPC output %d is %v, REST's %v", i, got[i], v)
		}
	}
	typed := &inferpb.ModelInferRequest{ModelName: "cnn", ModelVersion: "0",
		Inputs: []*inferpb.ModelInferRequest_InferInputTensor{{Name: "data", Datatype: "FP32", Shape: []int64{2, 3, 8, 8},
			Contents: &inferpb.InferTensorContents{Fp32Contents: fx.input}}},
		Outputs: []*inferpb.ModelInferRequest_InferRequestedOutputTensor{{Name: "cnn_dense1_fwd_output"}}}
	r, err = c.ModelInfer(ctx, typed)
	if err != nil {
		t.Fatal(err)
	}
	assertClose(t, "gRPC typed vs raw", bytesF32(r.RawOutputContents[0]), got, 0)

	// Classification: the top 2 of each row as BYTES, as REST gives them.
	cls := rawInfer("cnn", []int64{2, 3, 8, 8}, "FP32", f32Bytes(fx.input))
	cls.Outputs = []*inferpb.ModelInferRequest_InferRequestedOutputTensor{{Name: "cnn_dense1_fwd_output",
		Parameters: map[string]*inferpb.InferParameter{"classification": {
			ParameterChoice: &inferpb.InferParameter_Int64Param{Int64Param: 2}}}}}
	r, err = c.ModelInfer(ctx, cls)
	if err != nil {
		t.Fatal(err)
	}
	if o := r.Outputs[0]; o.Datatype != "BYTES" || fmt.Sprint(o.Shape) != "[2 2]" {
		t.Fatalf("classification: %v", r)
	}
	var classes []string
	for b := r.RawOutputContents[0]; len(b) >= 4; {
		n := int(b[0]) | int(b[1])<<8 | int(b[2])<<16 | int(b[3])<<24
		classes, b = append(classes, string(b[4:4+n])), b[4+n:]
	}
	assertClasses(t, classes, append(topK(want[:5], 2, nil), topK(want[5:], 2, nil)...))

	// Configuration, statistics and the repository index are REST's.
	_, restCfg := getJSON(t, ts.URL+"/v2/models/cnn/config")
	mc, err := c.ModelConfig(ctx, &inferpb.ModelConfigRequest{Name: "cnn"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := mc.Config
	in, out := cfg.Input[0], cfg.Output[0]
	gotCfg := fmt.Sprintf("%s %s %s %d [map[data_type:%s dims:%v format:%s name:%s]] "+
		"[map[data_type:%s dims:%v name:%s]] [map[count:%d kind:%s name:%s]] map[latest:map[num_versions:%d]]",
		cfg.Name, cfg.Platform, cfg.Backend, cfg.MaxBatchSize, in.DataType, in.Dims, in.Format, in.Name,
		out.DataType, out.Dims, out.Name, cfg.InstanceGroup[0].Count, cfg.InstanceGroup[0].Kind,
		cfg.InstanceGroup[0].Name, cfg.GetVersionPolicy().GetLatest().NumVersions)
	wantCfg := fmt.Sprint(restCfg["name"], " ", restCfg["platform"], " ", restCfg["backend"], " ",
		restCfg["max_batch_size"], " ", restCfg["input"], " ", restCfg["output"], " ", restCfg["instance_group"],
		" ", restCfg["version_policy"])
	if gotCfg != wantCfg || cfg.GetDynamicBatching() != nil || restCfg["dynamic_batching"] != nil {
		t.Fatalf("ModelConfig\n %s\nREST\n %s", gotCfg, wantCfg)
	}
	restStats := getStats(t, ts.URL+"/v2/models/cnn/stats")
	ms, err := c.ModelStatistics(ctx, &inferpb.ModelStatisticsRequest{Name: "cnn"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms.ModelStats) != 1 || len(restStats.ModelStats) != 1 {
		t.Fatalf("ModelStatistics %v, REST %+v", ms, restStats)
	}
	g, rs := ms.ModelStats[0], restStats.ModelStats[0]
	if g.Name != "cnn" || g.Version != "0" || g.InferenceCount != 8 || g.ExecutionCount != 4 ||
		g.InferenceStats.Success.Count != 4 || int64(g.InferenceCount) != rs.InferenceCount ||
		int64(g.InferenceStats.Success.Ns) != rs.InferenceStats["success"].NS ||
		int64(g.InferenceStats.ComputeInfer.Ns) != rs.InferenceStats["compute_infer"].NS {
		t.Fatalf("ModelStatistics %v, REST %+v", g, rs)
	}
	_, _, body := do(t, "POST", ts.URL+"/v2/repository/index", nil, nil)
	var restIndex []repoRow
	if err := json.Unmarshal(body, &restIndex); err != nil {
		t.Fatal(err)
	}
	ri, err := c.RepositoryIndex(ctx, &inferpb.RepositoryIndexRequest{})
	if err != nil || len(ri.Models) != 1 || ri.Models[0].Name != "cnn" || ri.Models[0].Version != "0" ||
		ri.Models[0].State != "READY" || fmt.Sprint(restIndex) != "[{cnn 0 READY }]" {
		t.Fatalf("RepositoryIndex: %v %v; REST %v", ri, err, restIndex)
	}
}

// statusOf checks an RPC's error: its code and that its message names what.
func statusOf(t *testing.T, what string, err error, code codes.Code, msg string) {
	t.Helper()
	st, _ := status.FromError(err)
	if st.Code() != code || !strings.Contains(st.Message(), msg) {
		t.Errorf("%s: got %v %q, want %v with %q", what, st.Code(), st.Message(), code, msg)
	}
}

func TestGRPCErrorsHaveCodesAndTheServerKeepsAnswering(t *testing.T) {
	dir, fx := modelDir(t) // epoch 3 serves, epoch 1 is a broken file
	_, s, _ := startServer(t, config{modelDir: dir, maxBody: 64 << 10})
	c := grpcClient(t, s)
	ctx := callCtx(t)
	img := f32Bytes(fx.input[:3*8*8])
	shape := []int64{1, 3, 8, 8}

	_, err := c.ModelMetadata(ctx, &inferpb.ModelMetadataRequest{Name: "nope"})
	statusOf(t, "metadata of an unknown model", err, codes.NotFound, "unknown model 'nope'")
	_, err = c.ModelInfer(ctx, rawInfer("nope", shape, "FP32", img))
	statusOf(t, "unknown model", err, codes.NotFound, "unknown model 'nope'")
	if r, err := c.ModelReady(ctx, &inferpb.ModelReadyRequest{Name: "nope"}); err != nil || r.Ready {
		t.Errorf("ready of an unknown model: %v %v", r, err)
	}
	_, err = c.ModelConfig(ctx, &inferpb.ModelConfigRequest{Name: "cnn", Version: "9"})
	statusOf(t, "unknown version", err, codes.NotFound, "version '9'")
	_, err = c.ModelStatistics(ctx, &inferpb.ModelStatisticsRequest{Name: "nope"})
	statusOf(t, "statistics of an unknown model", err, codes.NotFound, "unknown model")
	if r, err := c.ModelReady(ctx, &inferpb.ModelReadyRequest{Name: "cnn", Version: "1"}); err != nil || r.Ready {
		t.Errorf("the broken epoch 1: %v %v", r, err)
	}

	bad := []struct {
		what string
		req  *inferpb.ModelInferRequest
		code codes.Code
		msg  string
	}{
		{"bad shape", rawInfer("cnn", []int64{1, 3, 8, 9}, "FP32", img), codes.InvalidArgument, "raw_input_contents"},
		{"graph refuses the shape", rawInfer("cnn", []int64{1, 3, 4, 48}, "FP32", make([]byte, 3*4*48*4)),
			codes.InvalidArgument, "model cnn"},
		{"bad dtype", rawInfer("cnn", shape, "FP64", append(img, img...)), codes.InvalidArgument, "is FP32, the request says FP64"},
		{"unknown dtype", rawInfer("cnn", shape, "FP8", img), codes.InvalidArgument, `datatype "FP8"`},
		{"negative dim", rawInfer("cnn", []int64{-1, 3, 8, 8}, "FP32", img), codes.InvalidArgument, "negative"},
		{"overflowing shape", rawInfer("cnn", []int64{1 << 40, 1 << 40, 8, 8}, "FP32", img), codes.InvalidArgument, "overflows"},
		{"NaN", rawInfer("cnn", shape, "FP32", f32Bytes(append([]float32{float32(math.NaN())}, fx.input[1:3*8*8]...))),
			codes.InvalidArgument, "not finite"},
		{"unknown input", &inferpb.ModelInferRequest{ModelName: "cnn", Inputs: []*inferpb.ModelInferRequest_InferInputTensor{
			{Name: "x", Datatype: "FP32", Shape: shape}}, RawInputContents: [][]byte{img}}, codes.InvalidArgument, "no input 'x'"},
		{"no inputs", &inferpb.ModelInferRequest{ModelName: "cnn"}, codes.InvalidArgument, "input 'data' is missing"},
		{"no contents", &inferpb.ModelInferRequest{ModelName: "cnn", Inputs: []*inferpb.ModelInferRequest_InferInputTensor{
			{Name: "data", Datatype: "FP32", Shape: shape}}}, codes.InvalidArgument, "neither contents"},
		{"typed count", &inferpb.ModelInferRequest{ModelName: "cnn", Inputs: []*inferpb.ModelInferRequest_InferInputTensor{
			{Name: "data", Datatype: "FP32", Shape: shape, Contents: &inferpb.InferTensorContents{Fp32Contents: fx.input[:5]}}}},
			codes.InvalidArgument, "5 values in fp32_contents, the shape has 192"},
		{"raw count", &inferpb.ModelInferRequest{ModelName: "cnn", Inputs: []*inferpb.ModelInferRequest_InferInputTensor{
			{Name: "data", Datatype: "FP32", Shape: shape}}, RawInputContents: [][]byte{img, img}}, codes.InvalidArgument,
			"2 raw_input_contents for 1 inputs"},
		{"unknown output", func() *inferpb.ModelInferRequest {
			r := rawInfer("cnn", shape, "FP32", img)
			r.Outputs = []*inferpb.ModelInferRequest_InferRequestedOutputTensor{{Name: "y"}}
			return r
		}(), codes.InvalidArgument, "no output 'y'"},
		{"bad timeout", func() *inferpb.ModelInferRequest {
			r := rawInfer("cnn", shape, "FP32", img)
			r.Parameters = map[string]*inferpb.InferParameter{"timeout": {
				ParameterChoice: &inferpb.InferParameter_StringParam{StringParam: "1s"}}}
			return r
		}(), codes.InvalidArgument, `"timeout"`},
		{"over -max-body", rawInfer("cnn", []int64{200, 3, 8, 8}, "FP32", make([]byte, 200*3*8*8*4)),
			codes.ResourceExhausted, "larger than max"},
	}
	for _, b := range bad {
		_, err := c.ModelInfer(ctx, b.req)
		statusOf(t, b.what, err, b.code, b.msg)
	}
	r, err := c.ModelInfer(ctx, rawInfer("cnn", shape, "FP32", img))
	if err != nil {
		t.Fatalf("after the bad requests: %v", err)
	}
	assertClose(t, "after the bad requests", bytesF32(r.RawOutputContents[0]), fx.output[:5], 1e-4)
	ms, err := c.ModelStatistics(ctx, &inferpb.ModelStatisticsRequest{Name: "cnn", Version: "3"})
	// Two predictions ran: the last one and the unknown output's (outputs are
	// picked after the prediction, as in REST); the one the graph refused failed.
	if err != nil || ms.ModelStats[0].InferenceStats.Success.Count != 2 || ms.ModelStats[0].InferenceStats.Fail.Count != 1 {
		t.Fatalf("statistics: %v %v", ms, err)
	}
}

func TestGRPCListensAndStops(t *testing.T) {
	dir, fx := exportDir(t)
	_, s, _ := startServer(t, config{modelDir: dir})
	addr, stop, err := listenGRPC(s, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.Dial(addr, grpc.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := inferpb.NewGRPCInferenceServiceClient(conn)
	r, err := c.ModelInfer(callCtx(t), rawInfer("cnn", []int64{2, 3, 8, 8}, "FP32", f32Bytes(fx.input)))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.RawOutputContents) != 1 {
		t.Fatalf("over TCP: %v", r)
	}
	assertClose(t, "over TCP", bytesF32(r.RawOutputContents[0]), fx.output, 1e-4)
	stop(5 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := c.ServerLive(ctx, &inferpb.ServerLiveRequest{}); err == nil {
		t.Fatal("the server answers after stop")
	}
	if _, _, err := listenGRPC(s, "127.0.0.1:"+strconv.Itoa(-1)); err == nil {
		t.Fatal("a bad address was accepted")
	}
}
