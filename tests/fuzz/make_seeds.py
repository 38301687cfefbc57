#!/usr/bin/env python3
"""Writes the generated seeds of tests/fuzz/corpus/ (run from anywhere; no
weft needed): the MXNet 1.9.1 fixtures of ../shared/fixtures, single-op
symbol files covering the common operators' attributes, parameter-free
predictor inputs, KVStore wire messages (Note [PS wire format]), and images
and RecordIO files for the image decoders (these need OpenCV to encode them,
and are skipped with a message without it).
Crash inputs found by fuzzing are added by hand as crash-<what>; this script
never deletes files."""
import json
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(os.path.dirname(REPO), "shared", "fixtures")
CORPUS = os.path.join(HERE, "corpus")

# (op, attrs, inputs) with data shaped (2, 4, 8, 8) unless said otherwise.
OPS = [
    ("FullyConnected", {"num_hidden": "4"}, ["data", "weight", "bias"]),
    ("Convolution", {"kernel": "(3, 3)", "num_filter": "2", "stride": "(2, 2)", "pad": "(1, 1)"},
     ["data", "weight", "bias"]),
    ("Deconvolution", {"kernel": "(2, 2)", "num_filter": "2", "no_bias": "True", "stride": "(2, 2)"},
     ["data", "weight"]),
    ("Pooling", {"kernel": "(2, 2)", "pool_type": "max", "stride": "(2, 2)"}, ["data"]),
    ("Pooling", {"kernel": "(3, 3)", "pool_type": "avg", "pad": "(1, 1)", "count_include_pad": "False"}, ["data"]),
    ("Reshape", {"shape": "(-1, 4)"}, ["data"]),
    ("Reshape", {"shape": "(0, -3, -2)"}, ["data"]),
    ("Concat", {"num_args": "2", "dim": "1"}, ["data", "data"]),
    ("SliceChannel", {"num_outputs": "2", "axis": "1"}, ["data"]),
    ("transpose", {"axes": "(1, 0, 2, 3)"}, ["data"]),
    ("sum", {"axis": "(1,)", "keepdims": "True"}, ["data"]),
    ("mean", {"axis": "(2, 3)", "exclude": "False"}, ["data"]),
    ("BatchNorm", {"eps": "0.001", "fix_gamma": "False"}, ["data", "gamma", "beta", "moving_mean", "moving_var"]),
    ("Activation", {"act_type": "relu"}, ["data"]),
    ("LeakyReLU", {"act_type": "leaky", "slope": "0.25"}, ["data"]),
    ("softmax", {"axis": "-1", "temperature": "2.0"}, ["data"]),
    ("log_softmax", {"axis": "1"}, ["data"]),
    ("SoftmaxOutput", {"multi_output": "True"}, ["data", "label"]),
    ("Embedding", {"input_dim": "10", "output_dim": "4"}, ["data", "weight"]),
    ("slice", {"begin": "(0, 0)", "end": "(1, 2)"}, ["data"]),
    ("slice_axis", {"axis": "2", "begin": "1", "end": "-1"}, ["data"]),
    ("broadcast_add", {}, ["data", "data"]),
    ("_plus_scalar", {"scalar": "1.5"}, ["data"]),
    ("clip", {"a_min": "-1", "a_max": "1"}, ["data"]),
    ("Dropout", {"p": "0.5", "mode": "always"}, ["data"]),
    ("Flatten", {}, ["data"]),
    ("expand_dims", {"axis": "0"}, ["data"]),
    ("tile", {"reps": "(2, 1)"}, ["data"]),
    ("repeat", {"repeats": "2", "axis": "0"}, ["data"]),
    ("one_hot", {"depth": "5"}, ["data"]),
    ("topk", {"k": "2", "ret_typ": "both"}, ["data"]),
    ("sort", {"axis": "-1"}, ["data"]),
    ("argmax", {"axis": "1"}, ["data"]),
    ("UpSampling", {"scale": "2", "sample_type": "nearest", "num_args": "1"}, ["data"]),
    ("pad", {"mode": "constant", "pad_width": "(0, 0, 0, 0, 1, 1, 1, 1)"}, ["data"]),
    ("LRN", {"nsize": "3"}, ["data"]),
    ("InstanceNorm", {"eps": "0.001"}, ["data", "gamma", "beta"]),
    ("LayerNorm", {"axis": "-1"}, ["data", "gamma", "beta"]),
    ("space_to_depth", {"block_size": "2"}, ["data"]),
    ("depth_to_space", {"block_size": "2"}, ["data"]),
    ("Cast", {"dtype": "float16"}, ["data"]),
    ("take", {"axis": "0", "mode": "clip"}, ["data", "indices"]),
    ("where", {}, ["data", "data", "data"]),
    ("swapaxes", {"dim1": "1", "dim2": "3"}, ["data"]),
    ("squeeze", {}, ["data"]),
    ("stack", {"num_args": "2", "axis": "1"}, ["data", "data"]),
    ("add_n", {"num_args": "3"}, ["data", "data", "data"]),
    ("ROIPooling", {"pooled_size": "(2, 2)", "spatial_scale": "0.5"}, ["data", "rois"]),
    ("GridGenerator", {"transform_type": "affine", "target_shape": "(4, 4)"}, ["data"]),
    ("RNN", {"state_size": "4", "num_layers": "1", "mode": "lstm"}, ["data", "parameters", "state", "state_cell"]),
    ("batch_dot", {"transpose_b": "True"}, ["data", "data"]),
    ("dot", {}, ["data", "data"]),
    ("norm", {"ord": "2", "axis": "(1,)"}, ["data"]),
    ("L2Normalization", {"mode": "channel"}, ["data"]),
    ("SequenceMask", {"use_sequence_length": "False", "value": "0"}, ["data"]),
    ("Crop", {"num_args": "1", "h_w": "(4, 4)", "offset": "(1, 1)"}, ["data"]),
    ("BilinearSampler", {}, ["data", "grid"]),
    ("ctc_loss", {}, ["data", "label"]),
    ("_contrib_box_nms", {"overlap_thresh": "0.5"}, ["data"]),
]


