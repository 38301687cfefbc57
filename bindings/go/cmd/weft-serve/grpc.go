package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"

	"weft.dev/weft/internal/inferpb"
)

// Note [gRPC API]: with -grpc-addr weft-serve also answers the Open Inference
// Protocol v2 over gRPC, as Triton's service inference.GRPCInferenceService
// (internal/inferpb; tritonclient.grpc calls it): ServerLive, ServerReady,
// ModelReady, ServerMetadata, ModelMetadata, ModelInfer, and the extensions
// the REST API has: ModelConfig, ModelStatistics, RepositoryIndex. Every RPC
// is a translation of the REST answer: the same functions give the values
// (serverMetadata, modelMetadata, modelConfig, statistics, repositoryIndex)
// and inference runs through the same input checks (v2CheckInput,
// v2CheckComplete), server.infer and output picks (v2PickOutputs) as POST
// /v2/models/NAME/infer, so the two protocols cannot drift apart. Outputs go
// back as raw_output_contents, as Triton sends them; inputs may come as
// raw_input_contents or typed InferTensorContents (grpc_infer.go). The HTTP
// status a REST handler would answer becomes the matching gRPC code
// (grpcCode), with the same message.

// grpcService implements inferpb.GRPCInferenceServiceServer over a server.
type grpcService struct {
	inferpb.UnimplementedGRPCInferenceServiceServer
	s *server
}

// newGRPCServer is the gRPC server of s: requests up to -max-body bytes,
// connections idle for 2 minutes closed (as the HTTP server's IdleTimeout),
// one log line per call (unless -quiet).
func newGRPCServer(s *server) *grpc.Server {
	limit := int(min(s.cfg.maxBody, 1<<31-1))
	gs := grpc.NewServer(grpc.MaxRecvMsgSize(limit), grpc.UnaryInterceptor(s.grpcLog),
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: 2 * time.Minute}))
	inferpb.RegisterGRPCInferenceServiceServer(gs, &grpcService{s: s})
	return gs
}

// grpcCode is the gRPC status code for the HTTP status a REST handler gives.
func grpcCode(httpStatus int) codes.Code {
	switch httpStatus {
	case http.StatusBadRequest, http.StatusUnsupportedMediaType:
		return codes.InvalidArgument
	case http.StatusNotFound:
		return codes.NotFound
	case http.StatusTooManyRequests, http.StatusRequestEntityTooLarge:
		return codes.ResourceExhausted
	case http.StatusServiceUnavailable:
		return codes.Unavailable
	case http.StatusGatewayTimeout:
		return codes.DeadlineExceeded
	}
	return codes.Internal
}

