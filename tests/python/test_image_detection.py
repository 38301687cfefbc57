"""weft.image's copyMakeBorder, imrotate, random_rotate and the detection
augmenters and ImageDetIter (mxnet.image / mxnet.image.detection in MXNet
1.9.1; also exported by weft.npx.image, issue 37)."""
import json
import random

import numpy as onp
import pytest

import weft as mx
from weft import image as img

RNG = onp.random.RandomState(0)
IMG = RNG.randint(0, 255, size=(20, 30, 3)).astype("uint8")


def _u8():
    return mx.nd.array(IMG, dtype="uint8")


# ---- copyMakeBorder ----

@pytest.mark.parametrize("btype,mode", [(1, "edge"), (2, "symmetric"), (3, "wrap"), (4, "reflect")])
def test_copy_make_border_modes_match_numpy_pad(btype, mode):
    out = img.copyMakeBorder(_u8(), 2, 3, 4, 1, type=btype)
    want = onp.pad(IMG, ((2, 3), (4, 1), (0, 0)), mode=mode)
    assert out.shape == want.shape and out.dtype == onp.uint8
    onp.testing.assert_array_equal(out.asnumpy(), want)


def test_copy_make_border_constant_values():
    out = img.copyMakeBorder(_u8(), 1, 0, 0, 2, values=(10, 20, 30)).asnumpy()
    assert out.shape == (21, 32, 3)
    onp.testing.assert_array_equal(out[0, 0], [10, 20, 30])
    onp.testing.assert_array_equal(out[1:, :30], IMG)
    assert onp.all(img.copyMakeBorder(_u8(), 1, 1, 1, 1, value=7).asnumpy()[0] == 7)
    assert onp.all(img.copyMakeBorder(_u8(), 1, 1, 1, 1).asnumpy()[-1] == 0)


def test_copy_make_border_errors():
    with pytest.raises(ValueError, match="copyMakeBorder: top"):
        img.copyMakeBorder(_u8(), -1, 0, 0, 0)
    with pytest.raises(ValueError, match="copyMakeBorder: type"):
        img.copyMakeBorder(_u8(), 1, 0, 0, 0, type=9)
    with pytest.raises(ValueError, match="pixel budget"):
        img.copyMakeBorder(_u8(), 1 << 20, 1 << 20, 1 << 20, 1 << 20)  # refused before anything is allocated
    with pytest.raises(TypeError, match="copyMakeBorder: src"):
        img.copyMakeBorder(IMG, 1, 1, 1, 1)


# ---- imrotate ----

def _f32(h):
    return mx.nd.array(h, dtype="float32")


def test_imrotate_exact_angles():
    x = RNG.uniform(size=(2, 5, 7)).astype("float32")
    onp.testing.assert_allclose(img.imrotate(_f32(x), 0).asnumpy(), x, atol=1e-5)
    onp.testing.assert_allclose(img.imrotate(_f32(x), 180).asnumpy(), x[:, ::-1, ::-1], atol=1e-5)
    sq = RNG.uniform(size=(1, 5, 5)).astype("float32")
    # MXNet's grid turns a positive angle into numpy.rot90's direction on a square image
    onp.testing.assert_allclose(img.imrotate(_f32(sq), 90).asnumpy()[0], onp.rot90(sq[0], 1), atol=1e-5)


def test_imrotate_batch_and_zoom():
    batch = _f32(onp.ones((3, 1, 9, 9)))
    out = img.imrotate(batch, mx.nd.array([0, 45, 90]))
    assert out.shape == (3, 1, 9, 9)
    h = out.asnumpy()
    assert onp.allclose(h[0], 1) and onp.allclose(h[2], 1, atol=1e-5) and (h[1] < 0.5).sum() > 0
    assert img.imrotate(batch[1], 45, zoom_in=True).asnumpy().min() > 0.99  # no padding shows
    zo = img.imrotate(batch[1], 45, zoom_out=True).asnumpy()
    assert zo[0, 0, 0] == 0 and zo[0, 4, 4] > 0.99  # whole image in view, corners padded
    random.seed(0)
    onp.random.seed(0)
    assert img.random_rotate(batch, (-30, 30)).shape == (3, 1, 9, 9)
    assert img.random_rotate(batch[0], (-30, 30)).shape == (1, 9, 9)