def graph(op, attrs, inputs, data_shape="(2, 4, 8, 8)", chain=None):
    """A symbol file: one variable per distinct input name, the op, and
    optionally a second op `chain` = (op, attrs) applied to its output."""
    nodes, index = [], {}
    for name in inputs:
        if name in index:
            continue
        node = {"op": "null", "name": name, "inputs": []}
        if name == "data":
            node["attrs"] = {"__shape__": data_shape}
        index[name] = len(nodes)
        nodes.append(node)
    nodes.append({"op": op, "name": op.lower() + "0", "attrs": attrs,
                  "inputs": [[index[n], 0, 0] for n in inputs]})
    if chain:
        nodes.append({"op": chain[0], "name": chain[0].lower() + "1", "attrs": chain[1],
                      "inputs": [[len(nodes) - 1, 0, 0]]})
    return {"nodes": nodes, "arg_nodes": list(range(len(index))),
            "node_row_ptr": list(range(len(nodes) + 1)),
            "heads": [[len(nodes) - 1, 0, 0]], "attrs": {"mxnet_version": ["int", 10901]}}


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def predictor_input(json_text, params, input_name="data", shape="2,4,8,8"):
    j = json_text.encode() if isinstance(json_text, str) else json_text
    return b"%s %s\n%d\n" % (input_name.encode(), shape.encode(), len(j)) + j + params


def ps_frames(messages, workers=2, sign=True):
    """Encodes messages (lists of frames) in ps_message_fuzz.cc's layout; `sign`: the
    harness signs them as a worker of the job (else they go as a stranger's would)."""
    out = bytearray([(workers - 1) | (0x80 if sign else 0)])
    for frames in messages:
        for i, frame in enumerate(frames):
            more = 0x8000 if i + 1 < len(frames) else 0
            out += struct.pack("<H", len(frame) | more) + frame
    return bytes(out)


def ps_message(command, key=b"w", payload=b"", sender=0, arg=0, flags=0, offset=0, total=4, identity=b"w0",
               request_id=1):
    # Note [PS wire format]; the harness fills job id, run id, process id, nonce and sender role.
    head = struct.pack("<IHHQiiIIQQQQQQQBBHi", 0x54464557, 3, command, request_id, sender, arg, len(key), flags,
                       len(payload), offset, total, 0, 0, 0, 0, 0, 1, 0, -1)
    return [identity, head, key, payload]


