"""python -m weft.tools.im2rec: the .lst lines MXNet's im2rec.py writes, and
.rec/.idx files that read back with the records the options say."""
import os
import subprocess
import sys

import numpy as np

from weft import recordio
from weft.tools import im2rec

from image_data import cv2, rgb_image, write_image


def make_folder(root):
    for cls, n in (("cat", 3), ("dog", 2)):
        os.makedirs(root / cls)
        for i in range(n):
            write_image(root / cls / ("%s%d.png" % (cls, i)), rgb_image(10, 14, i + 7 * (cls == "dog")))
    (root / "cat" / "notes.txt").write_text("not an image")


def test_list_recursive_no_shuffle(tmp_path, capsys):
    make_folder(tmp_path / "img")
    assert im2rec.main(["--list", "--recursive", "--no-shuffle", str(tmp_path / "pets"), str(tmp_path / "img")]) == 0
    lines = (tmp_path / "pets.lst").read_text().splitlines()
    assert lines == ["0\t0.000000\tcat/cat0.png", "1\t0.000000\tcat/cat1.png", "2\t0.000000\tcat/cat2.png",
                     "3\t1.000000\tdog/dog0.png", "4\t1.000000\tdog/dog1.png"]
    assert "cat 0" in capsys.readouterr().out


def test_list_split_ratios_and_shuffle(tmp_path):
    make_folder(tmp_path / "img")
    im2rec.main(["--list", "--recursive", "--train-ratio", "0.6", "--test-ratio", "0.2", str(tmp_path / "p"),
                 str(tmp_path / "img")])
    train = (tmp_path / "p_train.lst").read_text().splitlines()
    test = (tmp_path / "p_test.lst").read_text().splitlines()
    val = (tmp_path / "p_val.lst").read_text().splitlines()
    assert (len(train), len(test), len(val)) == (3, 1, 1)  # int(5 * 0.6), int(5 * 0.2), the rest
    everything = sorted(int(x.split("\t")[0]) for x in train + test + val)
    assert everything == [0, 1, 2, 3, 4]
    im2rec.main(["--list", "--recursive", str(tmp_path / "q"), str(tmp_path / "img")])
    again = (tmp_path / "q.lst").read_text()
    im2rec.main(["--list", "--recursive", "--shuffle", "True", str(tmp_path / "q"), str(tmp_path / "img")])
    assert (tmp_path / "q.lst").read_text() == again  # seeded with 100, as MXNet


def test_rec_from_list_resize_png_pack_label(tmp_path):
    make_folder(tmp_path / "img")
    (tmp_path / "d.lst").write_text("7\t1.000000\t2.500000\tcat/cat1.png\n9\t0.000000\t3.000000\tdog/dog0.png\n")
    im2rec.main(["--resize", "5", "--encoding", ".png", "--pack-label", "--num-thread", "2", str(tmp_path / "d"),
                 str(tmp_path / "img")])
    r = recordio.MXIndexedRecordIO(str(tmp_path / "d.idx"), str(tmp_path / "d.rec"), "r")
    assert r.keys == [7, 9]
    header, img = recordio.unpack_img(r.read_idx(7))
    assert header.flag == 2 and header.id == 7
    np.testing.assert_array_equal(header.label, [1.0, 2.5])
    expected = cv2().resize(rgb_image(10, 14, 1)[:, :, ::-1], (7, 5))  # shorter side 10 -> 5
    np.testing.assert_array_equal(img, expected)


def test_rec_center_crop_pass_through_gray_and_bad_files(tmp_path, capsys):
    make_folder(tmp_path / "img")
    (tmp_path / "img" / "broken.png").write_bytes(b"garbage")
    (tmp_path / "e.lst").write_text("0\t1\tcat/cat0.png\n1\t0\tbroken.png\nbad line\n2\t0\tdog/dog1.png\n")
    im2rec.main(["--center-crop", "--color", "0", str(tmp_path / "e"), str(tmp_path / "img")])
    out = capsys.readouterr().out
    assert "broken.png" in out and "three parts" in out
    r = recordio.MXIndexedRecordIO(str(tmp_path / "e.idx"), str(tmp_path / "e.rec"), "r")
    assert r.keys == [0, 2]
    header, img = recordio.unpack_img(r.read_idx(0))
    assert header.label == 1.0 and img.shape == (10, 10)
    (tmp_path / "f.lst").write_text("3\t4\tdog/dog0.png\n")
    im2rec.main(["--pass-through", str(tmp_path / "f"), str(tmp_path / "img")])
    r = recordio.MXIndexedRecordIO(str(tmp_path / "f.idx"), str(tmp_path / "f.rec"), "r")
    _, payload = recordio.unpack(r.read_idx(3))
    assert payload == (tmp_path / "img" / "dog" / "dog0.png").read_bytes()
    assert im2rec.main([str(tmp_path / "nothing"), str(tmp_path / "img")]) == 1


def test_module_entry_point(tmp_path):
    make_folder(tmp_path / "img")
    env = dict(os.environ)
    binding = os.path.join(os.path.dirname(os.path.abspath(recordio.__file__)), os.pardir)
    env["PYTHONPATH"] = os.path.abspath(binding) + os.pathsep + env.get("PYTHONPATH", "")
    run = subprocess.run([sys.executable, "-m", "weft.tools.im2rec", "--list", "--recursive", str(tmp_path / "m"),
                          str(tmp_path / "img")], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert len((tmp_path / "m.lst").read_text().splitlines()) == 5
