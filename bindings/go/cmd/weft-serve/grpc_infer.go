package main

import (
	"context"
	"fmt"
	"math"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"weft.dev/weft"
	"weft.dev/weft/internal/inferpb"
)

// ModelInfer is POST /v2/models/NAME/infer over gRPC (Note [gRPC API]).
func (g *grpcService) ModelInfer(ctx context.Context, req *inferpb.ModelInferRequest) (
	*inferpb.ModelInferResponse, error) {
	start := time.Now()
	info, _ := ctx.Value(grpcRequestKey{}).(*requestInfo)
	if info == nil {
		info = &requestInfo{protocol: "grpc"}
	}
	info.id, info.model = req.Id, req.ModelName
	resp, err := g.modelInfer(ctx, req, info)
	if info.version != "" { // a served model's version answered: a bounded metrics label
		g.s.metrics.observeRequest(info.model, info.version, "grpc", httpStatusOf(err), time.Since(start))
	}
	return resp, err
}

func (g *grpcService) modelInfer(ctx context.Context, req *inferpb.ModelInferRequest, info *requestInfo) (
	*inferpb.ModelInferResponse, error) {
	s := g.s
	m, err := s.reg.acquire(req.ModelName, req.ModelVersion)
	if err != nil {
		return nil, grpcLookupError(err)
	}
	defer m.refs.Done()
	info.version = versionText(m)
	inputs, err := grpcInputs(m, req)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	timeout := s.cfg.timeout
	if p := req.Parameters["timeout"]; p != nil { // microseconds, as Triton's
		us, ok := p.ParameterChoice.(*inferpb.InferParameter_Int64Param)
		if !ok || us.Int64Param <= 0 || us.Int64Param > math.MaxInt64/int64(time.Microsecond) {
			return nil, status.Error(codes.InvalidArgument, `parameter "timeout" must be positive int64 microseconds`)
		}
		timeout = time.Duration(us.Int64Param) * time.Microsecond
	}
	asked := make([]v2RequestedOuput, len(req.Outputs))
	for i, o := range req.Outputs {
		asked[i].Name = o.Name
		if p := o.Parameters["classification"]; p != nil {
			k, ok := p.ParameterChoice.(*inferpb.InferParameter_Int64Param)
			if !ok || k.Int64Param < 1 || k.Int64Param > math.MaxInt32 {
				return nil, status.Errorf(codes.InvalidArgument,
					"output '%s': parameter \"classification\" must be a positive int64 class count", o.Name)
			}
			asked[i].Parameters.Classification = int(k.Int64Param)
		}
	}
	outputs, code, err := s.infer(ctx, m, inputs, timeout)
	if err != nil {
		return nil, status.Error(grpcCode(code), inferErrorText(code, m, timeout, err))
	}
	// After the prediction, as REST's encodeV2Reply: a model without a complete
	// signature learns its outputs at its first prediction.
	names := outputNames(m)
	picks, err := v2PickOutputs(m, names, asked, true)
	if err != nil {
		return nil, status.Error(codes.InvalidArgument, err.Error())
	}
	resp := &inferpb.ModelInferResponse{ModelName: m.name, ModelVersion: info.version, Id: req.Id}
	for _, p := range picks {
		t := outputs[p.i]
		out := &inferpb.ModelInferResponse_InferOutputTensor{Name: names[p.i], Datatype: v2DTypeName(t.dtype),
			Shape: t.shape}
		data := t.data
		if p.classes > 0 {
			c, err := classify(t, p.classes, m.labels)
			if err != nil {
				return nil, status.Errorf(codes.InvalidArgument, "output '%s': %v", names[p.i], err)
			}
			out.Datatype, out.Shape, data = "BYTES", c.shape, c.bytesTensor()
		}
		resp.Outputs = append(resp.Outputs, out)
		resp.RawOutputContents = append(resp.RawOutputContents, data)
	}
	return resp, nil
}