// httpStatusOf is the HTTP status matching a gRPC error, for the metrics,
// which count requests of both protocols by HTTP status.
func httpStatusOf(err error) int {
	switch status.Code(err) {
	case codes.OK:
		return http.StatusOK
	case codes.InvalidArgument:
		return http.StatusBadRequest
	case codes.NotFound:
		return http.StatusNotFound
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unavailable, codes.Canceled:
		return http.StatusServiceUnavailable
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// grpcLookupError turns a registry lookup's error into a gRPC status.
func grpcLookupError(err error) error {
	var le *lookupError
	if errors.As(err, &le) {
		return status.Error(grpcCode(le.status), le.msg)
	}
	return status.Error(codes.Internal, err.Error())
}

// grpcRequestKey carries a call's requestInfo (set by ModelInfer) to grpcLog.
type grpcRequestKey struct{}

// grpcLog writes one JSON log line per call, as instrument does for HTTP.
func (s *server) grpcLog(ctx context.Context, req any, call *grpc.UnaryServerInfo,
	handler grpc.UnaryHandler) (any, error) {
	start := time.Now()
	info := &requestInfo{protocol: "grpc"}
	resp, err := handler(context.WithValue(ctx, grpcRequestKey{}, info), req)
	if s.cfg.quiet {
		return resp, err
	}
	attrs := []any{"method", call.FullMethod, "code", status.Code(err).String(),
		"duration_ms", float64(time.Since(start).Microseconds()) / 1000}
	if info.id != "" {
		attrs = append(attrs, "request_id", info.id)
	}
	if info.model != "" {
		attrs = append(attrs, "model", info.model, "version", info.version)
	}
	s.log.Info("grpc request", attrs...)
	return resp, err
}

func (g *grpcService) ServerLive(context.Context, *inferpb.ServerLiveRequest) (*inferpb.ServerLiveResponse, error) {
	return &inferpb.ServerLiveResponse{Live: true}, nil
}

func (g *grpcService) ServerReady(context.Context, *inferpb.ServerReadyRequest) (*inferpb.ServerReadyResponse, error) {
	return &inferpb.ServerReadyResponse{Ready: g.s.reg.ready()}, nil
}

// ModelReady is false where REST's ready endpoint answers 503 (a version that
// failed to load) or 404 (no such model or version): tritonclient's HTTP
// is_model_ready says False for both, and Triton's gRPC answers false too.
func (g *grpcService) ModelReady(_ context.Context, req *inferpb.ModelReadyRequest) (*inferpb.ModelReadyResponse, error) {
	m, err := g.s.reg.acquire(req.Name, req.Version)
	if err != nil {
		var le *lookupError
		if errors.As(err, &le) && (le.status == http.StatusServiceUnavailable || le.status == http.StatusNotFound) {
			return &inferpb.ModelReadyResponse{Ready: false}, nil
		}
		return nil, grpcLookupError(err)
	}
	m.refs.Done()
	return &inferpb.ModelReadyResponse{Ready: true}, nil
}

func (g *grpcService) ServerMetadata(context.Context, *inferpb.ServerMetadataRequest) (
	*inferpb.ServerMetadataResponse, error) {
	meta := serverMetadata()
	return &inferpb.ServerMetadataResponse{Name: meta.Name, Version: meta.Version, Extensions: meta.Extensions}, nil
}

func (g *grpcService) ModelMetadata(_ context.Context, req *inferpb.ModelMetadataRequest) (
	*inferpb.ModelMetadataResponse, error) {
	meta, err := g.s.modelMetadata(req.Name, req.Version)
	if err != nil {
		return nil, grpcLookupError(err)
	}
	tensors := func(ts []v2TensorMeta) []*inferpb.ModelMetadataResponse_TensorMetadata {
		out := make([]*inferpb.ModelMetadataResponse_TensorMetadata, len(ts))
		for i, t := range ts {
			out[i] = &inferpb.ModelMetadataResponse_TensorMetadata{Name: t.Name, Datatype: t.Datatype, Shape: t.Shape}
		}
		return out
	}
	return &inferpb.ModelMetadataResponse{Name: meta.Name, Versions: meta.Versions, Platform: meta.Platform,
		Inputs: tensors(meta.Inputs), Outputs: tensors(meta.Outputs)}, nil
}

func (g *grpcService) ModelConfig(_ context.Context, req *inferpb.ModelConfigRequest) (
	*inferpb.ModelConfigResponse, error) {
	cfg, err := g.s.modelConfig(req.Name, req.Version)
	if err != nil {
		return nil, grpcLookupError(err)
	}
	out := &inferpb.ModelConfig{Name: cfg.Name, Platform: cfg.Platform, Backend: cfg.Backend,
		MaxBatchSize: int32(cfg.MaxBatchSize),
		VersionPolicy: &inferpb.ModelVersionPolicy{PolicyChoice: &inferpb.ModelVersionPolicy_Latest_{
			Latest: &inferpb.ModelVersionPolicy_Latest{NumVersions: uint32(cfg.VersionPolicy.Latest.NumVersions)}}}}
	for _, t := range cfg.Input {
		out.Input = append(out.Input, &inferpb.ModelInput{Name: t.Name,
			DataType: inferpb.DataType(inferpb.DataType_value[t.DataType]),
			Format:   inferpb.ModelInput_Format(inferpb.ModelInput_Format_value[t.Format]), Dims: t.Dims})
	}
	for _, t := range cfg.Output {
		out.Output = append(out.Output, &inferpb.ModelOutput{Name: t.Name,
			DataType: inferpb.DataType(inferpb.DataType_value[t.DataType]), Dims: t.Dims,
			LabelFilename: t.LabelFilename})
	}
	for _, ig := range cfg.InstanceGroup {
		out.InstanceGroup = append(out.InstanceGroup, &inferpb.ModelInstanceGroup{Name: ig.Name,
			Kind: inferpb.ModelInstanceGroup_Kind(inferpb.ModelInstanceGroup_Kind_value[ig.Kind]), Count: int32(ig.Count)})
	}
	if b := cfg.DynamicBatching; b != nil {
		db := &inferpb.ModelDynamicBatching{MaxQueueDelayMicroseconds: uint64(b.MaxQueueDelayMicroseconds)}
		for _, n := range b.PreferredBatchSize {
			db.PreferredBatchSize = append(db.PreferredBatchSize, int32(n))
		}
		out.SchedulingChoice = &inferpb.ModelConfig_DynamicBatching{DynamicBatching: db}
	}
	return &inferpb.ModelConfigResponse{Config: out}, nil
}

func (g *grpcService) ModelStatistics(_ context.Context, req *inferpb.ModelStatisticsRequest) (
	*inferpb.ModelStatisticsResponse, error) {
	stats, err := g.s.statistics(req.Name, req.Version)
	if err != nil {
		return nil, grpcLookupError(err)
	}
	d := func(v statDuration) *inferpb.StatisticDuration {
		return &inferpb.StatisticDuration{Count: uint64(v.Count), Ns: uint64(v.NS)}
	}
	out := &inferpb.ModelStatisticsResponse{}
	for _, st := range stats {
		is := st.InferenceStats
		out.ModelStats = append(out.ModelStats, &inferpb.ModelStatistics{Name: st.Name, Version: st.Version,
			LastInference: uint64(st.LastInference), InferenceCount: uint64(st.InferenceCount),
			ExecutionCount: uint64(st.ExecutionCount),
			InferenceStats: &inferpb.InferStatistics{Success: d(is.Success), Fail: d(is.Fail), Queue: d(is.Queue),
				ComputeInput: d(is.ComputeInput), ComputeInfer: d(is.ComputeInfer),
				ComputeOutput: d(is.ComputeOutput), CacheHit: d(is.CacheHit), CacheMiss: d(is.CacheMiss)}})
	}
	return out, nil
}

// RepositoryIndex lists every model version; ready=true keeps the READY ones
// (as Triton). weft-serve has one repository, so repository_name is not read.
func (g *grpcService) RepositoryIndex(_ context.Context, req *inferpb.RepositoryIndexRequest) (
	*inferpb.RepositoryIndexResponse, error) {
	out := &inferpb.RepositoryIndexResponse{}
	for _, r := range g.s.repositoryIndex() {
		if req.Ready && r.State != "READY" {
			continue
		}
		out.Models = append(out.Models, &inferpb.RepositoryIndexResponse_ModelIndex{Name: r.Name, Version: r.Version,
			State: r.State, Reason: r.Reason})
	}
	return out, nil
}

// listenGRPC starts the gRPC API on addr; stop ends it, letting calls in
// flight finish for up to grace.
func listenGRPC(s *server, addr string) (bound string, stop func(grace time.Duration), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, err
	}
	gs := newGRPCServer(s)
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := gs.Serve(ln); err != nil {
			s.log.Error("grpc server failed", "error", err.Error())
		}
	}()
	stop = func(grace time.Duration) {
		done := make(chan struct{})
		go func() { gs.GracefulStop(); close(done) }()
		select {
		case <-done:
		case <-time.After(grace):
			gs.Stop()
		}
		<-served
	}
	return ln.Addr().String(), stop, nil
}

// versionText is m's version as the v2 protocol writes it.
func versionText(m *model) string { return strconv.Itoa(m.version) }
