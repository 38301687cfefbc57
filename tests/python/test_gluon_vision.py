"""gluon.data.vision: datasets read from small files in the real formats (idx,
CIFAR binary, image folders, lists, RecordIO) and the transforms' results
against MXNet's formulas; a DataLoader with worker processes runs them."""
import os
import random
import urllib.request

import numpy as np
import pytest

import weft as mx
from weft import gluon
from weft.gluon.data import vision
from weft.gluon.data.vision import transforms as T
from weft.io.idx_format import write_idx

from image_data import rgb_image, write_image, write_image_rec


def _mnist_files(root, n, gz, prefix="train"):
    rng = np.random.RandomState(1)
    images = rng.randint(0, 256, size=(n, 28, 28)).astype(np.uint8)
    labels = (np.arange(n) * 3 % 10).astype(np.uint8)
    ext = ".gz" if gz else ""
    kind = "train" if prefix == "train" else "t10k"
    write_idx(root / ("%s-images-idx3-ubyte%s" % (kind, ext)), images, compress=gz)
    write_idx(root / ("%s-labels-idx1-ubyte%s" % (kind, ext)), labels, compress=gz)
    return images, labels


@pytest.mark.parametrize("cls", [vision.MNIST, vision.FashionMNIST])
def test_mnist_datasets(tmp_path, cls):
    images, labels = _mnist_files(tmp_path, 6, gz=True)
    test_images, _ = _mnist_files(tmp_path, 2, gz=False, prefix="t10k")
    ds = cls(root=str(tmp_path))
    assert len(ds) == 6
    img, label = ds[4]
    assert img.shape == (28, 28, 1) and img.dtype == np.uint8 and label == labels[4]
    assert isinstance(label, np.int32)
    np.testing.assert_array_equal(img.asnumpy()[:, :, 0], images[4])
    test = cls(root=str(tmp_path), train=False, transform=lambda x, y: (x.astype("float32") / 2, y))
    np.testing.assert_allclose(test[1][0].asnumpy()[:, :, 0], test_images[1] / 2.0)


def test_missing_dataset_files_are_named(tmp_path):
    with pytest.raises(mx.WeftIOError, match=r"MNIST: file not found: .*train-images-idx3-ubyte\.gz.*download=True"):
        vision.MNIST(root=str(tmp_path / "none"))
    with pytest.raises(mx.WeftIOError, match=r"CIFAR10: file not found: .*data_batch_1\.bin"):
        vision.CIFAR10(root=str(tmp_path / "none"))


def test_download_goes_to_the_repository_and_checks_sha1(tmp_path, monkeypatch):
    # a file:// repository stands in for MXNet's: the URL layout and the SHA-1 check are exercised
    repo = tmp_path / "repo"
    os.makedirs(repo / "gluon" / "dataset" / "mnist")
    _mnist_files(repo / "gluon" / "dataset" / "mnist", 2, gz=True)
    monkeypatch.setenv("MXNET_GLUON_REPO", urllib.request.pathname2url(str(repo)).join(["file://", "/"]))
    with pytest.raises(mx.WeftIOError, match=r"train-images-idx3-ubyte\.gz has the wrong SHA-1"):
        vision.MNIST(root=str(tmp_path / "root"), download=True)
    assert not os.path.exists(tmp_path / "root" / "train-images-idx3-ubyte.gz")


def _cifar_rows(n, label_bytes, seed):
    rng = np.random.RandomState(seed)
    pixels = rng.randint(0, 256, size=(n, 3, 32, 32)).astype(np.uint8)
    labels = rng.randint(0, 10, size=(n, label_bytes)).astype(np.uint8)
    return pixels, labels, np.concatenate([labels, pixels.reshape(n, -1)], axis=1).tobytes()


def test_cifar10_binary_batches(tmp_path):
    sub = tmp_path / "cifar-10-batches-bin"  # the folder the official archive unpacks to
    os.makedirs(sub)
    expected = []
    for i in range(1, 6):
        pixels, labels, blob = _cifar_rows(2, 1, i)
        (sub / ("data_batch_%d.bin" % i)).write_bytes(blob)
        expected.append((pixels, labels))
    (sub / "test_batch.bin").write_bytes(_cifar_rows(3, 1, 9)[2])
    ds = vision.CIFAR10(root=str(tmp_path))
    assert len(ds) == 10
    img, label = ds[7]  # batch 4, row 1
    assert img.shape == (32, 32, 3) and label == expected[3][1][1, 0]
    np.testing.assert_array_equal(img.asnumpy(), expected[3][0][1].transpose(1, 2, 0))
    assert len(vision.CIFAR10(root=str(tmp_path), train=False)) == 3
    (sub / "test_batch.bin").write_bytes(_cifar_rows(3, 1, 9)[2][:-10])
    with pytest.raises(mx.WeftIOError, match=r"test_batch\.bin is 9209 bytes.*truncated"):
        vision.CIFAR10(root=str(tmp_path), train=False)


