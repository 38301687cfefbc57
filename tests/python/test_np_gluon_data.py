"""Data in NumPy mode (issue 39 point 3): DataLoader batches are weft.np.ndarray
after npx.set_np() -- in this process, in worker processes and in worker
threads, whose datasets also run with the parent's NumPy flags; transforms take
and give np arrays; FashionMNIST and CIFAR10 read the files their download
would leave, placed by hand, as np arrays; and d2l's training loop over such a
DataLoader (d2l.load_data_fashion_mnist + train_ch6) runs a few steps."""
import gzip
import inspect
import os
import struct

import numpy as onp
import pytest

import weft as mx
from image_data import rgb_image, write_image
from weft import autograd, gluon, init, np, npx
from weft.gluon import nn
from weft.gluon.data.vision import transforms


@pytest.fixture(autouse=True)
def _np_mode():
    npx.set_np()
    yield
    npx.reset_np()


class FlagDataset(gluon.data.Dataset):
    """Samples that say whether NumPy mode was on where they were loaded."""

    def __len__(self):
        return 6

    def __getitem__(self, idx):
        return onp.float32(idx), onp.int32(npx.is_np_array())


def _loader_kinds():
    return [dict(num_workers=0), dict(num_workers=2), dict(num_workers=2, thread_pool=True)]


@pytest.mark.parametrize("kind", _loader_kinds(), ids=["same-process", "processes", "threads"])
def test_dataloader_yields_np_arrays(kind):
    x = np.random.uniform(size=(10, 3))
    y = np.arange(10)
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=4, **kind)
    seen = []
    for data, label in loader:
        assert isinstance(data, np.ndarray) and isinstance(label, np.ndarray)
        assert data.shape[1:] == (3,)
        seen.append(label.asnumpy())
    onp.testing.assert_array_equal(onp.concatenate(seen), onp.arange(10))


@pytest.mark.parametrize("kind", _loader_kinds(), ids=["same-process", "processes", "threads"])
def test_dataloader_workers_run_in_numpy_mode(kind):
    loader = gluon.data.DataLoader(FlagDataset(), batch_size=3, **kind)
    flags = onp.concatenate([f.asnumpy() for _, f in loader])
    assert flags.tolist() == [1] * 6


def test_dataloader_legacy_mode_still_gives_nd():
    npx.reset_np()
    for kind in _loader_kinds():
        loader = gluon.data.DataLoader(FlagDataset(), batch_size=3, **kind)
        for data, flag in loader:
            assert not isinstance(data, np.ndarray)
            assert flag.asnumpy().tolist() == [0, 0, 0]


def test_dataloader_host_numpy_dataset():
    """An ArrayDataset of host NumPy arrays (d2l.load_array's) batches into np arrays."""
    x = onp.arange(12, dtype="float32").reshape(6, 2)
    y = onp.arange(6, dtype="float32")
    loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x, y), batch_size=3, shuffle=False)
    batches = list(loader)
    assert all(isinstance(a, np.ndarray) for b in batches for a in b)
    onp.testing.assert_array_equal(batches[1][0].asnumpy(), x[3:])


def test_transforms_on_np_arrays():
    img = np.array(onp.random.RandomState(0).randint(0, 255, (8, 10, 3)).astype("uint8"))
    t = transforms.Compose([transforms.Resize(4), transforms.ToTensor(),
                            transforms.Normalize(mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25))])
    out = t(img)
    assert isinstance(out, np.ndarray) and out.shape == (3, 4, 4) and out.dtype == onp.float32
    tensor = transforms.ToTensor()(img)
    assert isinstance(tensor, np.ndarray) and tensor.shape == (3, 8, 10)
    onp.testing.assert_allclose(tensor.asnumpy(), img.asnumpy().transpose(2, 0, 1) / 255.0, rtol=1e-6)
    for tr, shape in ((transforms.RandomResizedCrop(5), (5, 5, 3)), (transforms.CenterCrop(4), (4, 4, 3)),
                      (transforms.RandomFlipLeftRight(), (8, 10, 3)), (transforms.Resize((6, 4)), (4, 6, 3))):
        res = tr(img)
        assert isinstance(res, np.ndarray) and res.shape == shape, tr


def _write_idx(path, array, dtype_code=0x08):
    with gzip.open(path, "wb") as f:
        f.write(struct.pack(">HBB", 0, dtype_code, array.ndim))
        f.write(struct.pack(">" + "I" * array.ndim, *array.shape))
        f.write(array.astype(">u1").tobytes())


def _place_fashion_mnist(root, n=12):
    """The four gzip idx files FashionMNIST's download leaves, with fake content."""
    rng = onp.random.RandomState(1)
    labels = (onp.arange(n) % 3).astype("uint8")
    images = rng.randint(0, 60, (n, 28, 28)).astype("uint8")
    for k in range(n):  # a class shows as a bright band, so a model can learn it
        images[k, 9 * labels[k]:9 * labels[k] + 9, :] += 150
    for prefix in ("train", "t10k"):
        _write_idx(os.path.join(root, "%s-images-idx3-ubyte.gz" % prefix), images)
        _write_idx(os.path.join(root, "%s-labels-idx1-ubyte.gz" % prefix), labels)
    return images, labels