def main():
    fixture = lambda name: open(os.path.join(FIXTURES, name), "rb").read()
    for name in ["nd_dict.params", "nd_empty.params", "nd_list.params", "nd_single.params", "cnn-0000.params"]:
        write("params", name, fixture(name))
    for name in ["cnn-symbol.json", "sym_misc.json"]:
        write("symbol_json", name, fixture(name))
    for i, (op, attrs, inputs) in enumerate(OPS):
        write("symbol_json", "op%02d-%s.json" % (i, op), json.dumps(graph(op, attrs, inputs), indent=1).encode())
    write("symbol_json", "chain-reshape-sum.json",
          json.dumps(graph("Reshape", {"shape": "(4, -1)"}, ["data"], chain=("sum", {}))).encode())

    write("predictor", "cnn", predictor_input(fixture("cnn-symbol.json"), fixture("cnn-0000.params"),
                                              shape="2,3,8,8"))
    for i, (op, attrs, inputs) in enumerate(OPS):
        if set(inputs) == {"data"}:
            write("predictor", "op%02d-%s" % (i, op), predictor_input(json.dumps(graph(op, attrs, inputs)), b""))
    write("predictor", "chain-reshape-sum",
          predictor_input(json.dumps(graph("Reshape", {"shape": "(4, -1)"}, ["data"], chain=("sum", {}))), b""))

    f32 = struct.pack("<4f", 1, 2, 3, 4)
    init, push, pull, set_opt = 10, 11, 12, 13
    sync = 1
    write("ps_message", "init-push-pull", ps_frames([
        ps_message(init, payload=f32), ps_message(push, payload=f32, flags=sync),
        ps_message(push, payload=f32, flags=sync, sender=1, identity=b"w1"), ps_message(pull)]))
    write("ps_message", "async-optimizer", ps_frames([
        ps_message(init, payload=f32),
        ps_message(set_opt, key=b"", payload=b'{"name": "sgd", "learning_rate": 0.1, "momentum": 0.9}'),
        ps_message(push, payload=f32), ps_message(pull)], workers=1))
    write("ps_message", "adam-float64", ps_frames([
        ps_message(init, payload=struct.pack("<2d", 1, 2), arg=1, total=2),
        ps_message(set_opt, key=b"", payload=b'{"name": "adam", "learning_rate": 0.01, "wd": 0.1}'),
        ps_message(push, payload=struct.pack("<2d", 1, 2), arg=1, total=2)], workers=1))
    write("ps_message", "bad-frames", ps_frames([
        [b"w0", b"WEFT", b"k", b""], [b"w0"], ps_message(push, key=b"missing", payload=f32, flags=sync, sender=7)]))
    write("ps_message", "stranger", ps_frames([
        ps_message(init, payload=f32) + [b"\0" * 32], ps_message(push, payload=f32, flags=sync) + [b"\0" * 32],
        ps_message(pull)], sign=False))
    image_seeds()


def image_seeds():
    """image_decode: byte 0 (bit 0 grey, bits 1-3 the JPEG scale - 1) then the
    file; image_record: a .rec file of such images. Good images of every PNG
    and JPEG kind, and the bombs of tests/python/image_bombs.py."""
    sys.path.insert(0, os.path.join(REPO, "tests", "python"))
    try:
        import cv2  # pylint: disable=import-outside-toplevel
        import image_bombs  # pylint: disable=import-outside-toplevel
    except ImportError as e:
        print("make_seeds: no image seeds (%s)" % e)
        return
    img = image_bombs.noisy_image(12, 20)
    files = {}
    for name, ext, params in [("baseline.jpg", ".jpg", [cv2.IMWRITE_JPEG_QUALITY, 80]),
                              ("progressive.jpg", ".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
                              ("restart.jpg", ".jpg", [cv2.IMWRITE_JPEG_RST_INTERVAL, 1]),
                              ("rgb.png", ".png", []), ("fast.png", ".png", [cv2.IMWRITE_PNG_COMPRESSION, 1])]:
        files[name] = cv2.imencode(ext, img, params)[1].tobytes()
    files["grey.jpg"] = cv2.imencode(".jpg", img[:, :, 0])[1].tobytes()
    files["grey16.png"] = cv2.imencode(".png", img[:, :, 0].astype("uint16") * 257)[1].tobytes()
    files["bomb-png-65536x10000"] = image_bombs.png_claiming(10000, 65536)
    files["bomb-png-2048x2048"] = image_bombs.png_claiming(2048, 2048)
    files["bomb-jpeg-2048x2048"] = image_bombs.jpeg_claiming(2048, 2048)
    files["bomb-jpeg-progressive-2048x2048"] = image_bombs.jpeg_claiming(2048, 2048, progressive=True)
    files["cut.jpg"] = image_bombs.truncated_jpeg()
    files["cut.png"] = image_bombs.truncated_png()
    for i, (name, data) in enumerate(sorted(files.items())):
        write("image_decode", name, bytes([(i % 2) | ((i % 8) << 1)]) + data)
    records = b"".join(rec_record(k, data) for k, data in enumerate(sorted(files.values())) if len(data) < 4096)
    write("image_record", "images.rec", records)
    good = ["baseline.jpg", "fast.png", "grey.jpg", "grey16.png", "progressive.jpg", "restart.jpg", "rgb.png"]
    write("image_record", "good.rec", b"".join(rec_record(k, files[name]) for k, name in enumerate(good)))
    write("image_record", "one-bomb.rec", rec_record(0, files["bomb-jpeg-2048x2048"]))
    write("image_record", "two-labels.rec", rec_record(0, files["rgb.png"], labels=(1.0, 2.0)))


def rec_record(i, payload, labels=None):
    """One RecordIO record holding an IRHeader and payload, as im2rec writes it."""
    if labels is None:
        body = struct.pack("<IfQQ", 0, float(i), i, 0) + payload
    else:
        body = struct.pack("<IfQQ", len(labels), 0.0, i, 0) + struct.pack("<%df" % len(labels), *labels) + payload
    pad = (4 - len(body) % 4) % 4
    return struct.pack("<II", 0xCED7230A, len(body)) + body + b"\0" * pad


if __name__ == "__main__":
    main()
