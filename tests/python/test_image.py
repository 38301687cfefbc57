"""weft.image against MXNet 1.x's documented semantics: decoding to HWC uint8
RGB, resize/crop geometry, the augmenters' formulas (with the random draws
replayed from the same seed) and ImageIter over .rec files and image lists."""
import random

import numpy as np
import pytest

import weft as mx
from weft import image, recordio

from image_data import cv2, encode, rgb_image, write_image, write_image_rec


def nd_img(h=6, w=8, seed=0):
    return mx.nd.array(rgb_image(h, w, seed), dtype=np.uint8)


def test_imdecode_png_rgb_bgr_gray():
    img = rgb_image(7, 9, 1)
    buf = encode(img, ".png")
    out = image.imdecode(buf)
    assert out.shape == (7, 9, 3) and out.dtype == np.uint8
    np.testing.assert_array_equal(out.asnumpy(), img)
    np.testing.assert_array_equal(image.imdecode(buf, to_rgb=False).asnumpy(), img[:, :, ::-1])
    gray = image.imdecode(bytearray(buf), flag=0)
    assert gray.shape == (7, 9, 1)
    expected = cv2().imdecode(np.frombuffer(buf, np.uint8), cv2().IMREAD_GRAYSCALE)
    np.testing.assert_array_equal(gray.asnumpy()[:, :, 0], expected)
    np.testing.assert_array_equal(image.imdecode(np.frombuffer(buf, np.uint8)).asnumpy(), img)


def test_imdecode_jpeg_and_imread(tmp_path):
    img = rgb_image(16, 16, 2)
    write_image(tmp_path / "a.jpg", img)
    out = image.imread(str(tmp_path / "a.jpg"))
    assert out.shape == (16, 16, 3) and np.abs(out.asnumpy().astype(int) - img).mean() < 6
    with pytest.raises(mx.WeftIOError, match=r"no such file: .*b\.jpg"):
        image.imread(str(tmp_path / "b.jpg"))
    (tmp_path / "c.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(mx.MXNetError, match=r"c\.jpg is not an image"):
        image.imread(str(tmp_path / "c.jpg"))
    with pytest.raises(ValueError, match="buf must be of type bytes"):
        image.imdecode("a string")


def test_resize_geometry():
    src = nd_img(6, 8)
    out = image.imresize(src, 4, 3, interp=0)
    assert out.shape == (3, 4, 3) and out.dtype == np.uint8
    np.testing.assert_array_equal(out.asnumpy(), cv2().resize(src.asnumpy(), (4, 3), interpolation=0))
    assert image.resize_short(src, 3).shape == (3, 4, 3)  # shorter side (h=6) -> 3, w = 3 * 8 // 6
    assert image.resize_short(nd_img(10, 4), 2).shape == (5, 2, 3)
    assert image.scale_down((640, 480), (720, 120)) == (640, 106)
    assert image.scale_down((360, 1000), (480, 500)) == (360, 375)
    with pytest.raises(ValueError, match="Unknown interp"):
        image.imresize(src, 2, 2, interp=7)


def test_crops():
    src = nd_img(6, 8)
    arr = src.asnumpy()
    np.testing.assert_array_equal(image.fixed_crop(src, 2, 1, 3, 4).asnumpy(), arr[1:5, 2:5])
    out, box = image.center_crop(src, (4, 2))
    assert box == (2, 2, 4, 2)
    np.testing.assert_array_equal(out.asnumpy(), arr[2:4, 2:6])
    random.seed(5)
    out, (x0, y0, w, h) = image.random_crop(src, (3, 3))
    np.testing.assert_array_equal(out.asnumpy(), arr[y0:y0 + 3, x0:x0 + 3])
    random.seed(5)
    assert image.random_crop(src, (3, 3))[1] == (x0, y0, w, h)  # reproducible from the seed
    out, (x0, y0, w, h) = image.random_size_crop(src, (4, 4), (0.3, 0.6), (0.75, 1.33))
    assert out.shape == (4, 4, 3) and 0.3 * 48 * 0.7 <= w * h <= 0.6 * 48 * 1.3
    out, box = image.random_size_crop(src, (4, 4), 2.0, (1, 1))  # never fits: the centre crop
    assert box == image.center_crop(src, (4, 4))[1]


def test_color_normalize():
    src = mx.nd.array(np.arange(12).reshape(2, 2, 3))
    out = image.color_normalize(src, mx.nd.array([1, 2, 3]), mx.nd.array([2, 2, 2]))
    np.testing.assert_allclose(out.asnumpy(), (np.arange(12).reshape(2, 2, 3) - [1, 2, 3]) / 2.0)


def test_jitter_augmenters_formulas():
    src = nd_img(4, 5).astype("float32")
    x = src.asnumpy().astype(np.float64)
    coef = np.array([0.299, 0.587, 0.114])
    random.seed(1)
    alpha = 1.0 + random.uniform(-0.3, 0.3)
    random.seed(1)
    np.testing.assert_allclose(image.BrightnessJitterAug(0.3)(src).asnumpy(), x * alpha, rtol=1e-5)
    random.seed(2)
    alpha = 1.0 + random.uniform(-0.4, 0.4)
    gray = 3.0 * (1.0 - alpha) * (x * coef).mean()
    random.seed(2)
    np.testing.assert_allclose(image.ContrastJitterAug(0.4)(src).asnumpy(), x * alpha + gray, rtol=1e-4)
    random.seed(3)
    alpha = 1.0 + random.uniform(-0.5, 0.5)
    gray = (x * coef).sum(axis=2, keepdims=True) * (1.0 - alpha)
    random.seed(3)
    np.testing.assert_allclose(image.SaturationJitterAug(0.5)(src).asnumpy(), x * alpha + gray, rtol=1e-4)
    # hue 0 is the identity up to the YIQ round trip's rounding
    np.testing.assert_allclose(image.HueJitterAug(1e-9)(src).asnumpy(), x, atol=0.2)
    eigval = np.array([55.46, 4.794, 1.148])
    eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])
    np.random.seed(4)
    rgb = np.dot(eigvec * np.random.normal(0, 0.1, size=(3,)), eigval)
    np.random.seed(4)
    np.testing.assert_allclose(image.LightingAug(0.1, eigval, eigvec)(src).asnumpy(), x + rgb, rtol=1e-5)
    gray = image.RandomGrayAug(1.0)(src).asnumpy()
    np.testing.assert_allclose(gray[..., 0], (x * [0.21, 0.72, 0.07]).sum(axis=2), rtol=1e-5)
    np.testing.assert_allclose(image.HorizontalFlipAug(1.0)(src).asnumpy(), x[:, ::-1])
    np.testing.assert_allclose(image.HorizontalFlipAug(0.0)(src).asnumpy(), x)
    norm = image.ColorNormalizeAug(mx.nd.array([1, 2, 3]), mx.nd.array([2, 4, 8]))(src).asnumpy()
    np.testing.assert_allclose(norm, (x - [1, 2, 3]) / [2, 4, 8], rtol=1e-6)
    np.testing.assert_allclose(src.asnumpy(), x)  # the input is left as it was