// grpcInputs reads a request's tensors in m.inputs order: all of them from
// raw_input_contents (one entry per input, in the request's order, as
// tritonclient sends them), or all from typed contents; checked as REST's.
func grpcInputs(m *model, req *inferpb.ModelInferRequest) ([]tensor, error) {
	raw := len(req.RawInputContents) > 0
	if raw && len(req.RawInputContents) != len(req.Inputs) {
		return nil, fmt.Errorf("%d raw_input_contents for %d inputs: give one per input, or none and typed contents",
			len(req.RawInputContents), len(req.Inputs))
	}
	out := make([]tensor, len(m.inputs))
	given := make([]bool, len(m.inputs))
	for k, in := range req.Inputs {
		i, dtype, n, err := v2CheckInput(m, given, in.Name, in.Datatype, in.Shape)
		if err != nil {
			return nil, err
		}
		t := tensor{shape: in.Shape, dtype: dtype}
		if raw {
			if in.Contents != nil {
				return nil, fmt.Errorf("input '%s' has both typed contents and raw_input_contents", in.Name)
			}
			if int64(len(req.RawInputContents[k])) != n {
				return nil, fmt.Errorf("input '%s': %d bytes of raw_input_contents, but shape %v of %s has %d bytes",
					in.Name, len(req.RawInputContents[k]), in.Shape, in.Datatype, n)
			}
			t.data = req.RawInputContents[k]
		} else {
			if in.Contents == nil {
				return nil, fmt.Errorf("input '%s' has neither contents nor raw_input_contents", in.Name)
			}
			if t.data, err = typedData(in.Contents, dtype, n); err != nil {
				return nil, fmt.Errorf("input '%s': %v", in.Name, err)
			}
		}
		if err := checkFinite(t); err != nil {
			return nil, fmt.Errorf("input '%s': %v", in.Name, err)
		}
		out[i] = t
	}
	return out, v2CheckComplete(m, given, out)
}

// typedData packs InferTensorContents into n bytes of dtype. Each dtype reads
// its field of the protocol (INT8 and INT32 from int_contents, UINT8 from
// uint_contents, ...); FP16 and BF16 have none and must come raw, as in
// Triton. Values outside the dtype's range are refused (putNumber).
func typedData(c *inferpb.InferTensorContents, dtype weft.DType, n int64) ([]byte, error) {
	var values []float64
	var field string
	switch dtype {
	case weft.Bool:
		field = "bool_contents"
		for _, v := range c.BoolContents {
			values = append(values, map[bool]float64{false: 0, true: 1}[v])
		}
	case weft.Uint8:
		field = "uint_contents"
		for _, v := range c.UintContents {
			values = append(values, float64(v))
		}
	case weft.Int8, weft.Int32:
		field = "int_contents"
		for _, v := range c.IntContents {
			values = append(values, float64(v))
		}
	case weft.Int64:
		// int64 does not fit a float64 exactly; copied directly below.
		field = "int64_contents"
		if int64(len(c.Int64Contents))*8 != n {
			return nil, fmt.Errorf("%d values in %s, the shape has %d", len(c.Int64Contents), field, n/8)
		}
		data := make([]byte, n)
		for i, v := range c.Int64Contents {
			for b := 0; b < 8; b++ {
				data[8*i+b] = byte(uint64(v) >> (8 * b))
			}
		}
		return data, nil
	case weft.Float32:
		field = "fp32_contents"
		for _, v := range c.Fp32Contents {
			values = append(values, float64(v))
		}
	case weft.Float64:
		field = "fp64_contents"
		values = c.Fp64Contents
	default:
		return nil, fmt.Errorf("%s has no typed contents field; send it in raw_input_contents", v2DTypeName(dtype))
	}
	size := int64(dtype.Size())
	if int64(len(values))*size != n {
		return nil, fmt.Errorf("%d values in %s, the shape has %d", len(values), field, n/size)
	}
	data := make([]byte, n)
	for i, v := range values {
		if err := putNumber(data, i, dtype, v); err != nil {
			return nil, fmt.Errorf("%s[%d]: %v", field, i, err)
		}
	}
	return data, nil
}
