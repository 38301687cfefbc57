// Command weft-serve serves every model of a directory over HTTP: the KServe
// / Open Inference Protocol v2 REST API (/v2/...), the v1 API (/v1/models/...)
// and Prometheus metrics (/metrics); with -grpc-addr also the v2 gRPC API
// (Triton's inference.GRPCInferenceService; Note [gRPC API] in grpc.go).
//
//	weft-serve -models DIR [-addr 127.0.0.1:8080] [-grpc-addr 127.0.0.1:8081]
//	weft-serve [flags] DIR [ADDR]          (the same, the folder and address as arguments)
//
// A model is NAME-symbol.json with NAME-NNNN.params files, as MXNet's
// export and save_checkpoint write them; each epoch NNNN is a version and the
// newest answers by default. Nothing else is needed: input shapes come from
// each request, and inputs read only as a loss's label (softmax_label) are
// bound internally. The directory is polled: models that appear, change or
// go are loaded, reloaded or dropped while the server runs. See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	// Note [OpenMP wait policy in weft-serve]; before the probe child's check,
	// which inherits the variable.
	reexecWithPassiveWait()
	if len(os.Args) > 1 && os.Args[1] == probeArg { // a child the server started (Note [Load probe])
		os.Exit(probeMain(os.Stdin, os.Stdout))
	}
	opts, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "weft-serve:", err)
		}
		os.Exit(2)
	}
	opts.cfg.logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := serve(opts.cfg, opts.addr, opts.readTimeout, opts.writeTimeout); err != nil {
		opts.cfg.logger.Error("weft-serve failed", "error", err.Error())
		os.Exit(1)
	}
}

// options are the parsed command line.
type options struct {
	cfg                       config
	addr                      string
	readTimeout, writeTimeout time.Duration
}

// parseFlags reads the command line (usage and errors go to out).
func parseFlags(args []string, out io.Writer) (options, error) {
	o := options{cfg: config{shapes: shapeFlags{}, probeMemory: 8 << 30}}
	cfg := &o.cfg
	fs := flag.NewFlagSet("weft-serve", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintln(out, "usage: weft-serve [flags] DIR [ADDR]    (or: weft-serve -models DIR [-addr ADDR] [flags])")
		fs.PrintDefaults()
	}
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen address (port 0: any free port, printed at start)")
	fs.StringVar(&cfg.grpcAddr, "grpc-addr", "", "the v2 gRPC API's listen address, HOST:PORT (port 0: any free port; empty: off)")
	fs.StringVar(&cfg.modelDir, "models", "", "directory of NAME-symbol.json + NAME-NNNN.params models")
	fs.IntVar(&cfg.poolSize, "pool", 2, "predictions running at once per model version")
	fs.IntVar(&cfg.queueMax, "queue", 64, "requests waiting beyond those per model version; more get 429")
	fs.IntVar(&cfg.batchMax, "batch-max", 0, "dynamic batching: most rows per batch (0 or 1: off)")
	fs.DurationVar(&cfg.batchDelay, "batch-delay", 2*time.Millisecond, "dynamic batching: longest wait for more requests")
	fs.Int64Var(&cfg.maxBody, "max-body", 16<<20, "largest request body in bytes")
	fs.IntVar(&cfg.maxShapes, "max-shapes", 16, "input shapes with cached predictors per model version (LRU)")
	fs.IntVar(&cfg.maxVersions, "max-versions", 3, "newest epochs served per model")
	fs.DurationVar(&cfg.timeout, "timeout", 30*time.Second, "default request deadline (X-Request-Timeout or v2 \"timeout\" override it)")
	fs.DurationVar(&cfg.poll, "poll", 2*time.Second, "how often the model directory is rescanned (0: never)")
	fs.DurationVar(&o.readTimeout, "read-timeout", 30*time.Second, "longest time to read a request")
	fs.DurationVar(&o.writeTimeout, "write-timeout", 60*time.Second, "longest time to answer a request")
	fs.DurationVar(&cfg.probeTimeout, "probe-timeout", time.Minute,
		"longest a new model version's load probe (a child process) may take; past it the version is unavailable")
	fs.Var((*byteSize)(&cfg.probeMemory), "probe-memory",
		"memory a load probe may map (512M, 8G; 0: no limit); past it the version is unavailable")
	fs.BoolVar(&cfg.quiet, "quiet", false, "no per-request log lines")
	fs.Var(cfg.shapes, "shape", "optional shape hint MODEL:INPUT=D0,D1,... (repeatable): checks the model fully at load")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	// weft-serve DIR [ADDR]: the folder and address may be the arguments.
	addrSet := false
	fs.Visit(func(f *flag.Flag) { addrSet = addrSet || f.Name == "addr" })
	switch args := fs.Args(); {
	case len(args) > 2:
		return o, fmt.Errorf("unexpected arguments %v (want DIR [ADDR], flags before them; see -h)", args[2:])
	case len(args) > 0 && cfg.modelDir != "":
		return o, fmt.Errorf("the folder is given twice: -models %s and %q", cfg.modelDir, args[0])
	case len(args) == 2 && addrSet:
		return o, fmt.Errorf("the address is given twice: -addr %s and %q", o.addr, args[1])
	case len(args) > 0:
		cfg.modelDir = args[0]
		if len(args) == 2 {
			o.addr = args[1]
		}
	}
	if cfg.modelDir == "" || cfg.poolSize < 1 || cfg.maxBody < 1 || cfg.batchDelay < 0 || cfg.queueMax < 0 ||
		cfg.maxShapes < 1 || cfg.maxVersions < 1 || cfg.timeout <= 0 || cfg.poll < 0 || cfg.probeTimeout <= 0 {
		fs.Usage()
		return o, fmt.Errorf("-models DIR (or DIR as the argument) is required; -pool, -max-body, -max-shapes, -max-versions, -timeout and -probe-timeout " +
			"must be positive, -queue and -poll not negative")
	}
	return o, nil
}

