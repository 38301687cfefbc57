"""python -m weft.tools.im2rec: image lists (.lst) and RecordIO files
(.rec/.idx) from a folder of images, as MXNet 1.x's tools/im2rec.py.

    python -m weft.tools.im2rec --list --recursive data/pets images/   # data/pets.lst
    python -m weft.tools.im2rec --resize 256 data/pets images/         # data/pets.rec, data/pets.idx

With ``--list`` it walks ``root`` and writes ``<prefix>.lst`` (or, with
--train-ratio/--test-ratio, ``<prefix>_train.lst``, ``_val.lst``,
``_test.lst``; with --chunks, ``<prefix>_<i>...``): lines
``index\\tlabel\\tpath``, the label the folder's number with --recursive, the
list shuffled with seed 100 unless --no-shuffle. Without it, every
``<prefix>*.lst`` becomes a ``.rec`` + ``.idx``: each image read with OpenCV
(--color), centre-cropped (--center-crop), resized so the shorter side is
--resize, and encoded (--encoding, --quality), or its file bytes kept as they
are (--pass-through); --pack-label stores every label column of the list.
Images that cannot be read are reported and left out. --num-thread encodes
in threads; the output is the same as with one.
"""
import argparse
import concurrent.futures
import os
import random
import sys
import time

from .. import recordio

__all__ = ["list_image", "write_list", "make_list", "read_list", "image_encode", "make_record", "main"]


def list_image(root, recursive, exts):
    """(index, path relative to root, label) for each image file: label 0, or
    with ``recursive`` the number of its folder in walking order."""
    i = 0
    if recursive:
        cat = {}
        for path, dirs, files in os.walk(root, followlinks=True):
            dirs.sort()
            files.sort()
            for fname in files:
                fpath = os.path.join(path, fname)
                suffix = os.path.splitext(fname)[1].lower()
                if os.path.isfile(fpath) and suffix in exts:
                    if path not in cat:
                        cat[path] = len(cat)
                    yield (i, os.path.relpath(fpath, root), cat[path])
                    i += 1
        for k, v in sorted(cat.items(), key=lambda x: x[1]):
            print(os.path.relpath(k, root), v)
    else:
        for fname in sorted(os.listdir(root)):
            fpath = os.path.join(root, fname)
            suffix = os.path.splitext(fname)[1].lower()
            if os.path.isfile(fpath) and suffix in exts:
                yield (i, os.path.relpath(fpath, root), 0)
                i += 1


def write_list(path_out, image_list):
    """Writes items (index, path, label...) as .lst lines index\\tlabel...\\tpath."""
    with open(path_out, "w") as fout:
        for item in image_list:
            line = "%d\t" % item[0]
            for j in item[2:]:
                line += "%f\t" % j
            line += "%s\n" % item[1]
            fout.write(line)


def make_list(args):
    """The .lst file(s) of args.root."""
    image_list = list(list_image(args.root, args.recursive, args.exts))
    if args.shuffle is True:
        random.seed(100)
        random.shuffle(image_list)
    n = len(image_list)
    chunk_size = (n + args.chunks - 1) // args.chunks
    for i in range(args.chunks):
        chunk = image_list[i * chunk_size:(i + 1) * chunk_size]
        str_chunk = "_%d" % i if args.chunks > 1 else ""
        sep = int(chunk_size * args.train_ratio)
        sep_test = int(chunk_size * args.test_ratio)
        if args.train_ratio == 1.0:
            write_list(args.prefix + str_chunk + ".lst", chunk)
        else:
            if args.test_ratio:
                write_list(args.prefix + str_chunk + "_test.lst", chunk[:sep_test])
            if args.train_ratio + args.test_ratio < 1.0:
                write_list(args.prefix + str_chunk + "_val.lst", chunk[sep_test + sep:])
            write_list(args.prefix + str_chunk + "_train.lst", chunk[sep_test:sep_test + sep])


def read_list(path_in):
    """Items [index, path, label...] of a .lst file; malformed lines are reported and skipped."""
    with open(path_in) as fin:
        for lineno, line in enumerate(fin, 1):
            fields = [i.strip() for i in line.strip().split("\t")]
            if len(fields) < 3:
                print("%s line %d: lst should have at least has three parts, but only has %d parts for %s"
                      % (path_in, lineno, len(fields), fields))
                continue
            try:
                item = [int(fields[0])] + [fields[-1]] + [float(i) for i in fields[1:-1]]
            except ValueError as e:
                print("%s line %d: Parsing lst met error for %s, detail: %s" % (path_in, lineno, fields, e))
                continue
            yield item


