"""weft.npx.image (issue 37): MXNet's npx.image names over weft.image and
weft.nd.image, with np arrays in and out: values equal the legacy functions',
augmenters and CreateAugmenter return np arrays, ImageIter yields np batches."""
import numpy as onp
import pytest

import weft as mx
import weft.npx.image  # noqa: F401  # MXNet code imports the module path
from weft import npx

IMG = onp.random.RandomState(0).randint(0, 255, size=(12, 16, 3)).astype("uint8")


def _img(np_class=True):
    x = mx.nd.array(IMG, dtype="uint8")
    return x.as_np_ndarray() if np_class else x


def test_module_paths():
    assert mx.npx.image is mx.numpy_extension.image is weft.npx.image


def _same(got, want):
    assert isinstance(got, mx.np.ndarray), type(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    onp.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name,args,kwargs", [
    ("to_tensor", (), {}),
    ("normalize", (), {"mean": (0.1, 0.2, 0.3), "std": (1.0, 2.0, 3.0)}),
    ("resize", ((8, 6),), {}),
    ("crop", (2, 3, 5, 4), {}),
    ("flip_left_right", (), {}),
    ("flip_top_bottom", (), {}),
    ("adjust_lighting", ((0.1, -0.2, 0.3),), {}),
])
def test_operator_functions_match_nd_image(name, args, kwargs):
    src = _img()
    if name == "normalize":
        src = npx.image.to_tensor(src)
    elif name == "adjust_lighting":
        src = npx.cast(src, "float32")
    got = getattr(npx.image, name)(src, *args, **kwargs)
    want = getattr(mx.nd.image, name)(src.as_nd_ndarray(), *args, **kwargs)
    _same(got, want)


@pytest.mark.parametrize("name,args", [
    ("imresize", (8, 6)),
    ("resize_short", (6,)),
    ("fixed_crop", (1, 2, 5, 4)),
    ("center_crop", ((6, 4),)),
    ("color_normalize", (mx.nd.array([10.0, 20.0, 30.0]), mx.nd.array([2.0, 3.0, 4.0]))),
])
def test_image_functions_match_weft_image(name, args):
    src = _img()
    if name == "color_normalize":
        src = npx.cast(src, "float32")
    got = getattr(npx.image, name)(src, *args)
    want = getattr(mx.image, name)(src.as_nd_ndarray(), *args)
    if isinstance(want, tuple):
        _same(got[0], want[0])
        assert got[1] == want[1]
    else:
        _same(got, want)


def test_random_functions_return_np_arrays():
    src = _img()
    for f in (npx.image.random_flip_left_right, npx.image.random_flip_top_bottom):
        out = f(src).asnumpy()
        assert any(onp.array_equal(out, v) for v in (IMG, IMG[:, ::-1], IMG[::-1]))
    fsrc = npx.cast(src, "float32")
    for f, kw in ((npx.image.random_brightness, dict(min_factor=0.5, max_factor=1.5)),
                  (npx.image.random_contrast, dict(min_factor=0.5, max_factor=1.5)),
                  (npx.image.random_saturation, dict(min_factor=0.5, max_factor=1.5)),
                  (npx.image.random_hue, dict(min_factor=0.5, max_factor=1.5)),
                  (npx.image.random_color_jitter, dict(brightness=0.2, contrast=0.2, saturation=0.2, hue=0.1)),
                  (npx.image.random_lighting, dict(alpha_std=0.1))):
        out = f(fsrc, **kw)
        assert isinstance(out, mx.np.ndarray) and out.shape == IMG.shape
    crop, box = npx.image.random_crop(src, (5, 4))
    x, y, w, h = box
    assert isinstance(crop, mx.np.ndarray) and crop.shape == (4, 5, 3)
    onp.testing.assert_array_equal(crop.asnumpy(), IMG[y:y + h, x:x + w])
    crop, _ = npx.image.random_size_crop(src, (5, 4), 0.5, (0.75, 1.33))
    assert isinstance(crop, mx.np.ndarray) and crop.shape == (4, 5, 3)
    assert npx.image.scale_down((16, 12), (20, 10)) == mx.image.scale_down((16, 12), (20, 10))


def test_decode_and_read(tmp_path):
    cv2 = pytest.importorskip("cv2", reason="weft.image decodes with OpenCV (scripts/setup.sh installs it)")
    ok, buf = cv2.imencode(".png", IMG[:, :, ::-1])
    assert ok
    got = npx.image.imdecode(buf.tobytes())
    assert isinstance(got, mx.np.ndarray) and got.dtype == onp.uint8
    onp.testing.assert_array_equal(got.asnumpy(), IMG)
    path = tmp_path / "x.png"
    path.write_bytes(buf.tobytes())
    onp.testing.assert_array_equal(npx.image.imread(str(path)).asnumpy(), IMG)


