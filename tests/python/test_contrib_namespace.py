"""weft.contrib as MXNet 1.9.1's mx.contrib: its submodules, the contrib operator namespaces,
and the low-precision modules that say they are not available yet."""
import subprocess
import sys

import numpy as np
import pytest

import weft as mx


def test_reachable_after_plain_import():
    code = ("import weft as mx\n"
            "from weft.contrib.io import DataLoaderIter\n"
            "from weft.contrib import autograd, text, tensorboard, ndarray, symbol\n"
            "from weft.contrib.ndarray import box_nms\n"
            "import weft.contrib.symbol\n"
            "assert mx.contrib.nd is mx.nd.contrib and mx.contrib.sym is mx.sym.contrib\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_contrib_ops_run_through_both_names():
    x = mx.nd.array([1.0, 4.0, 9.0])
    d = mx.nd.array([[0, 0.9, 0, 0, 1, 1], [0, 0.8, 0, 0, 1, 1], [0, 0.7, 2, 2, 3, 3]])
    np.testing.assert_array_equal(mx.contrib.nd.box_nms(d, overlap_thresh=0.5).asnumpy(),
                                  mx.nd.contrib.box_nms(d, overlap_thresh=0.5).asnumpy())
    s = mx.contrib.sym.div_sqrt_dim(mx.sym.var("x"))
    out = s.eval(ctx=mx.cpu(), x=x)[0].asnumpy()
    np.testing.assert_allclose(out, x.asnumpy() / np.sqrt(3), rtol=1e-6)


@pytest.mark.parametrize("module,func", [("quantization", "quantize_model"), ("quantization", "quantize_net"),
                                         ("amp", "init"), ("amp", "convert_hybrid_block")])
def test_low_precision_says_not_yet(module, func):
    f = getattr(getattr(mx.contrib, module), func)
    with pytest.raises(NotImplementedError, match="later issue"):
        f(None)
    assert mx.contrib.quant is mx.contrib.quantization