def test_imrotate_gradient_reaches_the_image():
    x = _f32(RNG.uniform(size=(1, 6, 6)))
    x.attach_grad()
    with mx.autograd.record():
        y = img.imrotate(x, 0)
    y.backward()
    onp.testing.assert_allclose(x.grad.asnumpy(), onp.ones((1, 6, 6)), atol=1e-5)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: img.imrotate(_f32(onp.ones((1, 4, 4))), 10, zoom_in=True, zoom_out=True), ValueError, "zoom_in"),
    (lambda: img.imrotate(_u8(), 10), TypeError, "float32"),
    (lambda: img.imrotate(_f32(onp.ones((1, 4, 4))), mx.nd.array([1])), TypeError, "scalar"),
    (lambda: img.imrotate(_f32(onp.ones((2, 1, 4, 4))), mx.nd.array([1, 2, 3])), ValueError, "number of images"),
    (lambda: img.imrotate(_f32(onp.ones((4, 4))), 10), ValueError, "3D"),
])
def test_imrotate_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ---- detection augmenters ----

LABEL = onp.array([[0, 0.1, 0.2, 0.5, 0.6], [1, 0.4, 0.1, 0.9, 0.5]], dtype="float32")


def test_det_horizontal_flip():
    src, lab = img.DetHorizontalFlipAug(1.0)(_u8(), LABEL.copy())
    onp.testing.assert_array_equal(src.asnumpy(), IMG[:, ::-1])
    onp.testing.assert_allclose(lab[:, 1:5], [[0.5, 0.2, 0.9, 0.6], [0.1, 0.1, 0.6, 0.5]], atol=1e-6)
    src, lab = img.DetHorizontalFlipAug(0.0)(_u8(), LABEL.copy())
    onp.testing.assert_array_equal(lab, LABEL)


def test_det_random_crop_labels_follow_the_crop():
    random.seed(3)
    aug = img.DetRandomCropAug(min_object_covered=0.1, area_range=(0.3, 0.9))
    found = 0
    for _ in range(20):
        prop = aug._random_crop_proposal(LABEL, 20, 30)  # pylint: disable=protected-access
        if not prop:
            continue
        found += 1
        x, y, w, h, lab = prop
        assert 0 <= x and x + w <= 30 and 0 <= y and y + h <= 20 and 0.3 * 600 <= w * h <= 0.9 * 600 + 1
        assert onp.all((lab[:, 1:5] >= 0) & (lab[:, 1:5] <= 1))
        for row in lab:  # each kept box is an original box clipped to the crop, in crop coordinates
            orig = LABEL[LABEL[:, 0] == row[0]][0]
            want = onp.clip([(orig[1] * 30 - x) / w, (orig[2] * 20 - y) / h, (orig[3] * 30 - x) / w,
                             (orig[4] * 20 - y) / h], 0, 1)
            onp.testing.assert_allclose(row[1:5], want, atol=1e-5)
    assert found > 5
    src, lab = aug(_u8(), LABEL.copy())
    assert src.shape[0] <= 20 and src.shape[1] <= 30 and lab.shape[1] == 5
    with pytest.warns(UserWarning, match="DetRandomCropAug"):
        assert not img.DetRandomCropAug(area_range=(0.5, 0.1)).enabled


def test_det_random_pad_places_the_image():
    random.seed(1)
    aug = img.DetRandomPadAug(area_range=(1.5, 3.0), pad_val=(1, 2, 3))
    prop = aug._random_pad_proposal(LABEL, 20, 30)  # pylint: disable=protected-access
    assert prop
    random.seed(1)
    src, lab = aug(_u8(), LABEL.copy())
    x, y, w, h, want_lab = prop
    out = src.asnumpy()
    assert out.shape == (h, w, 3)
    onp.testing.assert_array_equal(out[y:y + 20, x:x + 30], IMG)
    corner = out[0, 0] if (x, y) != (0, 0) else out[-1, -1]
    onp.testing.assert_array_equal(corner, [1, 2, 3])
    onp.testing.assert_allclose(lab, want_lab)
    onp.testing.assert_allclose(lab[:, 1] * w, LABEL[:, 1] * 30 + x, atol=1e-4)


