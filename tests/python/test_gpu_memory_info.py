"""mx.context.gpu_memory_info / num_gpus as MXNet 1.9.1 has them. Runs in a child
process without WEFT_GPU_EMULATE (no GPU) and with WEFT_GPU_EMULATE=2 (the host
emulation), so both paths are checked wherever the tests run."""
import json
import os
import subprocess
import sys

import pytest

_PROBE = r"""
import json, weft as mx
out = {"n": mx.context.num_gpus(), "backend": mx.context.gpu_backend(), "errors": {}}
for dev in (0, 1, 2):
    try:
        out[str(dev)] = list(mx.context.gpu_memory_info(dev))
    except mx.base.MXNetError as e:
        out["errors"][str(dev)] = str(e)
print(json.dumps(out))
"""


def _probe(emulate):
    env = dict(os.environ)
    env.pop("WEFT_GPU_EMULATE", None)
    if emulate:
        env["WEFT_GPU_EMULATE"] = str(emulate)
    res = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_without_a_gpu_it_raises_naming_the_device():
    out = _probe(0)
    if out["backend"] == "cuda":
        pytest.skip("a CUDA build: the emulated path below covers the no-GPU errors only without CUDA")
    assert out["n"] == 0
    for dev in ("0", "1", "2"):
        assert "gpu(%s)" % dev in out["errors"][dev] and "CUDA" in out["errors"][dev]


def test_emulated_gpus_report_the_hosts_memory():
    out = _probe(2)
    if out["backend"] == "cuda":
        pytest.skip("a CUDA build reports its real devices, not the emulation")
    assert out["n"] == 2
    total_host = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    for dev in ("0", "1"):
        free, total = out[dev]
        assert 0 < free <= total
        assert abs(total - total_host) <= 0.01 * total_host
    assert "gpu(2)" in out["errors"]["2"] and "2 emulated" in out["errors"]["2"]


def test_bad_device_id_type():
    import weft as mx
    with pytest.raises(mx.base.MXNetError, match="device_id"):
        mx.context.gpu_memory_info("0")