def test_fashion_mnist_from_placed_files(tmp_path):
    images, labels = _place_fashion_mnist(str(tmp_path))
    ds = gluon.data.vision.FashionMNIST(root=str(tmp_path), train=True)
    img, label = ds[3]
    assert isinstance(img, np.ndarray) and img.shape == (28, 28, 1) and img.dtype == onp.uint8
    onp.testing.assert_array_equal(img.asnumpy()[:, :, 0], images[3])
    assert int(label) == labels[3]
    test = gluon.data.vision.FashionMNIST(root=str(tmp_path), train=False)
    assert len(test) == len(labels)


def test_cifar10_from_placed_batch(tmp_path):
    rng = onp.random.RandomState(2)
    labels = onp.array([3, 1, 4, 1], dtype="uint8")
    pixels = rng.randint(0, 255, (4, 3, 32, 32)).astype("uint8")
    with open(os.path.join(str(tmp_path), "test_batch.bin"), "wb") as f:
        for lab, pix in zip(labels, pixels):
            f.write(bytes([lab]) + pix.tobytes())
    ds = gluon.data.vision.CIFAR10(root=str(tmp_path), train=False)
    img, label = ds[2]
    assert isinstance(img, np.ndarray) and img.shape == (32, 32, 3)
    onp.testing.assert_array_equal(img.asnumpy(), pixels[2].transpose(1, 2, 0))
    assert int(label) == 4


@pytest.mark.parametrize("num_workers", [0, 2])
def test_d2l_fashion_mnist_pipeline_trains(tmp_path, num_workers):
    """d2l.load_data_fashion_mnist (transform_first(ToTensor), DataLoader) feeding
    d2l's LeNet with d2l's loop: batches are np arrays and the loss goes down."""
    _place_fashion_mnist(str(tmp_path), n=24)
    mnist_train = gluon.data.vision.FashionMNIST(root=str(tmp_path), train=True)
    trans = transforms.Compose([transforms.ToTensor()])
    train_iter = gluon.data.DataLoader(mnist_train.transform_first(trans), batch_size=8, shuffle=True,
                                       num_workers=num_workers)
    net = nn.HybridSequential()
    net.add(nn.Conv2D(6, kernel_size=5, padding=2, activation="relu"), nn.MaxPool2D(pool_size=2, strides=2),
            nn.Dense(32, activation="relu"), nn.Dense(3))
    net.initialize(init.Xavier())
    net.hybridize()
    loss = gluon.loss.SoftmaxCrossEntropyLoss()
    trainer = gluon.Trainer(net.collect_params(), "sgd", {"learning_rate": 0.1})
    epoch_losses = []
    for _ in range(4):
        total = 0.0
        for X, y in train_iter:
            assert isinstance(X, np.ndarray) and X.shape[1:] == (1, 28, 28) and X.dtype == onp.float32
            with autograd.record():
                l = loss(net(X), y)
            l.backward()
            trainer.step(X.shape[0])
            total += float(l.sum())
        epoch_losses.append(total)
    assert epoch_losses[-1] < 0.7 * epoch_losses[0], epoch_losses


def test_fashion_mnist_default_folder():
    """Without root, FashionMNIST reads $MXNET_HOME/datasets/fashion-mnist (MXNet's folder, not MNIST's)."""
    root = inspect.signature(gluon.data.vision.FashionMNIST.__init__).parameters["root"].default
    assert root.replace(os.sep, "/").endswith("datasets/fashion-mnist")
    mnist_root = inspect.signature(gluon.data.vision.MNIST.__init__).parameters["root"].default
    assert mnist_root.replace(os.sep, "/").endswith("datasets/mnist")


def test_image_read_decode_resize_give_np_arrays(tmp_path):
    """mx.image.imread / imdecode / imresize return np arrays in NumPy mode (MXNet
    1.9.1 calls its _npi_ image ops then), legacy arrays otherwise."""
    img = rgb_image(6, 8, seed=0)
    path = os.path.join(str(tmp_path), "a.png")
    write_image(path, img)
    read = mx.image.imread(path)
    assert isinstance(read, np.ndarray) and read.shape == (6, 8, 3)
    onp.testing.assert_array_equal(read.asnumpy(), img)
    with open(path, "rb") as f:
        assert isinstance(mx.image.imdecode(f.read()), np.ndarray)
    small = mx.image.imresize(read, 4, 3)
    assert isinstance(small, np.ndarray) and small.shape == (3, 4, 3)
    npx.reset_np()
    assert not isinstance(mx.image.imread(path), np.ndarray)
    assert not isinstance(mx.image.imresize(read.as_nd_ndarray(), 4, 3), np.ndarray)