def test_select_borrow_and_dumps():
    flip = img.DetHorizontalFlipAug(1.0)
    assert img.DetRandomSelectAug([flip], skip_prob=1)(_u8(), LABEL.copy())[1].tolist() == LABEL.tolist()
    src, _ = img.DetRandomSelectAug([flip], skip_prob=0)(_u8(), LABEL.copy())
    onp.testing.assert_array_equal(src.asnumpy(), IMG[:, ::-1])
    with pytest.raises(ValueError, match="DetRandomSelectAug"):
        img.DetRandomSelectAug([img.CastAug()])
    borrow = img.DetBorrowAug(img.CastAug())
    src, lab = borrow(_u8(), LABEL)
    assert src.dtype == onp.float32 and lab is LABEL
    assert borrow.dumps()[0] == "detborrowaug"
    assert json.loads(flip.dumps()) == ["dethorizontalflipaug", {"p": 1.0}]
    with pytest.raises(TypeError, match="DetBorrowAug"):
        img.DetBorrowAug(flip)


def test_create_det_augmenter_pipeline():
    multi = img.CreateMultiRandCropAugmenter(min_object_covered=[0.1, 0.5], skip_prob=0.2)
    assert isinstance(multi, img.DetRandomSelectAug) and len(multi.aug_list) == 2
    assert multi.aug_list[1].min_object_covered == 0.5
    augs = img.CreateDetAugmenter((3, 16, 24), rand_crop=0.5, rand_pad=0.5, rand_mirror=True, mean=True, std=True,
                                  brightness=0.1)
    assert all(isinstance(a, img.DetAugmenter) for a in augs)
    random.seed(5)
    for _ in range(5):
        src, lab = _u8(), LABEL.copy()
        for a in augs:
            src, lab = a(src, lab)
        assert src.shape == (16, 24, 3) and src.dtype == onp.float32 and lab.shape[1] == 5
    with pytest.raises(ValueError, match="CreateDetAugmenter: mean"):
        img.CreateDetAugmenter((3, 16, 24), mean=[1, 2, 3])


def _write_images(tmp_path, n):
    cv2 = pytest.importorskip("cv2", reason="weft.image decodes with OpenCV (scripts/setup.sh installs it)")
    names = []
    for i in range(n):
        p = tmp_path / ("%d.png" % i)
        cv2.imwrite(str(p), IMG)
        names.append(p.name)
    return names


def test_image_det_iter(tmp_path):
    names = _write_images(tmp_path, 3)
    labels = [[2, 5, 0, 0.1, 0.1, 0.5, 0.5],
              [2, 5, 1, 0.2, 0.2, 0.6, 0.6, 2, 0.3, 0.3, 0.9, 0.8],
              [2, 5, 0, 0.5, 0.5, 0.9, 0.9]]
    items = [lab + [n] for lab, n in zip(labels, names)]
    it = img.ImageDetIter(2, (3, 10, 12), imglist=items, path_root=str(tmp_path))
    assert it.label_shape == (2, 5) and it.provide_label[0][1] == (2, 2, 5)
    b = it.next()
    assert b.data[0].shape == (2, 3, 10, 12) and b.label[0].shape == (2, 2, 5)
    lab = b.label[0].asnumpy()
    onp.testing.assert_allclose(lab[0, 0], [0, 0.1, 0.1, 0.5, 0.5], atol=1e-6)
    onp.testing.assert_array_equal(lab[0, 1], [-1] * 5)  # padded row
    onp.testing.assert_allclose(lab[1, 1], [2, 0.3, 0.3, 0.9, 0.8], atol=1e-6)
    b2 = it.next()
    assert b2.pad == 1
    with pytest.raises(StopIteration):
        it.next()
    it.reshape(label_shape=(4, 5))
    assert it.provide_label[0][1] == (2, 4, 5)
    with pytest.raises(ValueError, match="reduce label count"):
        it.reshape(label_shape=(1, 5))
    other = img.ImageDetIter(1, (3, 10, 12), imglist=items[:1], path_root=str(tmp_path))
    it.sync_label_shape(other)
    assert other.label_shape == (4, 5)


def test_image_det_iter_rejects_bad_labels(tmp_path):
    names = _write_images(tmp_path, 1)
    with pytest.raises(RuntimeError, match="Label shape"):
        img.ImageDetIter(1, (3, 10, 12), imglist=[[2, 5, 0, 0.1, names[0]]], path_root=str(tmp_path))
    with pytest.raises(RuntimeError, match="no valid label"):
        img.ImageDetIter(1, (3, 10, 12), imglist=[[2, 5, 0, 0.5, 0.5, 0.1, 0.1, names[0]]],
                         path_root=str(tmp_path))
