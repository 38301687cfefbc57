"""weft-serve's v2 gRPC API (-grpc-addr; issue 42 point 3) as Triton's own gRPC
client sees it: the real ``tritonclient[grpc]`` from PyPI against the real
weft-serve binary, serving MXNet 1.9.1's exported CNN, every answer compared
with what the same server's REST API gives to ``tritonclient[http]``:

- live / ready / server and model metadata / repository index;
- inference with raw_input_contents (tritonclient's way) and with typed
  fp32_contents (built with tritonclient's own copy of Triton's protos), equal
  to the REST outputs bit for bit and to MXNet's recorded output;
- classification (class_count), model configuration (batching off and on)
  and statistics;
- errors (unknown model, version or output; shapes the model refuses; byte
  counts that do not match; a wrong dtype) come back as gRPC status codes
  with REST's message, and the server keeps answering.

Uses the Go commands of test_python_to_go (built, or $WEFT_GO_BIN_DIR).
tritonclient[grpc] is installed by scripts/setup.sh; where it is missing the
tests fail under CI (CI set) and skip, saying so, elsewhere.
"""
import os
import re
import shutil

import numpy as np
import pytest

from test_python_to_go import FIXTURES, _Server, go_bin  # noqa: F401 (go_bin is a fixture)

try:
    import tritonclient.grpc as tgrpc
    import tritonclient.http as thttp
    from tritonclient.grpc import service_pb2
    _MISSING = None
except ImportError as err:  # reported by the fixture below: failing in CI, skipping elsewhere
    tgrpc = thttp = service_pb2 = None
    _MISSING = err

LABELS = ["zero", "one", "two", "three", "four"]
OUTPUT = "cnn_dense1_fwd_output"


@pytest.fixture()
def export(tmp_path):
    """MXNet's CNN export as written, a labels file beside it, and its recorded input/output."""
    if _MISSING is not None:
        if os.environ.get("CI"):
            pytest.fail("CI is set and tritonclient[grpc] is missing (scripts/setup.sh installs it): %s" % _MISSING)
        pytest.skip("tritonclient[grpc] is not installed (pip install 'tritonclient[grpc]'): %s" % _MISSING)
    if not os.path.isfile(os.path.join(FIXTURES, "cnn-io.npz")):
        if os.environ.get("CI"):
            pytest.fail("CI is set and the MXNet 1.9.1 fixtures are missing at %s" % FIXTURES)
        pytest.skip("the MXNet 1.9.1 fixtures are not at %s (set WEFT_FIXTURES)" % FIXTURES)
    for name in ("cnn-symbol.json", "cnn-0000.params"):
        shutil.copy(os.path.join(FIXTURES, name), str(tmp_path / name))
    (tmp_path / "cnn-labels.txt").write_text("\n".join(LABELS) + "\n")
    io = np.load(os.path.join(FIXTURES, "cnn-io.npz"))
    return str(tmp_path), io["data"].astype(np.float32), io["output"].astype(np.float32)


class _Both:
    """weft-serve with -grpc-addr, a gRPC client and an HTTP client of it."""

    def __init__(self, go_bin, model_dir, *flags):
        self.server = _Server(os.path.join(go_bin, "weft-serve"), model_dir, "-grpc-addr", "127.0.0.1:0", *flags)
        found = re.search(r"gRPC on ([0-9.]+:[0-9]+)", "".join(self.server.log))
        assert found, "no gRPC address in the start line:\n" + "".join(self.server.log)
        self.grpc_addr = found.group(1)
        self.grpc = tgrpc.InferenceServerClient(self.grpc_addr)
        self.http = thttp.InferenceServerClient(self.server.url.replace("http://", ""))

    def close(self):
        self.grpc.close()
        self.http.close()
        self.server.proc.terminate()
        code = self.server.proc.wait(timeout=60)
        assert code == 0, "".join(self.server.log)


@pytest.fixture()
def both(go_bin, export):
    servers = []

    def start(*flags):
        servers.append(_Both(go_bin, export[0], *flags))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def _input(module, x, datatype="FP32"):
    inp = module.InferInput("data", list(x.shape), datatype)
    inp.set_data_from_numpy(x)
    return inp


