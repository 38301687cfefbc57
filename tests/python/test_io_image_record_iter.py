"""weft.io.ImageRecordIter / ImageRecordUInt8Iter (the C++ pipeline, core/io/):
MXNet's parameters, normalisation, crops, round_batch, sharding, shuffling
reproducible from the seed whatever the thread count, and bad records."""
import numpy as np
import pytest

import weft as mx
from weft import io, recordio

from image_data import encode, rgb_image, write_image_rec


def _rec(tmp_path, n=7, h=8, w=10, name="r"):
    images = [rgb_image(h, w, s) for s in range(n)]
    rec, idx = write_image_rec(tmp_path, images, [float(i) for i in range(n)], name)
    return images, rec, idx


def test_normalised_batches_centre_crop_round_batch(tmp_path):
    images, rec, idx = _rec(tmp_path)
    it = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 6, 6), batch_size=3, mean_r=10, mean_g=20, mean_b=30,
                            std_r=2, std_g=4, std_b=8, preprocess_threads=2)
    assert it.provide_data[0].shape == (3, 3, 6, 6) and it.provide_label[0].shape == (3,)
    batches = list(it)
    assert [b.pad for b in batches] == [0, 0, 2]
    assert batches[2].label[0].asnumpy().tolist() == [6, 0, 1]
    assert batches[2].index.tolist() == [6, 0, 1]
    crop = images[4][1:7, 2:8].transpose(2, 0, 1).astype(np.float32)
    want = (crop - np.array([10, 20, 30]).reshape(3, 1, 1)) / np.array([2, 4, 8]).reshape(3, 1, 1)
    np.testing.assert_allclose(batches[1].data[0].asnumpy()[1], want, rtol=1e-6)
    it.reset()
    # the next epoch starts after the two records the round batch took
    assert it.next().label[0].asnumpy().tolist() == [2, 3, 4]


def test_uint8_resize_and_no_round_batch(tmp_path):
    images, rec, idx = _rec(tmp_path, n=4, h=8, w=12)
    it = io.ImageRecordUInt8Iter(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 4, 4), batch_size=3, resize=4,
                                 round_batch=False)
    batches = list(it)
    assert batches[0].data[0].dtype == np.uint8 and [b.pad for b in batches] == [0, 2]
    import cv2
    small = cv2.resize(images[0], (6, 4), interpolation=1)
    np.testing.assert_array_equal(batches[0].data[0].asnumpy()[0], small[:, 1:5].transpose(2, 0, 1))
    assert batches[1].label[0].asnumpy().tolist()[:1] == [3]


def test_augmentation_reproducible_across_thread_counts(tmp_path):
    _, rec, idx = _rec(tmp_path, n=6)
    def run(threads):
        it = io.ImageRecordIter(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 5, 5), batch_size=3, shuffle=True,
                                rand_crop=True, rand_mirror=True, random_resized_crop=False, brightness=0.3,
                                seed=11, preprocess_threads=threads, prefetch_buffer=1)
        return [(b.data[0].asnumpy(), b.label[0].asnumpy()) for b in it]
    one, three = run(1), run(3)
    for (d1, l1), (d3, l3) in zip(one, three):
        np.testing.assert_array_equal(d1, d3)
        np.testing.assert_array_equal(l1, l3)
    labels = sorted(v for _, l in one for v in l.tolist())
    assert labels == [0, 1, 2, 3, 4, 5]
    assert [v for _, l in one for v in l.tolist()] != [0, 1, 2, 3, 4, 5]
    rrc = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 4, 4), batch_size=2, random_resized_crop=True,
                             min_random_area=0.3, max_random_area=1.0, max_aspect_ratio=0.25)
    assert rrc.next().data[0].shape == (2, 3, 4, 4)


def test_parts_label_width_and_unsupported(tmp_path):
    _, rec, idx = _rec(tmp_path, n=7)
    part = io.ImageRecordIter(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 6, 6), batch_size=2, num_parts=2,
                              part_index=1, round_batch=False)
    assert [v for b in part for v in b.label[0].asnumpy().tolist()[:2 - b.pad]] == [4, 5, 6]
    multi = str(tmp_path / "m.rec")
    w = recordio.MXRecordIO(multi, "w")
    for i in range(2):
        w.write(recordio.pack((0, [i, 10 + i], i, 0), encode(rgb_image(6, 6, i))))
    w.close()
    it = io.ImageRecordIter(path_imgrec=multi, data_shape=(3, 6, 6), batch_size=2, label_width=2)
    assert it.next().label[0].asnumpy().tolist() == [[0, 10], [1, 11]]
    bad = io.ImageRecordIter(path_imgrec=multi, data_shape=(3, 6, 6), batch_size=2)
    with pytest.raises(mx.WeftIOError, match=r"m\.rec record 0 has 2 labels, but label_width is 1"):
        bad.next()
    with pytest.raises(NotImplementedError, match="max_rotate_angle"):
        io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 6, 6), batch_size=2, max_rotate_angle=10)
    with pytest.warns(UserWarning, match="ignoring arguments it does not use: no_such_option"):
        io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 6, 6), batch_size=2, no_such_option=1)


def test_bad_records_are_named_and_do_not_hang(tmp_path):
    rec = str(tmp_path / "b.rec")
    w = recordio.MXRecordIO(rec, "w")
    w.write(recordio.pack((0, 0.0, 0, 0), encode(rgb_image(6, 6, 0))))
    w.write(recordio.pack((0, 1.0, 1, 0), b"plain text, no image"))
    w.close()
    it = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 6, 6), batch_size=2)
    with pytest.raises(mx.WeftIOError, match=r"b\.rec record 1.*not an image"):
        it.next()
    with pytest.raises(StopIteration):
        it.next()
    small = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 8, 8), batch_size=1, round_batch=False)
    with pytest.raises(mx.WeftIOError, match=r"b\.rec record 0: the image is 6x6.*smaller than data_shape"):
        small.next()
    data = open(rec, "rb").read()
    (tmp_path / "t.rec").write_bytes(data[:len(data) - 9])
    with pytest.raises(mx.WeftIOError, match=r"t\.rec: damaged RecordIO file"):
        io.ImageRecordIter(path_imgrec=str(tmp_path / "t.rec"), data_shape=(3, 6, 6), batch_size=1).next()
    with pytest.raises(mx.WeftIOError, match=r"index file not found: .*none\.idx"):
        io.ImageRecordIter(path_imgrec=rec, path_imgidx=str(tmp_path / "none.idx"), data_shape=(3, 6, 6),
                           batch_size=1)
    with pytest.raises(mx.WeftIOError, match=r"RecordIO file not found: .*none\.rec"):
        io.ImageRecordIter(path_imgrec=str(tmp_path / "none.rec"), data_shape=(3, 6, 6), batch_size=1)


def test_an_iterator_dropped_mid_epoch_stops_its_producer(tmp_path):
    import gc
    import threading
    import time
    _, rec, _ = _rec(tmp_path, n=8)
    before = threading.active_count()
    it = io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 6, 6), batch_size=2, prefetch_buffer=1,
                            preprocess_threads=1)
    it.next()
    del it
    gc.collect()
    deadline = time.time() + 10
    while threading.active_count() > before and time.time() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= before