def image_encode(args, item):
    """The packed record of one list item, or None (reported) when the image
    cannot be read or encoded."""
    # OpenCV is optional and large: imported when the first image is encoded.
    import cv2  # pylint: disable=import-outside-toplevel
    fullpath = os.path.join(args.root, item[1])
    if len(item) > 3 and args.pack_label:
        header = recordio.IRHeader(0, item[2:], item[0], 0)
    else:
        header = recordio.IRHeader(0, item[2], item[0], 0)
    if args.pass_through:
        try:
            with open(fullpath, "rb") as fin:
                return recordio.pack(header, fin.read())
        except OSError as e:
            print("pack_img error:", item[1], e)
            return None
    img = cv2.imread(fullpath, args.color)
    if img is None:
        print("imread read blank (None) image for file: %s" % fullpath)
        return None
    if args.center_crop:
        if img.shape[0] > img.shape[1]:
            margin = (img.shape[0] - img.shape[1]) // 2
            img = img[margin:margin + img.shape[1], :]
        else:
            margin = (img.shape[1] - img.shape[0]) // 2
            img = img[:, margin:margin + img.shape[0]]
    if args.resize:
        if img.shape[0] > img.shape[1]:
            newsize = (args.resize, img.shape[0] * args.resize // img.shape[1])
        else:
            newsize = (img.shape[1] * args.resize // img.shape[0], args.resize)
        img = cv2.resize(img, newsize)
    try:
        return recordio.pack_img(header, img, quality=args.quality, img_fmt=args.encoding)
    except (ValueError, OSError) as e:
        print("pack_img error on file: %s" % fullpath, e)
        return None


def make_record(args, fname):
    """<list name>.rec and .idx next to the .lst ``fname``; returns the number of records written."""
    base = os.path.splitext(fname)[0]
    record = recordio.MXIndexedRecordIO(base + ".idx", base + ".rec", "w")
    items = list(read_list(fname))
    written = 0
    start = time.time()
    try:
        if args.num_thread > 1:
            with concurrent.futures.ThreadPoolExecutor(args.num_thread) as pool:
                packed = pool.map(lambda it: image_encode(args, it), items)
                pairs = zip(items, packed)
                written = _write_all(record, pairs, start)
        else:
            written = _write_all(record, ((it, image_encode(args, it)) for it in items), start)
    finally:
        record.close()
    return written


def _write_all(record, pairs, start):
    written = 0
    for item, s in pairs:
        if s is None:
            continue
        record.write_idx(item[0], s)
        written += 1
        if written % 1000 == 0:
            print("time:", time.time() - start, " count:", written)
    return written


def _bool(text):
    if text.lower() in ("1", "true", "yes"):
        return True
    if text.lower() in ("0", "false", "no"):
        return False
    raise argparse.ArgumentTypeError("expected True or False, got %r" % text)


def parse_args(argv=None):
    """im2rec's command line (MXNet's options)."""
    parser = argparse.ArgumentParser(formatter_class=argparse.ArgumentDefaultsHelpFormatter,
                                     description="Create an image list or make a record database by reading "
                                                 "from an image list")
    parser.add_argument("prefix", help="prefix of input/output lst and rec files.")
    parser.add_argument("root", help="path to folder containing images.")
    cgroup = parser.add_argument_group("Options for creating image lists")
    cgroup.add_argument("--list", action="store_true",
                        help="create image list(s) by traversing root and write them to <prefix>.lst; otherwise "
                             "read <prefix>*.lst and make <prefix>*.rec")
    cgroup.add_argument("--exts", nargs="+", default=[".jpeg", ".jpg", ".png"], help="list of acceptable image "
                        "extensions.")
    cgroup.add_argument("--chunks", type=int, default=1, help="number of chunks.")
    cgroup.add_argument("--train-ratio", type=float, default=1.0, help="Ratio of images to use for training.")
    cgroup.add_argument("--test-ratio", type=float, default=0, help="Ratio of images to use for testing.")
    cgroup.add_argument("--recursive", action="store_true",
                        help="walk subfolders; each folder's images get their own label")
    cgroup.add_argument("--shuffle", type=_bool, nargs="?", const=True, default=True,
                        help="shuffle the list (seed 100)")
    cgroup.add_argument("--no-shuffle", dest="shuffle", action="store_false", help="do not shuffle the list")
    rgroup = parser.add_argument_group("Options for creating database")
    rgroup.add_argument("--pass-through", action="store_true", help="store the image files' bytes unchanged")
    rgroup.add_argument("--resize", type=int, default=0, help="resize the shorter edge of images to this size")
    rgroup.add_argument("--center-crop", action="store_true", help="crop the centre square of each image")
    rgroup.add_argument("--quality", type=int, default=95,
                        help="JPEG quality (1-100), or PNG compression level (0-9)")
    rgroup.add_argument("--num-thread", type=int, default=1, help="number of threads that encode images")
    rgroup.add_argument("--color", type=int, default=1, choices=[-1, 0, 1],
                        help="cv2.imread flag: 1 colour, 0 grayscale, -1 as stored (with alpha)")
    rgroup.add_argument("--encoding", type=str, default=".jpg", choices=[".jpg", ".png"], help="encoding")
    rgroup.add_argument("--pack-label", action="store_true", help="store every label column of the list")
    return parser.parse_args(argv)


def main(argv=None):
    """Runs im2rec; returns the exit status."""
    args = parse_args(argv)
    args.prefix = os.path.abspath(args.prefix)
    args.root = os.path.abspath(args.root)
    if args.list:
        make_list(args)
        return 0
    working_dir = os.path.dirname(args.prefix)
    files = sorted(os.path.join(working_dir, f) for f in os.listdir(working_dir)
                   if os.path.isfile(os.path.join(working_dir, f)))
    count = 0
    for fname in files:
        if fname.startswith(args.prefix) and fname.endswith(".lst"):
            print("Creating .rec file from", fname, "in", working_dir)
            count += 1
            make_record(args, fname)
    if not count:
        print("Did not find and list file with prefix %s" % args.prefix)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