// serve loads the models, listens, polls the directory, and on SIGTERM or
// SIGINT stops accepting, lets running requests finish (up to 30 s) and frees
// the models.
func serve(cfg config, addr string, readTimeout, writeTimeout time.Duration) error {
	start := time.Now()
	s, err := newServer(cfg)
	if err != nil {
		return err
	}
	defer s.close()
	logger := s.log
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s.handler(), ReadTimeout: readTimeout, ReadHeaderTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if cfg.poll > 0 {
		go s.reg.poll(ctx, cfg.poll)
	}
	grpcNote, stopGRPC := "", func(time.Duration) {}
	if cfg.grpcAddr != "" {
		bound, stop, err := listenGRPC(s, cfg.grpcAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("-grpc-addr: %w", err)
		}
		grpcNote, stopGRPC = "; gRPC on "+bound, stop
		defer stopGRPC(0) // an early return: no calls to wait for
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// Scripts wait for this line (or poll /v2/health/ready) to learn the ports.
	logger.Info(fmt.Sprintf("listening on http://%s (models: %d%s)", ln.Addr(), len(s.reg.names()), grpcNote),
		"addr", ln.Addr().String(), "ready_ms", time.Since(start).Milliseconds())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stopGRPC(30 * time.Second)
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Info("stopped")
	return nil
}

// byteSize is a -probe-memory value: bytes, or with a K, M, G or T suffix
// (powers of 1024); 0 means no limit, kept as -1 (config.probeMemory).
type byteSize int64

func (b *byteSize) String() string {
	if b == nil || *b < 0 {
		return "0"
	}
	return formatBytes(int64(*b))
}

func (b *byteSize) Set(v string) error {
	text := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(v)), "B"), "I"))
	shift := 0
	if text != "" {
		if i := strings.IndexByte("KMGT", text[len(text)-1]); i >= 0 {
			shift, text = 10*(i+1), text[:len(text)-1]
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return fmt.Errorf("want a size such as 512M or 8G (0: no limit), got %q", v)
	}
	if n == 0 {
		*b = -1
		return nil
	}
	*b = byteSize(n << shift)
	return nil
}

// formatBytes writes n the way byteSize reads it (the largest exact unit).
func formatBytes(n int64) string {
	for _, u := range []struct {
		suffix string
		shift  uint
	}{{"T", 40}, {"G", 30}, {"M", 20}, {"K", 10}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d%s", n>>u.shift, u.suffix)
		}
	}
	return strconv.FormatInt(n, 10)
}