def test_grpc_answers_what_rest_answers(both, export):
    _, x, want = export
    s = both()
    g, h = s.grpc, s.http
    assert g.is_server_live() and g.is_server_ready() and g.is_model_ready("cnn")
    assert g.is_model_ready("cnn", model_version="0") and not g.is_model_ready("cnn", model_version="7")
    assert not g.is_model_ready("nope") and not h.is_model_ready("nope")
    gm, hm = g.get_server_metadata(as_json=True), h.get_server_metadata()
    assert (gm["name"], gm["version"], gm["extensions"]) == (hm["name"], hm["version"], hm["extensions"]), gm

    meta = g.get_model_metadata("cnn")  # the first request: metadata is complete from the files
    rest_meta = h.get_model_metadata("cnn")
    as_rest = lambda ts: [{"name": t.name, "datatype": t.datatype, "shape": list(t.shape)} for t in ts]  # noqa: E731
    assert meta.name == "cnn" and list(meta.versions) == rest_meta["versions"] and meta.platform == "mxnet_symbol"
    assert as_rest(meta.inputs) == rest_meta["inputs"] == [{"name": "data", "datatype": "FP32", "shape": [-1, 3, 8, 8]}]
    assert as_rest(meta.outputs) == rest_meta["outputs"], (meta, rest_meta)

    # Raw contents (tritonclient's default), then REST, then typed contents: the same floats.
    reply = g.infer("cnn", [_input(tgrpc, x)], outputs=[tgrpc.InferRequestedOutput(OUTPUT)], request_id="r-9")
    got = reply.as_numpy(OUTPUT)
    resp = reply.get_response()
    assert resp.id == "r-9" and resp.model_name == "cnn" and resp.model_version == "0", resp
    assert got.dtype == np.float32 and got.shape == (2, 5)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    rest = h.infer("cnn", [_input(thttp, x)], outputs=[thttp.InferRequestedOutput(OUTPUT, binary_data=False)])
    np.testing.assert_array_equal(got, rest.as_numpy(OUTPUT))
    typed = service_pb2.ModelInferRequest(model_name="cnn", model_version="0")
    tin = typed.inputs.add(name="data", datatype="FP32", shape=list(x.shape))
    tin.contents.fp32_contents.extend(x.ravel().tolist())
    typed_reply = g._client_stub.ModelInfer(typed, timeout=60)  # tritonclient has no typed-input helper
    assert [o.name for o in typed_reply.outputs] == [OUTPUT] and list(typed_reply.outputs[0].shape) == [2, 5]
    np.testing.assert_array_equal(np.frombuffer(typed_reply.raw_output_contents[0], "<f4").reshape(2, 5), got)

    # Classification: the same strings as REST's.
    top = g.infer("cnn", [_input(tgrpc, x)], outputs=[tgrpc.InferRequestedOutput(OUTPUT, class_count=2)])
    rest_top = h.infer("cnn", [_input(thttp, x)], outputs=[thttp.InferRequestedOutput(OUTPUT, class_count=2)])
    assert top.as_numpy(OUTPUT).shape == (2, 2)
    np.testing.assert_array_equal(top.as_numpy(OUTPUT), rest_top.as_numpy(OUTPUT))
    best = top.as_numpy(OUTPUT)[0][0].decode().split(":")
    assert int(best[1]) == int(np.argmax(want[0])) and best[2] == LABELS[int(best[1])], best

    # Statistics (after five predictions of two rows: three over gRPC, two over REST) and the repository index.
    gs = g.get_inference_statistics("cnn").model_stats
    hs = h.get_inference_statistics("cnn")["model_stats"]
    assert len(gs) == len(hs) == 1
    assert gs[0].inference_count == hs[0]["inference_count"] == 10, (gs, hs)  # 5 requests of 2 rows
    assert gs[0].execution_count == hs[0]["execution_count"] == 5
    assert gs[0].inference_stats.success.count == hs[0]["inference_stats"]["success"]["count"] == 5
    assert gs[0].inference_stats.compute_infer.ns == hs[0]["inference_stats"]["compute_infer"]["ns"] > 0
    index = g.get_model_repository_index()
    assert [(m.name, m.version, m.state) for m in index.models] == [
        (m["name"], m["version"], m["state"]) for m in h.get_model_repository_index()] == [("cnn", "0", "READY")]


