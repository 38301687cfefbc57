package main

// A fuzz test of the gRPC API's input decoding (grpcInputs, typedData): any
// bytes read as a ModelInferRequest either give an error (INVALID_ARGUMENT)
// or exactly the tensors the model is then fed (checkDecoded, as for the REST
// decoders in decode_fuzz_test.go). protobuf-go itself decodes the message;
// what is ours is the reading of its fields. `go test` replays the seeds;
// `go test -fuzz FuzzGRPCInputs ./cmd/weft-serve` explores.

import (
	"math"
	"testing"

	"google.golang.org/protobuf/proto"

	"weft.dev/weft"
	"weft.dev/weft/internal/inferpb"
)

func FuzzGRPCInputs(f *testing.F) {
	in := func(name, dtype string, shape ...int64) *inferpb.ModelInferRequest_InferInputTensor {
		return &inferpb.ModelInferRequest_InferInputTensor{Name: name, Datatype: dtype, Shape: shape}
	}
	seeds := []*inferpb.ModelInferRequest{
		{Inputs: []*inferpb.ModelInferRequest_InferInputTensor{in("data", "FP32", 1, 2)},
			RawInputContents: [][]byte{{0, 0, 128, 63, 0, 0, 0, 64}}},
		{Inputs: []*inferpb.ModelInferRequest_InferInputTensor{in("data", "FP32", 1, 3)}},
		{Inputs: []*inferpb.ModelInferRequest_InferInputTensor{in("data", "FP32", 1, 1)},
			RawInputContents: [][]byte{{0, 0, 128, 127}}}, // +Inf
		{Inputs: []*inferpb.ModelInferRequest_InferInputTensor{in("data", "FP32", 1<<40, 1<<40, 8)}},
		{Inputs: []*inferpb.ModelInferRequest_InferInputTensor{in("a", "INT64", 2), in("b", "UINT8", 2, 1)}},
		{Inputs: []*inferpb.ModelInferRequest_InferInputTensor{in("a", "INT64", 2), in("b", "UINT8", 2, 1)},
			RawInputContents: [][]byte{make([]byte, 16)}},
	}
	seeds[1].Inputs[0].Contents = &inferpb.InferTensorContents{Fp32Contents: []float32{1, 2, float32(math.NaN())}}
	seeds[4].Inputs[0].Contents = &inferpb.InferTensorContents{Int64Contents: []int64{-1, math.MaxInt64}}
	seeds[4].Inputs[1].Contents = &inferpb.InferTensorContents{UintContents: []uint32{255, 256}}
	for _, s := range seeds {
		b, err := proto.Marshal(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x2a, 0x05, 0x0a, 0x03, 'a', 'b', 'c'})
	models := []*model{fuzzModel([]string{"data"}, []weft.DType{weft.Float32}),
		fuzzModel([]string{"a", "b"}, []weft.DType{weft.Int64, weft.Uint8})}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req inferpb.ModelInferRequest
		if proto.Unmarshal(body, &req) != nil {
			return
		}
		for _, m := range models {
			if ts, err := grpcInputs(m, &req); err == nil {
				checkDecoded(t, m, ts)
			}
		}
	})
}