def test_cifar100_fine_and_coarse(tmp_path):
    pixels, labels, blob = _cifar_rows(4, 2, 3)
    (tmp_path / "train.bin").write_bytes(blob)
    (tmp_path / "test.bin").write_bytes(blob)
    coarse = vision.CIFAR100(root=str(tmp_path))
    fine = vision.CIFAR100(root=str(tmp_path), fine_label=True, train=False)
    assert [coarse[i][1] for i in range(4)] == labels[:, 0].tolist()
    assert [fine[i][1] for i in range(4)] == labels[:, 1].tolist()
    np.testing.assert_array_equal(fine[2][0].asnumpy(), pixels[2].transpose(1, 2, 0))


def test_image_folder_list_and_record_datasets(tmp_path):
    for cls, seeds in (("b_dog", (1, 2)), ("a_cat", (3,))):
        os.makedirs(tmp_path / "f" / cls)
        for s in seeds:
            write_image(tmp_path / "f" / cls / ("%d.png" % s), rgb_image(5, 7, s))
    (tmp_path / "f" / "a_cat" / "readme.txt").write_text("x")
    with pytest.warns(UserWarning, match="readme.txt"):
        ds = vision.ImageFolderDataset(str(tmp_path / "f"))
    assert ds.synsets == ["a_cat", "b_dog"] and [label for _, label in ds.items] == [0, 1, 1]
    img, label = ds[1]
    np.testing.assert_array_equal(img.asnumpy(), rgb_image(5, 7, 1))
    assert label == 1
    with pytest.warns(UserWarning, match="readme.txt"):
        gray = vision.ImageFolderDataset(str(tmp_path / "f"), flag=0, transform=lambda x, y: (x.shape, y + 10))
    assert gray[0] == ((5, 7, 1), 10)

    (tmp_path / "f" / "x.lst").write_text("0\t4.000000\ta_cat/3.png\n1\t5.000000\tb_dog/2.png\n")
    lst = vision.ImageListDataset(root=str(tmp_path / "f"), imglist="x.lst")
    img, label = lst[1]
    np.testing.assert_array_equal(img.asnumpy(), rgb_image(5, 7, 2))
    assert label.asnumpy().tolist() == [5.0]
    lst = vision.ImageListDataset(root=str(tmp_path / "f"), imglist=[[1, 2, "b_dog/1.png"], [7, "a_cat/3.png"]])
    assert lst[0][1].asnumpy().tolist() == [1, 2] and lst[1][1].asnumpy().tolist() == [7]

    images = [rgb_image(6, 6, s) for s in range(4)]
    rec, _ = write_image_rec(tmp_path, images, [0.0, 1.0, 2.0, 3.0])
    rds = vision.ImageRecordDataset(rec)
    assert len(rds) == 4
    img, label = rds[2]
    np.testing.assert_array_equal(img.asnumpy(), images[2])
    assert label == 2.0
    raw = gluon.data.RecordFileDataset(rec)
    assert isinstance(raw[0], bytes) and len(raw) == 4


def test_record_dataset_bad_records(tmp_path):
    from weft import recordio
    rec, idx = str(tmp_path / "r.rec"), str(tmp_path / "r.idx")
    w = recordio.MXIndexedRecordIO(idx, rec, "w")
    w.write_idx(0, recordio.pack((0, 0.0, 0, 0), b"no image here"))
    w.close()
    with pytest.raises(mx.WeftIOError, match=r"r\.rec record 0 \(key 0\).*not an image"):
        vision.ImageRecordDataset(rec)[0]
    os.remove(idx)
    with pytest.raises(mx.WeftIOError, match=r"index file not found: .*r\.idx"):
        vision.ImageRecordDataset(rec)


