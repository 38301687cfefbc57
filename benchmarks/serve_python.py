"""The Python side of benchmarks/serve.sh.

    python benchmarks/serve_python.py export DIR
        writes the digits CNN of examples/digits_demo.py (random weights: speed
        does not depend on them) as DIR/digits-symbol.json + digits-0000.params
    python benchmarks/serve_python.py bench DIR [--concurrency 1,4,16] [--duration 5]
        predictions per second and p50/p99 latency of the same model through the
        Python predictor (weft.predictor.Predictor), one predictor per thread,
        one image per call, like one HTTP request to weft-serve.
    python benchmarks/serve_python.py serve DIR [--port 0]
        the Python baseline server: the same prediction behind HTTP
        (http.server.ThreadingHTTPServer, keep-alive, one predictor per thread)
        answering weft-serve's v1 JSON route and the v2 JSON and binary-data
        infer route for the digits model, so weft-loadgen measures both servers
        alike; prints "listening on http://127.0.0.1:PORT".
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
try:
    import weft as mx
except ImportError:  # a source checkout without installing
    sys.path.insert(0, os.path.join(_ROOT, "bindings", "python"))
    import weft as mx
sys.path.insert(0, os.path.join(_ROOT, "examples"))
from digits_demo import build_net  # noqa: E402  (the demo's model definition)
from weft.predictor import Predictor  # noqa: E402

SHAPE = (1, 1, 8, 8)


def export(out_dir):
    mx.random.seed(0)
    net = build_net()
    net.initialize(mx.init.Xavier())
    net.hybridize()
    net(mx.nd.zeros(SHAPE))
    os.makedirs(out_dir, exist_ok=True)
    net.export(os.path.join(out_dir, "digits"), epoch=0)


def bench(model_dir, levels, duration, warmup, as_json=False):
    prefix = os.path.join(model_dir, "digits")
    image = np.random.RandomState(1).uniform(0, 1, size=SHAPE).astype(np.float32)
    if not as_json:
        print("%-6s %11s %9s %10s %9s %9s" % ("python", "concurrency", "requests", "req/s", "p50 ms", "p99 ms"))
    for conc in levels:
        preds = [Predictor(prefix + "-symbol.json", prefix + "-0000.params", {"data": SHAPE}) for _ in range(conc)]
        for phase, seconds in (("warmup", warmup), ("measure", duration)):
            latencies = [[] for _ in range(conc)]
            deadline = time.perf_counter() + seconds

            def worker(i):
                p, mine = preds[i], latencies[i]
                while time.perf_counter() < deadline:
                    t0 = time.perf_counter()
                    p.forward(data=image)[0].argmax()
                    mine.append(time.perf_counter() - t0)

            start = time.perf_counter()
            threads = [threading.Thread(target=worker, args=(i,)) for i in range(conc)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - start
        all_lat = np.sort(np.concatenate([np.array(lat) for lat in latencies])) * 1e3
        n = len(all_lat)
        p50 = all_lat[max(int(np.ceil(0.50 * n)) - 1, 0)]
        p99 = all_lat[max(int(np.ceil(0.99 * n)) - 1, 0)]
        if as_json:
            print(json.dumps({"concurrency": conc, "format": "in-process", "requests": n, "errors": 0,
                              "requests_per_s": n / elapsed, "p50_ms": p50, "p99_ms": p99}), flush=True)
        else:
            print("%-6s %11d %9d %10.1f %9.3f %9.3f" % ("python", conc, n, n / elapsed, p50, p99))


def serve(model_dir, port):
    prefix = os.path.join(model_dir, "digits")
    local = threading.local()

    def predict(image):
        if not hasattr(local, "pred"):
            local.pred = Predictor(prefix + "-symbol.json", prefix + "-0000.params", {"data": SHAPE})
        return np.asarray(local.pred.forward(data=image)[0], dtype=np.float32)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as weft-loadgen's clients expect
        disable_nagle_algorithm = True  # headers and body go as separate writes: no 40 ms delayed-ACK stall

        def log_message(self, *args):
            pass

        def reply(self, status, body, ctype="application/json", headers=()):
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in headers:
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            try:
                if self.path == "/v1/models/digits:predict":
                    data = np.asarray(json.loads(body)["inputs"]["data"], dtype=np.float32).reshape(SHAPE)
                    out = predict(data)
                    self.reply(200, json.dumps({"model": "digits", "outputs": {"output": out.tolist()}}).encode())
                elif self.path == "/v2/models/digits/infer":
                    n = self.headers.get("Inference-Header-Content-Length")
                    header = json.loads(body[:int(n)] if n else body)
                    spec = header["inputs"][0]
                    if n:
                        data = np.frombuffer(body[int(n):], dtype="<f4")
                    else:
                        data = np.asarray(spec["data"], dtype=np.float32)
                    out = predict(data.reshape(spec["shape"]))
                    meta = {"name": "output", "datatype": "FP32", "shape": list(out.shape)}
                    if header.get("parameters", {}).get("binary_data_output"):
                        raw = out.astype("<f4").tobytes()
                        meta["parameters"] = {"binary_data_size": len(raw)}
                        js = json.dumps({"model_name": "digits", "outputs": [meta]}).encode()
                        self.reply(200, js + raw, "application/octet-stream",
                                   [("Inference-Header-Content-Length", str(len(js)))])
                    else:
                        meta["data"] = out.ravel().tolist()
                        self.reply(200, json.dumps({"model_name": "digits", "outputs": [meta]}).encode())
                else:
                    self.reply(404, b'{"error": "no such endpoint"}')
            except (ValueError, KeyError, TypeError) as e:
                self.reply(400, json.dumps({"error": str(e)}).encode())

    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_export = sub.add_parser("export")
    p_export.add_argument("dir")
    p_bench = sub.add_parser("bench")
    p_bench.add_argument("dir")
    p_bench.add_argument("--concurrency", default="1,4,16")
    p_bench.add_argument("--duration", type=float, default=5.0)
    p_bench.add_argument("--warmup", type=float, default=1.0)
    p_bench.add_argument("--json", action="store_true", help="one JSON object per level")
    p_serve = sub.add_parser("serve")
    p_serve.add_argument("dir")
    p_serve.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    if args.cmd == "export":
        export(args.dir)
    elif args.cmd == "serve":
        return serve(args.dir, args.port)
    else:
        bench(args.dir, [int(c) for c in args.concurrency.split(",")], args.duration, args.warmup, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
