// Command weft-serve serves every model of a directory over HTTP.
//
//	weft-serve -models DIR [-addr 127.0.0.1:8080] [-pool 2] [-batch-max 0] [-batch-delay 2ms]
//	           [-max-body 16777216] [-shape MODEL:INPUT=1,3,224,224 ...]
//
// A model is NAME-symbol.json with NAME-NNNN.params (the highest epoch NNNN
// wins). Input shapes come from -shape, else NAME-shapes.json
// ({"data": [1, 3, 224, 224]}), else the input's __shape__ attribute; axis 0
// is the batch and takes any size per request. See README.md for the API.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	cfg := config{shapes: shapeFlags{}}
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (port 0: any free port, printed at start)")
	flag.StringVar(&cfg.modelDir, "models", "", "directory of NAME-symbol.json + NAME-NNNN.params models")
	flag.IntVar(&cfg.poolSize, "pool", 2, "predictors per model (requests run in parallel up to this)")
	flag.IntVar(&cfg.batchMax, "batch-max", 0, "dynamic batching: most rows per batch (0 or 1: off)")
	flag.DurationVar(&cfg.batchDelay, "batch-delay", 2*time.Millisecond, "dynamic batching: longest wait for more requests")
	flag.Int64Var(&cfg.maxBody, "max-body", 16<<20, "largest request body in bytes")
	readTimeout := flag.Duration("read-timeout", 30*time.Second, "longest time to read a request")
	writeTimeout := flag.Duration("write-timeout", 60*time.Second, "longest time to answer a request")
	quiet := flag.Bool("quiet", false, "no per-request log lines")
	flag.Var(cfg.shapes, "shape", "input shape MODEL:INPUT=D0,D1,... (repeatable)")
	flag.Parse()
	if cfg.modelDir == "" || cfg.poolSize < 1 || cfg.maxBody < 1 || cfg.batchDelay < 0 {
		fmt.Fprintln(os.Stderr, "weft-serve: -models is required; -pool and -max-body must be positive")
		flag.Usage()
		os.Exit(2)
	}
	logger := log.New(os.Stderr, "weft-serve: ", log.LstdFlags|log.Lmicroseconds)
	if !*quiet {
		cfg.logger = logger
	}
	if err := serve(cfg, *addr, *readTimeout, *writeTimeout, logger); err != nil {
		logger.Print(err)
		os.Exit(1)
	}
}

// serve loads the models, listens, and on SIGTERM or SIGINT stops accepting,
// lets running requests finish (up to 30 s) and frees the models.
func serve(cfg config, addr string, readTimeout, writeTimeout time.Duration, logger *log.Logger) error {
	start := time.Now()
	s, err := newServer(cfg)
	if err != nil {
		return err
	}
	defer s.close()
	for _, name := range s.names {
		m := s.models[name]
		logger.Printf("model %s (epoch %d): inputs %s, %d predictors, dynamic batching %v", name, m.epoch,
			m.inputNames(), m.pool.Size(), m.batcher != nil)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s.handler(), ReadTimeout: readTimeout, ReadHeaderTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: 2 * time.Minute, ErrorLog: logger}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// Scripts wait for this line (or poll /healthz) to learn the port.
	logger.Printf("listening on http://%s (models: %d, ready in %s)", ln.Addr(), len(s.names),
		time.Since(start).Round(time.Millisecond))
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Print("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	logger.Print("stopped")
	return nil
}