@pytest.mark.parametrize("batching", [False, True])
def test_grpc_model_configuration_is_rests(both, batching):
    s = both(*(["-batch-max", "8", "-batch-delay", "2ms"] if batching else []))
    for version in ("", "0"):
        cfg = s.grpc.get_model_config("cnn", model_version=version).config
        rest = s.http.get_model_config("cnn", model_version=version)
        assert (cfg.name, cfg.platform, cfg.backend, cfg.max_batch_size) == (
            rest["name"], rest["platform"], rest["backend"], rest["max_batch_size"]), (cfg, rest)
        dtype = tgrpc.model_config_pb2.DataType.Name
        assert [(i.name, dtype(i.data_type), list(i.dims)) for i in cfg.input] == [
            (i["name"], i["data_type"], i["dims"]) for i in rest["input"]]
        assert [(o.name, dtype(o.data_type), list(o.dims), o.label_filename) for o in cfg.output] == [
            (o["name"], o["data_type"], o["dims"], o["label_filename"]) for o in rest["output"]]
        assert cfg.output[0].label_filename == "cnn-labels.txt"
        assert cfg.version_policy.latest.num_versions == rest["version_policy"]["latest"]["num_versions"] == 3
        kind = tgrpc.model_config_pb2.ModelInstanceGroup.Kind.Name
        assert [(kind(i.kind), i.count) for i in cfg.instance_group] == [
            (i["kind"], i["count"]) for i in rest["instance_group"]]
        if batching:
            assert cfg.max_batch_size == 8 and list(cfg.input[0].dims) == [3, 8, 8]
            assert cfg.HasField("dynamic_batching") and cfg.dynamic_batching.max_queue_delay_microseconds == 2000
        else:
            assert cfg.max_batch_size == 0 and list(cfg.input[0].dims) == [-1, 3, 8, 8]
            assert not cfg.HasField("dynamic_batching") and "dynamic_batching" not in rest


def _status(call):
    with pytest.raises(tgrpc.InferenceServerException) as err:
        call()
    return err.value.status(), err.value.message()


def test_grpc_errors_have_status_codes_and_the_server_keeps_answering(both, export):
    _, x, want = export
    s = both()
    g = s.grpc
    code, msg = _status(lambda: g.infer("nope", [_input(tgrpc, x)]))
    assert code == "StatusCode.NOT_FOUND" and "unknown model 'nope'" in msg, (code, msg)
    code, msg = _status(lambda: g.get_model_metadata("cnn", model_version="7"))
    assert code == "StatusCode.NOT_FOUND" and "version '7'" in msg, (code, msg)
    code, msg = _status(lambda: g.get_model_config("nope"))
    assert code == "StatusCode.NOT_FOUND" and "unknown model" in msg, (code, msg)
    # A shape the graph cannot take (its Dense wants the features 8x8 images give).
    code, msg = _status(lambda: g.infer("cnn", [_input(tgrpc, np.zeros((1, 3, 4, 48), np.float32))]))
    assert code == "StatusCode.INVALID_ARGUMENT" and "model cnn" in msg, (code, msg)
    # A dtype that is not the input's.
    code, msg = _status(lambda: g.infer("cnn", [_input(tgrpc, x.astype(np.float64), "FP64")]))
    assert code == "StatusCode.INVALID_ARGUMENT" and "is FP32, the request says FP64" in msg, (code, msg)
    code, msg = _status(lambda: g.infer("cnn", [_input(tgrpc, x)], outputs=[tgrpc.InferRequestedOutput("y")]))
    assert code == "StatusCode.INVALID_ARGUMENT" and "no output 'y'" in msg, (code, msg)
    # Raw bytes that do not match the shape, and NaN, sent past tritonclient's own checks.
    for raw, text in ((x.tobytes()[:-4], "raw_input_contents"),
                      (np.full(x.shape, np.nan, np.float32).tobytes(), "not finite")):
        req = service_pb2.ModelInferRequest(model_name="cnn", raw_input_contents=[raw])
        req.inputs.add(name="data", datatype="FP32", shape=list(x.shape))
        with pytest.raises(Exception) as err:
            g._client_stub.ModelInfer(req, timeout=60)
        assert err.value.code().name == "INVALID_ARGUMENT" and text in err.value.details(), err.value
    assert s.server.proc.poll() is None, "".join(s.server.log)
    got = g.infer("cnn", [_input(tgrpc, x)]).as_numpy(OUTPUT)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    stats = g.get_inference_statistics("cnn").model_stats[0].inference_stats
    assert stats.success.count == 2 and stats.fail.count == 1, stats  # the unknown output predicted first
