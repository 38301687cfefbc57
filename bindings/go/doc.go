// Package weft is the Go binding of the Weft deep-learning library: NDArrays,
// MXNet 1.x parameter and symbol files, and a Predictor over the predict API
// (capi/include/weft/c_predict_api.h) for serving models.
//
// The package links libweft.so with cgo. Tell the linker where the library is
// through the environment, e.g.
//
//	CGO_LDFLAGS="-L/path/to/build -Wl,-rpath,/path/to/build" go test ./...
//
// Models load from paths (LoadPredictor), any fs.FS such as an embed.FS
// (LoadPredictorFrom) or io.Readers (LoadPredictorReader). Calls that can take
// long have context-taking forms (Pool.Get, Pool.Do, Predictor.Predict,
// ForwardContext, ReshapeContext).
//
// Errors from the library are returned as *Error values that carry the
// library's status code and message (errors.As(err, &werr), then
// werr.Status); a file that cannot be read unwraps to its Go error, so
// errors.Is(err, fs.ErrNotExist) holds for a missing one. Every handle type
// has Close and a finalizer that frees it when the Go value becomes
// unreachable. `go doc -ex` shows runnable examples.
//
// Concurrency: NDArray, Symbol and Predictor values may be used from any
// goroutine; calls on one Predictor are serialised by a mutex, so run
// predictions concurrently with one Predictor per goroutine or a Pool.
package weft