def test_create_augmenter_list_and_dumps():
    augs = image.CreateAugmenter((3, 4, 4), resize=6, rand_crop=True, rand_resize=True, rand_mirror=True,
                                 mean=True, std=True, brightness=0.1, hue=0.1, pca_noise=0.1, rand_gray=0.2)
    assert [type(a).__name__ for a in augs] == [
        "ResizeAug", "RandomSizedCropAug", "HorizontalFlipAug", "CastAug", "ColorJitterAug", "HueJitterAug",
        "LightingAug", "RandomGrayAug", "ColorNormalizeAug"]
    assert augs[0].dumps() == '["resizeaug", {"size": 6, "interp": 2}]'
    out = nd_img(8, 10)
    for a in augs:
        out = a(out)
    assert out.shape == (4, 4, 3) and out.dtype == np.float32
    plain = image.CreateAugmenter((3, 4, 4))
    assert [type(a).__name__ for a in plain] == ["CenterCropAug", "CastAug"]
    with pytest.raises(AssertionError):
        image.CreateAugmenter((3, 4, 4), rand_resize=True)
    assert image.ForceResizeAug((3, 5))(nd_img()).shape == (5, 3, 3)


def _rec(tmp_path, n=5, labels=None, name="data"):
    images = [rgb_image(6, 6, i) for i in range(n)]
    labels = labels if labels is not None else [float(i) for i in range(n)]
    return images, write_image_rec(tmp_path, images, labels, name)


