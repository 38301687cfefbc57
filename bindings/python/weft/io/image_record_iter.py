"""ImageRecordIter and ImageRecordUInt8Iter: batches of images from a RecordIO
file, decoded and augmented in a thread pool, with MXNet 1.x's parameters.

This is the *Python* implementation: records are read by a background thread,
decoded (OpenCV: JPEG and PNG) and augmented by ``preprocess_threads`` threads
(OpenCV releases the GIL), and up to ``prefetch_buffer`` batches are made
ahead of the consumer. ``weft.io.ImageRecordIter`` is the C++ pipeline
(native_image_record_iter.py, core/io/), with this interface; it hands over to
this implementation only for inter_method 2/3/4/9/10 (OpenCV's cubic, area,
Lanczos and automatic resizers).

Note [ImageRecordIter pipeline]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
Each epoch has an order of records (the file's, or a permutation drawn from
``seed`` and the epoch number when ``shuffle``), cut into batches as MXNet's
BatchLoader does (Note [round_batch] in batch_loader.py). The producer thread
turns batch after batch into numpy arrays and puts them on a queue of
``prefetch_buffer`` places; ``next()`` takes from it. Each sample's random
augmentation uses its own RandomState, seeded by (``seed_aug`` or ``seed``,
epoch, position in the epoch), so results do not depend on which thread ran
it. ``reset()`` stops the producer, empties the queue and starts the next
epoch. An error in a record (truncated, not an image, wrong label width, too
small for data_shape) is raised by ``next()`` with the file and record named.
"""
import concurrent.futures
import queue
import struct
import threading
import weakref

import numpy as np

from .. import ndarray as nd
from .. import recordio
from ..base import WeftIOError
from ..image_decode import cv2_module, imdecode_numpy
from .base import BatchIter, DataBatch, DataDesc, ignore_unknown

__all__ = ["ImageRecordIter", "ImageRecordUInt8Iter"]

_UNSUPPORTED = {"max_rotate_angle": 0, "max_shear_ratio": 0, "rotate": -1, "random_h": 0, "random_s": 0,
                "random_l": 0, "max_random_scale": 1, "min_random_scale": 1, "max_img_size": 1e10,
                "min_img_size": 0, "max_crop_size": -1, "min_crop_size": -1, "pad": 0, "mean_img": "",
                "aug_seq": "aug_default", "path_imglist": ""}
_ACCEPTED = ("verbose", "device_id", "ctx", "shuffle_chunk_size", "shuffle_chunk_seed", "fill_value",
             "max_random_contrast", "max_random_illumination", "mean_a", "std_a")


def _scan_offsets(path):
    """The byte offset of every record of a RecordIO file without an index."""
    offsets = []
    with open(path, "rb") as f:
        size = f.seek(0, 2)
        f.seek(0)
        while True:
            start = f.tell()
            first = True
            while True:
                head = f.read(8)
                if not head and first:
                    return offsets
                if len(head) != 8:
                    raise WeftIOError("%s: damaged RecordIO file: truncated record header (record %d, byte offset %d)"
                                      % (path, len(offsets), f.tell() - len(head)))
                magic, lrec = struct.unpack("<II", head)
                if magic != recordio.RECORD_MAGIC:
                    raise WeftIOError("%s: damaged RecordIO file: bad magic number (record %d, byte offset %d)"
                                      % (path, len(offsets), f.tell() - 8))
                length = lrec & ((1 << 29) - 1)
                if f.seek(length + (-length % 4), 1) > size:
                    raise WeftIOError("%s: damaged RecordIO file: truncated record (record %d, byte offset %d)"
                                      % (path, len(offsets), start))
                first = False
                if (lrec >> 29) in (0, 3):
                    break
            offsets.append(start)


def _put(out, item, stop, owner_ref):
    """Puts item on the queue unless the epoch is stopped or the iterator is gone."""
    while not stop.is_set() and owner_ref() is not None:
        try:
            out.put(item, timeout=0.1)
            return
        except queue.Full:
            continue


def _produce(owner_ref, path, batches, epoch, stop, out):
    """The producer thread (Note [ImageRecordIter pipeline]). It holds the
    iterator only while it loads a batch, so an iterator dropped mid-epoch is
    collected and its __del__ stops this thread."""
    reader = owner = None
    try:
        reader = recordio.MXRecordIO(path, "r")
        for position, (indices, pad) in enumerate(batches):
            owner = owner_ref()
            if owner is None or stop.is_set():
                return
            batch = owner._load_batch(reader, indices, pad, epoch, position)  # pylint: disable=protected-access
            del owner
            _put(out, ("batch", batch), stop, owner_ref)
        _put(out, ("end", None), stop, owner_ref)
    except BaseException as e:  # pylint: disable=broad-except
        owner = None  # the error goes to the consumer; this thread must not keep the iterator alive
        e.__traceback__ = None
        _put(out, ("error", e), stop, owner_ref)
    finally:
        if reader is not None:
            reader.close()