def test_augmenters_return_np_arrays():
    src = _img()
    flip = npx.image.HorizontalFlipAug(1.0)
    assert isinstance(flip, mx.image.HorizontalFlipAug)  # same class tree as weft.image's
    out = flip(src)
    assert isinstance(out, mx.np.ndarray)
    onp.testing.assert_array_equal(out.asnumpy(), IMG[:, ::-1])
    assert flip.dumps() == mx.image.HorizontalFlipAug(1.0).dumps()
    cast = npx.image.CastAug()(src)
    assert isinstance(cast, mx.np.ndarray) and cast.dtype == onp.float32
    seq = npx.image.SequentialAug([npx.image.CenterCropAug((6, 4)), npx.image.CastAug()])
    assert isinstance(seq(src), mx.np.ndarray) and seq(src).shape == (4, 6, 3)
    augs = npx.image.CreateAugmenter((3, 4, 6), rand_mirror=True, brightness=0.1, mean=True, std=True)
    x = src
    for a in augs:
        assert type(a).__module__ == "weft.numpy_extension.image"
        x = a(x)
        assert isinstance(x, mx.np.ndarray)
    assert x.shape == (4, 6, 3) and x.dtype == onp.float32
    unchanged = npx.image.HorizontalFlipAug(0.0)(src)  # an input handed back keeps its class
    assert isinstance(unchanged, mx.np.ndarray)
    nd_src = _img(np_class=False)
    assert type(npx.image.HorizontalFlipAug(0.0)(nd_src)) is mx.np.ndarray and type(nd_src) is mx.nd.NDArray


def test_image_iter_yields_np_batches(tmp_path):
    cv2 = pytest.importorskip("cv2", reason="weft.image decodes with OpenCV (scripts/setup.sh installs it)")
    items = []
    for i in range(3):
        p = tmp_path / ("%d.png" % i)
        cv2.imwrite(str(p), IMG)
        items.append([float(i), p.name])
    it = npx.image.ImageIter(2, (3, 8, 8), imglist=items, path_root=str(tmp_path))
    batch = next(it)
    assert isinstance(batch.data[0], mx.np.ndarray) and batch.data[0].shape == (2, 3, 8, 8)
    assert isinstance(batch.label[0], mx.np.ndarray)
    onp.testing.assert_array_equal(batch.label[0].asnumpy(), [0, 1])


def test_geometry_and_detection_names_return_np_arrays(tmp_path):
    src = _img()
    border = npx.image.copyMakeBorder(src, 1, 1, 2, 2)
    assert isinstance(border, mx.np.ndarray) and border.shape == (14, 20, 3)
    rot = npx.image.imrotate(npx.cast(npx.image.to_tensor(src), "float32"), 180)
    assert isinstance(rot, mx.np.ndarray) and rot.shape == (3, 12, 16)
    label = onp.array([[0, 0.1, 0.2, 0.5, 0.6]], dtype="float32")
    out, lab = npx.image.DetHorizontalFlipAug(1.0)(src, label.copy())
    assert isinstance(out, mx.np.ndarray) and isinstance(lab, onp.ndarray)
    onp.testing.assert_array_equal(out.asnumpy(), IMG[:, ::-1])
    augs = npx.image.CreateDetAugmenter((3, 8, 8), rand_mirror=True)
    assert all(type(a).__module__ == "weft.numpy_extension.image" for a in augs)
    x, lab = src, label
    for a in augs:
        x, lab = a(x, lab)
    assert isinstance(x, mx.np.ndarray) and x.shape == (8, 8, 3)
    assert isinstance(npx.image.CreateMultiRandCropAugmenter(), npx.image.DetRandomSelectAug)
    cv2 = pytest.importorskip("cv2", reason="weft.image decodes with OpenCV (scripts/setup.sh installs it)")
    cv2.imwrite(str(tmp_path / "a.png"), IMG)
    it = npx.image.ImageDetIter(1, (3, 8, 8), imglist=[[2, 5, 0, 0.1, 0.1, 0.5, 0.5, "a.png"]],
                                path_root=str(tmp_path))
    b = it.next()
    assert isinstance(b.data[0], mx.np.ndarray) and isinstance(b.label[0], mx.np.ndarray)
    assert b.label[0].shape == (1, 1, 5)

