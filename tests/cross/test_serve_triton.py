"""weft-serve as Triton's own HTTP client sees it (issue 42 points 1, 2, 6):
the real ``tritonclient[http]`` from PyPI against the real weft-serve binary,
serving MXNet 1.9.1's exported CNN dropped in a folder with no shape file.

- the very first model metadata is complete (shapes from the files), so a
  request built from it alone works;
- the model configuration extension (platform, max_batch_size, dims,
  dynamic_batching, version_policy), with batching off and on;
- the statistics extension counts requests, failures and forward passes;
- the classification extension (class_count) gives the top-k
  "score:index:label" strings from NAME-labels.txt, binary and JSON;
- a JSON body sent with curl's default form Content-Type is read as JSON.

Uses the Go commands of test_python_to_go (built, or $WEFT_GO_BIN_DIR).
tritonclient is installed by scripts/setup.sh; where it is missing the tests
fail under CI (CI set) and skip, saying so, elsewhere.
"""
import json
import os
import shutil
import urllib.request

import numpy as np
import pytest

from test_python_to_go import FIXTURES, _Server, go_bin  # noqa: F401 (go_bin is a fixture)

try:
    import tritonclient.http as triton
    _MISSING = None
except ImportError as err:  # reported by the fixture below: failing in CI, skipping elsewhere
    triton, _MISSING = None, err

LABELS = ["zero", "one", "two", "three", "four"]
OUTPUT = "cnn_dense1_fwd_output"


@pytest.fixture()
def export(tmp_path):
    """MXNet's CNN export as written, a labels file beside it, and its recorded input/output."""
    if _MISSING is not None:
        if os.environ.get("CI"):
            pytest.fail("CI is set and tritonclient[http] is missing (scripts/setup.sh installs it): %s" % _MISSING)
        pytest.skip("tritonclient[http] is not installed (pip install 'tritonclient[http]'): %s" % _MISSING)
    if not os.path.isfile(os.path.join(FIXTURES, "cnn-io.npz")):
        if os.environ.get("CI"):
            pytest.fail("CI is set and the MXNet 1.9.1 fixtures are missing at %s" % FIXTURES)
        pytest.skip("the MXNet 1.9.1 fixtures are not at %s (set WEFT_FIXTURES)" % FIXTURES)
    for name in ("cnn-symbol.json", "cnn-0000.params"):
        shutil.copy(os.path.join(FIXTURES, name), str(tmp_path / name))
    (tmp_path / "cnn-labels.txt").write_text("\n".join(LABELS) + "\n")
    io = np.load(os.path.join(FIXTURES, "cnn-io.npz"))
    return str(tmp_path), io["data"].astype(np.float32), io["output"].astype(np.float32)


def _serve(go_bin, model_dir, *flags):
    server = _Server(os.path.join(go_bin, "weft-serve"), model_dir, *flags)
    return server, triton.InferenceServerClient(server.url.replace("http://", ""))


def _stop(server, client):
    client.close()
    server.proc.terminate()
    server.proc.wait(timeout=60)


def test_metadata_is_complete_first_and_requests_build_from_it(go_bin, export):
    model_dir, x, want = export
    server, client = _serve(go_bin, model_dir)
    try:
        meta = client.get_model_metadata("cnn")  # the first request the server sees
        assert meta["inputs"] == [{"name": "data", "datatype": "FP32", "shape": [-1, 3, 8, 8]}], meta
        assert meta["outputs"] == [{"name": OUTPUT, "datatype": "FP32", "shape": [-1, 5]}], meta
        # A request made from the metadata alone, as perf_analyzer and model mesh do.
        inputs = []
        for spec in meta["inputs"]:
            shape = [len(x) if d == -1 else d for d in spec["shape"]]
            inp = triton.InferInput(spec["name"], shape, spec["datatype"])
            inp.set_data_from_numpy(x.reshape(shape))
            inputs.append(inp)
        outputs = [triton.InferRequestedOutput(o["name"]) for o in meta["outputs"]]
        got = client.infer("cnn", inputs, outputs=outputs).as_numpy(OUTPUT)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        server_meta = client.get_server_metadata()
        for ext in ("model_configuration", "statistics", "classification"):
            assert ext in server_meta["extensions"], server_meta
    finally:
        _stop(server, client)