class _Augmenter:
    """MXNet's default image augmenter (resize, crop, mirror, colour) on HWC RGB numpy images."""

    def __init__(self, p):
        self.p = p

    def __call__(self, img, rng, where):
        cv2 = cv2_module()  # OpenCV, imported on first use
        p = self.p
        _, h_out, w_out = p["data_shape"]
        interp = p["inter_method"]
        if p["resize"] > 0:
            h, w = img.shape[:2]
            if h > w:
                size = (p["resize"], int(h * p["resize"] / w))
            else:
                size = (int(w * p["resize"] / h), p["resize"])
            img = cv2.resize(img, size, interpolation=interp)
        h, w = img.shape[:2]
        if p["random_resized_crop"]:
            img = self._random_resized_crop(img, rng, h_out, w_out, interp)
        else:
            if h < h_out or w < w_out:
                raise WeftIOError("%s: the image is %dx%d (h x w), smaller than data_shape %s; set resize"
                                  % (where, h, w, tuple(p["data_shape"])))
            if p["rand_crop"]:
                y0, x0 = rng.randint(0, h - h_out + 1), rng.randint(0, w - w_out + 1)
            else:
                y0, x0 = (h - h_out) // 2, (w - w_out) // 2
            img = img[y0:y0 + h_out, x0:x0 + w_out]
        if p["rand_mirror"] and rng.randint(0, 2):
            img = img[:, ::-1]
        if img.ndim == 2:
            img = img[:, :, None]
        return self._colour(np.ascontiguousarray(img), rng)

    def _random_resized_crop(self, img, rng, h_out, w_out, interp):
        cv2 = cv2_module()  # OpenCV, imported on first use
        p = self.p
        h, w = img.shape[:2]
        lo_ratio = p["min_aspect_ratio"] if p["min_aspect_ratio"] is not None else 1 - p["max_aspect_ratio"]
        hi_ratio = 1 + p["max_aspect_ratio"] if p["min_aspect_ratio"] is None else p["max_aspect_ratio"]
        for _ in range(10):
            area = rng.uniform(p["min_random_area"], p["max_random_area"]) * h * w
            ratio = np.exp(rng.uniform(np.log(lo_ratio), np.log(hi_ratio)))
            cw, ch = int(round(np.sqrt(area * ratio))), int(round(np.sqrt(area / ratio)))
            if 0 < cw <= w and 0 < ch <= h:
                y0, x0 = rng.randint(0, h - ch + 1), rng.randint(0, w - cw + 1)
                return cv2.resize(img[y0:y0 + ch, x0:x0 + cw], (w_out, h_out), interpolation=interp)
        side = min(h, w)
        y0, x0 = (h - side) // 2, (w - side) // 2
        return cv2.resize(img[y0:y0 + side, x0:x0 + side], (w_out, h_out), interpolation=interp)

    def _colour(self, img, rng):
        p = self.p
        if not (p["brightness"] or p["contrast"] or p["saturation"] or p["pca_noise"]) or img.shape[2] != 3:
            return img
        out = img.astype(np.float32)
        coef = np.array([0.299, 0.587, 0.114], dtype=np.float32)
        if p["brightness"]:
            out *= 1.0 + rng.uniform(-p["brightness"], p["brightness"])
        if p["contrast"]:
            alpha = 1.0 + rng.uniform(-p["contrast"], p["contrast"])
            out = out * alpha + (1.0 - alpha) * float((out * coef).sum(axis=2).mean())
        if p["saturation"]:
            alpha = 1.0 + rng.uniform(-p["saturation"], p["saturation"])
            out = out * alpha + (1.0 - alpha) * (out * coef).sum(axis=2, keepdims=True)
        if p["pca_noise"]:
            eigval = np.array([55.46, 4.794, 1.148])
            eigvec = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])
            out += np.dot(eigvec * rng.normal(0, p["pca_noise"], size=3), eigval).astype(np.float32)
        return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def check_args(name, what, kwargs, data_shape, batch_size, preprocess_threads, prefetch_buffer, num_parts,
               part_index):
    """The argument checks both ImageRecordIter paths (this one and the C++ one,
    native_image_record_iter.py) make; returns data_shape as a tuple of ints."""
    for k, v in kwargs.items():
        if k in _UNSUPPORTED and v != _UNSUPPORTED[k]:
            raise NotImplementedError("%s: %s is not implemented in %s" % (name, k, what))
    ignore_unknown(name, {k: v for k, v in kwargs.items() if k not in _UNSUPPORTED and k not in _ACCEPTED})
    data_shape = tuple(int(s) for s in data_shape)
    if len(data_shape) != 3 or data_shape[0] not in (1, 3):
        raise ValueError("data_shape must be (channels, height, width) with 1 or 3 channels, got %s"
                         % (data_shape,))
    if batch_size <= 0 or preprocess_threads <= 0 or prefetch_buffer <= 0:
        raise ValueError("batch_size, preprocess_threads and prefetch_buffer must be positive")
    if num_parts <= 0 or not 0 <= part_index < num_parts:
        raise ValueError("part_index must be in [0, num_parts), got part_index=%d, num_parts=%d"
                         % (part_index, num_parts))
    return data_shape


