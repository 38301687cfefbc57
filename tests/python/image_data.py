"""Small generated images and RecordIO files for the data-pipeline tests."""
import numpy as np


def cv2():
    import cv2 as _cv2  # pylint: disable=import-outside-toplevel
    return _cv2


def rgb_image(h, w, seed):
    """A smooth RGB uint8 image (gradients survive JPEG well)."""
    rng = np.random.RandomState(seed)
    y, x = np.mgrid[0:h, 0:w]
    base = rng.randint(0, 120, size=3)
    img = np.stack([(base[0] + 4 * x) % 256, (base[1] + 3 * y) % 256, (base[2] + 2 * (x + y)) % 256], axis=-1)
    return img.astype(np.uint8)


def encode(img_rgb, ext=".png", quality=None):
    """The file bytes of an RGB image (OpenCV encodes BGR)."""
    params = [] if quality is None else [cv2().IMWRITE_JPEG_QUALITY, quality]
    ok, buf = cv2().imencode(ext, img_rgb[:, :, ::-1], params)
    assert ok
    return buf.tobytes()


def write_image(path, img_rgb):
    ext = "." + str(path).rsplit(".", 1)[1]
    with open(path, "wb") as f:
        f.write(encode(img_rgb, ext))


def write_image_rec(tmp_path, images, labels, name="data", ext=".png"):
    """<name>.rec / <name>.idx holding the images (PNG: lossless) with the labels; returns the paths."""
    from weft import recordio  # pylint: disable=import-outside-toplevel
    rec, idx = str(tmp_path / (name + ".rec")), str(tmp_path / (name + ".idx"))
    w = recordio.MXIndexedRecordIO(idx, rec, "w")
    for i, (img, label) in enumerate(zip(images, labels)):
        w.write_idx(i, recordio.pack(recordio.IRHeader(0, label, i, 0), encode(img, ext)))
    w.close()
    return rec, idx
