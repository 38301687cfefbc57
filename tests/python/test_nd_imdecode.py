"""weft.nd.imdecode: MXNet 1.x's deprecated mx.nd.imdecode (float32 CHW, clip_rect,
mean, out/index)."""
import numpy as np
import pytest

import weft

cv2 = pytest.importorskip("cv2", reason="OpenCV (opencv-python-headless, installed by scripts/setup.sh)")


def _png(img):
    ok, buf = cv2.imencode(".png", img[:, :, ::-1])  # OpenCV writes BGR
    assert ok
    return buf.tobytes()


def test_decodes_crops_subtracts_and_writes_into_out():
    rgb = np.random.default_rng(0).integers(0, 256, (6, 5, 3)).astype(np.uint8)
    buf = _png(rgb)
    y = weft.nd.imdecode(buf)
    np.testing.assert_array_equal(y.asnumpy(), rgb.transpose(2, 0, 1).astype(np.float32))
    assert y.dtype == np.float32
    c = weft.nd.imdecode(buf, clip_rect=(1, 2, 4, 5))
    np.testing.assert_array_equal(c.asnumpy(), rgb[2:5, 1:4].transpose(2, 0, 1))
    mean = weft.nd.ones((3, 6, 5)) * 10
    np.testing.assert_array_equal(weft.nd.imdecode(buf, mean=mean).asnumpy(), rgb.transpose(2, 0, 1) - 10.0)
    out = weft.nd.zeros((2, 3, 6, 5))
    weft.nd.imdecode(buf, out=out, index=1)
    np.testing.assert_array_equal(out.asnumpy()[1], rgb.transpose(2, 0, 1))
    np.testing.assert_array_equal(out.asnumpy()[0], 0)
    gray = weft.nd.imdecode(buf, channels=1)
    assert gray.shape == (1, 6, 5)


def test_bad_arguments_are_refused():
    buf = _png(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(weft.base.WeftError, match="clip_rect"):
        weft.nd.imdecode(buf, clip_rect=(0, 0, 9, 9))
    with pytest.raises(weft.base.WeftError, match="channels"):
        weft.nd.imdecode(buf, channels=4)
    with pytest.raises(weft.base.WeftError, match="out"):
        weft.nd.imdecode(buf, out=weft.nd.zeros((3, 5, 5)))