@pytest.mark.parametrize("batching", [False, True])
def test_model_configuration(go_bin, export, batching):
    model_dir, _, _ = export
    flags = ["-batch-max", "8", "-batch-delay", "2ms"] if batching else []
    server, client = _serve(go_bin, model_dir, *flags)
    try:
        for version in ("", "0"):
            cfg = client.get_model_config("cnn", model_version=version)
            assert cfg["name"] == "cnn" and cfg["platform"] == "weft_mxnet", cfg
            assert cfg["version_policy"] == {"latest": {"num_versions": 3}}, cfg
            if batching:  # as Triton: dims leave the batch axis out when max_batch_size > 0
                assert cfg["max_batch_size"] == 8, cfg
                assert cfg["dynamic_batching"]["max_queue_delay_microseconds"] == 2000, cfg
                assert [i["dims"] for i in cfg["input"]] == [[3, 8, 8]], cfg
                assert [(o["name"], o["dims"]) for o in cfg["output"]] == [(OUTPUT, [5])], cfg
            else:
                assert cfg["max_batch_size"] == 0 and "dynamic_batching" not in cfg, cfg
                assert [i["dims"] for i in cfg["input"]] == [[-1, 3, 8, 8]], cfg
            assert [i["data_type"] for i in cfg["input"]] == ["TYPE_FP32"], cfg
            assert cfg["output"][0]["label_filename"] == "cnn-labels.txt", cfg
        with pytest.raises(triton.InferenceServerException, match="version"):
            client.get_model_config("cnn", model_version="7")
    finally:
        _stop(server, client)


def test_statistics_count_requests(go_bin, export):
    model_dir, x, _ = export
    server, client = _serve(go_bin, model_dir)
    try:
        for rows in (1, 2):
            inp = triton.InferInput("data", [rows, 3, 8, 8], "FP32")
            inp.set_data_from_numpy(x[:rows])
            client.infer("cnn", [inp])
        bad = triton.InferInput("data", [1, 3, 4, 4], "FP32")  # a shape the graph refuses
        bad.set_data_from_numpy(np.zeros((1, 3, 4, 4), np.float32))
        with pytest.raises(triton.InferenceServerException):
            client.infer("cnn", [bad])
        for name, version in (("", ""), ("cnn", ""), ("cnn", "0")):
            stats = client.get_inference_statistics(model_name=name, model_version=version)
            (st,) = stats["model_stats"]
            inf = st["inference_stats"]
            assert (st["name"], st["version"]) == ("cnn", "0"), st
            assert st["inference_count"] == 3 and st["execution_count"] == 2, st
            assert inf["success"]["count"] == 2 and inf["fail"]["count"] == 1, st
            for key in ("queue", "compute_input", "compute_infer", "compute_output"):
                assert inf[key]["count"] == 2 and inf[key]["ns"] >= 0, st
            assert inf["compute_infer"]["ns"] > 0 and st["last_inference"] > 0, st
    finally:
        _stop(server, client)


def _top3(scores):
    order = sorted(range(len(scores)), key=lambda i: -scores[i])[:3]
    return [(float(scores[i]), i, LABELS[i]) for i in order]


@pytest.mark.parametrize("binary", [True, False])
def test_classification_top_k_with_labels(go_bin, export, binary):
    model_dir, x, want = export
    server, client = _serve(go_bin, model_dir)
    try:
        inp = triton.InferInput("data", list(x.shape), "FP32")
        inp.set_data_from_numpy(x)
        out = triton.InferRequestedOutput(OUTPUT, binary_data=binary, class_count=3)
        got = client.infer("cnn", [inp], outputs=[out]).as_numpy(OUTPUT)
        assert got.shape == (len(x), 3), got
        for row, expect in zip(got, map(_top3, want)):
            parts = [(e.decode() if isinstance(e, bytes) else e).split(":") for e in row]
            assert [(int(p[1]), p[2]) for p in parts] == [(i, label) for _, i, label in expect], row
            np.testing.assert_allclose([float(p[0]) for p in parts], [s for s, _, _ in expect], atol=1e-4)
    finally:
        _stop(server, client)


def test_form_content_type_json_body(go_bin, export):
    model_dir, x, want = export
    server, client = _serve(go_bin, model_dir)
    try:
        body = json.dumps({"inputs": [{"name": "data", "shape": list(x.shape), "datatype": "FP32",
                                       "data": x.ravel().tolist()}]}).encode()
        # urllib, like curl -d, sends application/x-www-form-urlencoded when given data.
        req = urllib.request.Request(server.url + "/v2/models/cnn/infer", data=body)
        assert req.get_header("Content-type") is None
        with urllib.request.urlopen(req, timeout=60) as resp:
            reply = json.loads(resp.read())
        got = np.array(reply["outputs"][0]["data"], np.float32).reshape(want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    finally:
        _stop(server, client)