def test_to_tensor_normalize_cast_hybridized():
    x = mx.nd.array(rgb_image(4, 6, 0), dtype=np.uint8)
    ref = rgb_image(4, 6, 0).transpose(2, 0, 1).astype(np.float32) / 255.0
    t = T.ToTensor()(x)
    assert t.shape == (3, 4, 6) and t.dtype == np.float32
    np.testing.assert_allclose(t.asnumpy(), ref, rtol=1e-6)
    batch = T.ToTensor()(mx.nd.array(np.stack([rgb_image(4, 6, 0)] * 2), dtype=np.uint8))
    assert batch.shape == (2, 3, 4, 6)
    mean, std = (0.1, 0.2, 0.3), (0.5, 0.25, 2.0)
    want = (ref - np.array(mean).reshape(3, 1, 1)) / np.array(std).reshape(3, 1, 1)
    np.testing.assert_allclose(T.Normalize(mean, std)(t).asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(T.Normalize(0.5, 2.0)(t).asnumpy(), (ref - 0.5) / 2.0, rtol=1e-5)
    both = T.Normalize(mean, std)(batch).asnumpy()
    np.testing.assert_allclose(both[1], want, rtol=1e-5)
    hybrid = T.HybridCompose([T.ToTensor(), T.Normalize(mean, std)])
    np.testing.assert_allclose(hybrid(x).asnumpy(), want, rtol=1e-5)
    assert T.Cast("float16")(x).dtype == np.float16
    with pytest.raises(ValueError, match="not a HybridBlock"):
        T.HybridCompose([T.Resize(3)])
    with pytest.raises(ValueError, match="3 means/stds"):
        T.Normalize(mean, std)(mx.nd.zeros((2, 4, 4)))


def test_geometry_transforms():
    img = rgb_image(6, 8, 1)
    x = mx.nd.array(img, dtype=np.uint8)
    assert T.Resize((5, 3))(x).shape == (3, 5, 3)
    assert T.Resize(4)(x).shape == (4, 4, 3)
    assert T.Resize(3, keep_ratio=True)(x).shape == (3, 4, 3)  # short side 6 -> 3, 8 * 3 / 6 = 4
    np.testing.assert_array_equal(T.CenterCrop((4, 2))(x).asnumpy(), img[2:4, 2:6])
    np.testing.assert_array_equal(T.RandomFlipLeftRight(p=1.0)(x).asnumpy(), img[:, ::-1])
    np.testing.assert_array_equal(T.RandomFlipTopBottom(p=1.0)(x).asnumpy(), img[::-1])
    np.testing.assert_array_equal(T.RandomFlipLeftRight(p=0.0)(x).asnumpy(), img)
    random.seed(3)
    out = T.RandomCrop(4, pad=2)(x).asnumpy()
    padded = np.pad(img, ((2, 2), (2, 2), (0, 0)))
    random.seed(3)
    x0, y0 = random.randint(0, 12 - 4), random.randint(0, 10 - 4)
    np.testing.assert_array_equal(out, padded[y0:y0 + 4, x0:x0 + 4])
    out = T.RandomCrop(4, pad=(1, 0, 3, 2))(x).asnumpy()  # (top, bottom, left, right)
    assert out.shape == (4, 4, 3)
    assert T.RandomResizedCrop(5, scale=0.5)(x).shape == (5, 5, 3)
    assert T.RandomResizedCrop(5)(x).shape == (5, 5, 3)
    assert T.RandomResizedCrop((3, 5), scale=(0.5, 1.0))(x).shape == (5, 3, 3)
    batch = mx.nd.array(np.stack([img, img]), dtype=np.uint8)
    assert T.Resize(4)(batch).shape == (2, 4, 4, 3)


def test_color_transforms_formulas():
    img = rgb_image(4, 5, 2).astype(np.float32)
    x = mx.nd.array(img)
    gray = (img * [0.299, 0.587, 0.114]).sum(axis=2, keepdims=True)
    random.seed(0)
    a = random.uniform(0.7, 1.3)
    random.seed(0)
    np.testing.assert_allclose(T.RandomBrightness(0.3)(x).asnumpy(), img * a, rtol=1e-5)
    random.seed(1)
    a = random.uniform(0.5, 1.5)
    random.seed(1)
    np.testing.assert_allclose(T.RandomContrast(0.5)(x).asnumpy(), img * a + (1 - a) * gray.mean(), rtol=1e-4)
    random.seed(2)
    a = random.uniform(0.6, 1.4)
    random.seed(2)
    np.testing.assert_allclose(T.RandomSaturation(0.4)(x).asnumpy(), img * a + (1 - a) * gray, rtol=1e-4)
    u8 = mx.nd.array(np.full((2, 2, 3), 200), dtype=np.uint8)
    bright = T.RandomBrightness(0.0)(u8)
    assert bright.dtype == np.uint8 and bright.asnumpy().max() == 200
    assert T.RandomBrightness(5.0)(u8).asnumpy().max() <= 255  # saturates, never wraps
    np.testing.assert_allclose(T.RandomHue(0.0)(x).asnumpy(), img, atol=0.05)  # a full 360 degree turn
    # HLS hue rotation by alpha * 360 degrees, as MXNet's AdjustHueImpl: red -> green -> blue
    red = mx.nd.array([[[255, 0, 0], [128, 64, 64]]], dtype=np.uint8)
    np.testing.assert_array_equal(T.adjust_hue(red, 1.0 / 3).asnumpy()[0, 0], [0, 255, 0])
    np.testing.assert_array_equal(T.adjust_hue(red, 2.0 / 3).asnumpy()[0, 1], [64, 64, 128])
    # RandomColorJitter: the four jitters in a shuffled order, a factor drawn for each one > 0
    values = {0: 0.2, 1: 0.0, 2: 0.3, 3: 0.1}
    adjust = {0: T.adjust_brightness, 1: T.adjust_contrast, 2: T.adjust_saturation, 3: T.adjust_hue}
    random.seed(6)
    order = [0, 1, 2, 3]
    random.shuffle(order)
    want = x
    for k in order:
        if values[k] > 0:
            want = adjust[k](want, (0.0 if k == 3 else 1.0) + random.uniform(-values[k], values[k]))
    random.seed(6)
    got = T.RandomColorJitter(brightness=0.2, contrast=0.0, saturation=0.3, hue=0.1)(x)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-5)
    eigval = np.array([55.46, 4.794, 1.148])
    eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])
    np.random.seed(5)
    rgb = np.dot(eigvec * np.random.normal(0, 0.1, size=(3,)), eigval)
    np.random.seed(5)
    np.testing.assert_allclose(T.RandomLighting(0.1)(x).asnumpy(), img + rgb, rtol=1e-5)