class ImageRecordIter(BatchIter):
    """Batches (batch, C, H, W) of the images of ``path_imgrec`` (float32,
    (pixel - mean_c) / std_c * scale, RGB), labels (batch,) or
    (batch, label_width). Parameters as MXNet's ImageRecordIter: data_shape,
    batch_size, path_imgidx, label_width, shuffle, seed, seed_aug, num_parts /
    part_index (contiguous shares of the records), round_batch, resize,
    rand_crop, random_resized_crop (min/max_random_area, min/max_aspect_ratio),
    rand_mirror, brightness, contrast, saturation, pca_noise, inter_method,
    mean_r/g/b, std_r/g/b, scale, preprocess_threads, prefetch_buffer, dtype,
    data_name, label_name. See Note [ImageRecordIter pipeline]; this is the
    Python implementation."""

    _normalize = True

    def __init__(self, path_imgrec, data_shape, batch_size, path_imgidx="", label_width=1, shuffle=False, seed=0,
                 seed_aug=None, num_parts=1, part_index=0, round_batch=True, resize=-1, rand_crop=False,
                 random_resized_crop=False, min_random_area=1.0, max_random_area=1.0, min_aspect_ratio=None,
                 max_aspect_ratio=0.0, rand_mirror=False, brightness=0.0, contrast=0.0, saturation=0.0,
                 pca_noise=0.0, inter_method=1, mean_r=0.0, mean_g=0.0, mean_b=0.0, std_r=1.0, std_g=1.0, std_b=1.0,
                 scale=1.0, preprocess_threads=4, prefetch_buffer=4, dtype=None, data_name="data",
                 label_name="softmax_label", **kwargs):
        super().__init__(batch_size)
        data_shape = check_args(type(self).__name__, "weft's Python ImageRecordIter", kwargs, data_shape,
                                batch_size, preprocess_threads, prefetch_buffer, num_parts, part_index)
        self.path_imgrec = str(path_imgrec)
        if path_imgidx:
            index = recordio.MXIndexedRecordIO(path_imgidx, self.path_imgrec, "r")
            offsets = [index.idx[k] for k in index.keys]
            index.close()
        else:
            try:
                offsets = _scan_offsets(self.path_imgrec)
            except FileNotFoundError:
                raise WeftIOError("RecordIO file not found: %s" % self.path_imgrec) from None
        step = (len(offsets) + num_parts - 1) // num_parts
        self._offsets = offsets[part_index * step:(part_index + 1) * step]
        if not self._offsets:
            raise WeftIOError("%s: no records (part %d of %d)" % (self.path_imgrec, part_index, num_parts))
        if round_batch and len(self._offsets) < batch_size:
            raise ValueError("%s: number of input must be bigger than batch size (%d records, batch_size %d)"
                             % (self.path_imgrec, len(self._offsets), batch_size))
        self._params = dict(data_shape=data_shape, resize=resize, rand_crop=rand_crop,
                            random_resized_crop=random_resized_crop, min_random_area=min_random_area,
                            max_random_area=max_random_area, min_aspect_ratio=min_aspect_ratio,
                            max_aspect_ratio=max_aspect_ratio, rand_mirror=rand_mirror, brightness=brightness,
                            contrast=contrast, saturation=saturation, pca_noise=pca_noise, inter_method=inter_method)
        self._augment = _Augmenter(self._params)
        self._mean = np.array([mean_r, mean_g, mean_b][:data_shape[0]], dtype=np.float32).reshape(-1, 1, 1)
        self._std = np.array([std_r, std_g, std_b][:data_shape[0]], dtype=np.float32).reshape(-1, 1, 1)
        self._scale = float(scale)
        self._label_width = int(label_width)
        self._shuffle = shuffle
        self._seed = int(seed)
        self._seed_aug = int(seed_aug) if seed_aug is not None else int(seed)
        self._round_batch = bool(round_batch)
        self._threads = int(preprocess_threads)
        self._prefetch = int(prefetch_buffer)
        out_dtype = np.float32 if self._normalize else np.uint8
        self._dtype = np.dtype(dtype) if dtype is not None else np.dtype(out_dtype)
        label_shape = (batch_size,) if self._label_width == 1 else (batch_size, self._label_width)
        self.provide_data = [DataDesc(data_name, (batch_size,) + data_shape, self._dtype)]
        self.provide_label = [DataDesc(label_name, label_shape, np.float32)]
        self._epoch = 0
        self._start = 0
        self._pool = concurrent.futures.ThreadPoolExecutor(self._threads)
        self._worker = None
        self._stop = None
        self._queue = None
        self.current_batch = None
        self._begin_epoch()

    # ---- the producer (Note [ImageRecordIter pipeline]) ------------------------------
    def _epoch_batches(self):
        n, bs = len(self._offsets), self.batch_size
        order = np.arange(n)
        if self._shuffle:
            order = np.random.RandomState((self._seed + 7919 * self._epoch) % (1 << 32)).permutation(n)
        batches, pos = [], self._start
        while pos < n:
            stop = pos + bs
            if stop <= n:
                batches.append((order[pos:stop], 0))
                pos = stop
                continue
            if self._round_batch:
                wrap = bs - (n - pos)
                batches.append((np.concatenate([order[pos:], order[:wrap]]), wrap))
                self._next_start = wrap
            else:
                batches.append((order[pos:], bs - (n - pos)))
            pos = n
        return batches

    def _begin_epoch(self):
        self._next_start = 0
        batches = self._epoch_batches()
        self._stop = threading.Event()
        self._queue = queue.Queue(self._prefetch)
        self._worker = threading.Thread(target=_produce, args=(weakref.ref(self), self.path_imgrec, batches,
                                                               self._epoch, self._stop, self._queue), daemon=True)
        self._worker.start()

    def _load_batch(self, reader, indices, pad, epoch, position):
        raws = []
        for i in indices:
            reader._file.seek(self._offsets[i])  # pylint: disable=protected-access
            reader._seeked_key = int(i)  # pylint: disable=protected-access
            raw = reader.read()
            if raw is None:
                raise WeftIOError("%s: the index points past the end of the file" % self._where(i))
            raws.append(raw)
        seeds = [[self._seed_aug, epoch, position * self.batch_size + k] for k in range(len(raws))]
        return self._assemble(list(self._pool.map(self._sample, raws, indices, seeds)), pad)

    def _where(self, i):
        return "%s record %d" % (self.path_imgrec, i)

    def _sample(self, raw, i, seed):
        header, payload = recordio.unpack(raw)
        label = np.asarray(header.label, dtype=np.float32).reshape(-1)
        if label.size != self._label_width:
            raise WeftIOError("%s has %d labels, but label_width is %d" % (self._where(i), label.size,
                                                                          self._label_width))
        channels = self._params["data_shape"][0]
        img = imdecode_numpy(payload, flag=1 if channels == 3 else 0, what=self._where(i))
        rng = np.random.RandomState(np.random.SeedSequence(seed).generate_state(1)[0])
        img = self._augment(img, rng, self._where(i))
        chw = img.transpose(2, 0, 1)
        if self._normalize:
            chw = (chw.astype(np.float32) - self._mean) / self._std * self._scale
        return chw, label, header.id

    def _assemble(self, samples, pad):
        data = np.zeros((self.batch_size,) + self._params["data_shape"], dtype=self._dtype)
        label = np.zeros((self.batch_size, self._label_width), dtype=np.float32)
        ids = np.zeros(self.batch_size, dtype=np.uint64)
        for k, (chw, lab, rid) in enumerate(samples):
            data[k] = chw
            label[k] = lab
            ids[k] = rid
        if self._label_width == 1:
            label = label.reshape(-1)
        return data, label, ids, pad

    # ---- the iterator ----------------------------------------------------------------
    def _halt(self):
        if self._worker is not None:
            self._stop.set()
            if self._worker is not threading.current_thread():  # __del__ may run in the producer
                self._worker.join()
            self._worker = None

    def reset(self):
        self._halt()
        self._epoch += 1
        self._start = self._next_start if self._next_start else 0
        self._begin_epoch()

    def iter_next(self):
        if self._worker is None:
            return False  # the epoch ended (or failed): reset() starts the next
        kind, value = self._queue.get()
        if kind in ("end", "error"):
            self._worker.join()
            self._worker = None
            if kind == "error":
                raise value
            return False
        data, label, ids, pad = value
        self.current_batch = DataBatch([nd.array(data, dtype=data.dtype)], [nd.array(label)], pad=pad, index=ids,
                                       provide_data=self.provide_data, provide_label=self.provide_label)
        return True


    def __del__(self):
        try:
            self._halt()
            self._pool.shutdown(wait=False)
        except Exception:  # pylint: disable=broad-except
            pass


class ImageRecordUInt8Iter(ImageRecordIter):
    """ImageRecordIter without normalisation: uint8 (batch, C, H, W) batches
    (mean/std/scale are not applied)."""

    _normalize = False