def test_image_iter_from_rec_pad_and_reset(tmp_path):
    images, (rec, _) = _rec(tmp_path)
    it = image.ImageIter(batch_size=2, data_shape=(3, 6, 6), path_imgrec=rec)
    assert it.provide_data == [("data", (2, 3, 6, 6))] and it.provide_label == [("softmax_label", (2,))]
    batches = list(it)
    assert [b.pad for b in batches] == [0, 0, 1]
    np.testing.assert_array_equal(batches[0].data[0].asnumpy()[1], images[1].transpose(2, 0, 1))
    assert batches[2].label[0].asnumpy().tolist() == [4, 0]
    it.reset()
    assert len(list(it)) == 3


def test_image_iter_shuffle_parts_and_roll_over(tmp_path):
    _, (rec, idx) = _rec(tmp_path, n=6)
    random.seed(0)
    it = image.ImageIter(batch_size=3, data_shape=(3, 6, 6), path_imgrec=rec, path_imgidx=idx, shuffle=True)
    got = sorted(v for b in it for v in b.label[0].asnumpy().tolist())
    assert got == [0, 1, 2, 3, 4, 5]
    part = image.ImageIter(batch_size=3, data_shape=(3, 6, 6), path_imgrec=rec, path_imgidx=idx, num_parts=2,
                           part_index=1)
    assert [b.label[0].asnumpy().tolist() for b in part] == [[3, 4, 5]]
    roll = image.ImageIter(batch_size=4, data_shape=(3, 6, 6), path_imgrec=rec, last_batch_handle="roll_over")
    assert [b.label[0].asnumpy().tolist() for b in roll] == [[0, 1, 2, 3]]
    roll.reset()
    # the kept 4, 5 lead the next epoch, which goes on after the samples that filled the batch
    batches = list(roll)
    assert [b.label[0].asnumpy().tolist() for b in batches] == [[4, 5, 0, 1], [2, 3, 4, 5]]
    assert [b.pad for b in batches] == [2, 0]
    discard = image.ImageIter(batch_size=4, data_shape=(3, 6, 6), path_imgrec=rec, last_batch_handle="discard")
    assert len(list(discard)) == 1


def test_image_iter_from_list_and_imglist(tmp_path):
    for i in range(3):
        write_image(tmp_path / ("%d.png" % i), rgb_image(8, 8, i))
    (tmp_path / "a.lst").write_text("".join("%d\t%f\t%f\t%d.png\n" % (i, i, 2 * i, i) for i in range(3)))
    it = image.ImageIter(batch_size=3, data_shape=(3, 4, 4), label_width=2, path_imglist=str(tmp_path / "a.lst"),
                         path_root=str(tmp_path))
    b = it.next()
    assert b.label[0].asnumpy().tolist() == [[0, 0], [1, 2], [2, 4]]
    np.testing.assert_array_equal(b.data[0].asnumpy()[2], rgb_image(8, 8, 2)[2:6, 2:6].transpose(2, 0, 1))
    it = image.ImageIter(batch_size=2, data_shape=(3, 8, 8), imglist=[[1, "0.png"], [0, "2.png"]],
                         path_root=str(tmp_path))
    assert it.next().label[0].asnumpy().tolist() == [1, 0]


def test_image_iter_bad_records(tmp_path):
    rec, idx = str(tmp_path / "b.rec"), str(tmp_path / "b.idx")
    w = recordio.MXIndexedRecordIO(idx, rec, "w")
    w.write_idx(0, recordio.pack((0, 1.0, 0, 0), encode(rgb_image(6, 6, 0))))
    w.write_idx(1, recordio.pack((0, 1.0, 1, 0), b"not an image at all"))
    w.write_idx(2, recordio.pack((0, [1.0, 2.0], 2, 0), encode(rgb_image(6, 6, 0))))
    w.close()
    it = image.ImageIter(batch_size=2, data_shape=(3, 6, 6), path_imgrec=rec)
    with pytest.raises(mx.WeftIOError, match=r"Broken image: .*b\.rec record 1"):
        it.next()
    it = image.ImageIter(batch_size=1, data_shape=(3, 6, 6), path_imgrec=rec, path_imgidx=idx)
    it.next()
    it.seq = [2]
    it.num_image = 1
    it.reset()
    with pytest.raises(mx.WeftIOError, match=r"b\.rec record 2 has 2 labels, but label_width is 1"):
        it.next()
    with pytest.raises(mx.WeftIOError, match=r"index file not found: .*missing\.idx"):
        image.ImageIter(batch_size=1, data_shape=(3, 6, 6), path_imgrec=rec, path_imgidx=str(tmp_path / "missing.idx"))
    with pytest.raises(ValueError, match="3 channels"):
        image.ImageIter(batch_size=1, data_shape=(1, 6, 6), path_imgrec=rec)