def test_transforms_pass_extra_arguments_through():
    x = mx.nd.array(rgb_image(8, 8, 0), dtype=np.uint8)
    label = np.int32(4)
    out, lab = T.Resize(4)(x, label)
    assert out.shape == (4, 4, 3) and lab is label
    out, lab = T.ToTensor()(x, label)
    assert out.shape == (3, 8, 8) and lab is label
    c = T.Compose([T.CenterCrop(4), T.ToTensor(), T.Normalize(0.5, 0.25), T.RandomFlipLeftRight(p=0.0)])
    out, lab = c(x, label)
    assert out.shape == (3, 4, 4) and lab == 4
    np.testing.assert_allclose(out.asnumpy(), (rgb_image(8, 8, 0)[2:6, 2:6].transpose(2, 0, 1) / 255.0 - 0.5) / 0.25,
                               rtol=1e-5, atol=1e-6)
    out, lab = T.HybridCompose([T.ToTensor(), T.Normalize(0.5, 0.25)])(x, label)
    assert out.shape == (3, 8, 8) and lab == 4
    a, b = T.Cast("float64")(x, mx.nd.array([1], dtype="int32"))
    assert a.dtype == np.float64 and b.dtype == np.float64
    ds = gluon.data.ArrayDataset(mx.nd.array(np.stack([rgb_image(8, 8, 1)] * 2), dtype=np.uint8), [0, 1])
    img, lab = ds.transform(T.Compose([T.ToTensor()]))[1]
    assert img.shape == (3, 8, 8) and lab == 1


def test_compose_groups_hybrid_runs():
    c = T.Compose([T.Resize(4), T.Cast(), T.ToTensor(), T.Normalize(0.5, 0.5), T.RandomFlipLeftRight(p=0.0)])
    kinds = [type(b).__name__ for b in c._children.values()]
    assert kinds == ["Resize", "_HybridRun", "RandomFlipLeftRight"]
    out = c(mx.nd.array(rgb_image(8, 8, 0), dtype=np.uint8))
    assert out.shape == (3, 4, 4) and out.dtype == np.float32


def test_dataloader_workers_run_the_transforms(tmp_path):
    images = [rgb_image(8, 8, s) for s in range(6)]
    rec, _ = write_image_rec(tmp_path, images, [float(i) for i in range(6)])
    ds = vision.ImageRecordDataset(rec).transform_first(
        T.Compose([T.CenterCrop(4), T.ToTensor(), T.Normalize((0.5, 0.5, 0.5), (0.25, 0.25, 0.25))]))
    loader = gluon.data.DataLoader(ds, batch_size=3, num_workers=2)
    batches = list(loader)
    assert len(batches) == 2
    data, label = batches[1]
    assert data.shape == (3, 3, 4, 4) and label.asnumpy().tolist() == [3, 4, 5]
    want = (images[4][2:6, 2:6].transpose(2, 0, 1) / 255.0 - 0.5) / 0.25
    np.testing.assert_allclose(data.asnumpy()[1], want, rtol=1e-5, atol=1e-6)
