package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"

	"google.golang.org/grpc"

	"weft.dev/weft/internal/inferpb"
)

// grpcSender connects to url (grpc://HOST:PORT/MODEL) and gives a function
// that sends one ModelInfer call of the input with raw_input_contents, as
// tritonclient.grpc does, and checks that outputs came back.
func grpcSender(url, input string, shape []int, values []float32) (func() error, error) {
	target, ok := strings.CutPrefix(url, "grpc://")
	addr, model, found := strings.Cut(target, "/")
	if !ok || !found || addr == "" || model == "" || strings.Contains(model, "/") {
		return nil, fmt.Errorf("-format grpc: -url %q: want grpc://HOST:PORT/MODEL", url)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := grpc.DialContext(ctx, addr, grpc.WithInsecure(), grpc.WithBlock())
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %v", addr, err)
	}
	client := inferpb.NewGRPCInferenceServiceClient(conn)
	raw := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	dims := make([]int64, len(shape))
	for i, d := range shape {
		dims[i] = int64(d)
	}
	req := &inferpb.ModelInferRequest{ModelName: model,
		Inputs:           []*inferpb.ModelInferRequest_InferInputTensor{{Name: input, Datatype: "FP32", Shape: dims}},
		RawInputContents: [][]byte{raw}}
	return func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		resp, err := client.ModelInfer(ctx, req)
		if err != nil {
			return err
		}
		if len(resp.RawOutputContents) == 0 {
			return fmt.Errorf("a reply without outputs: %v", resp)
		}
		return nil
	}, nil
}
