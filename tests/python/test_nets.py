"""benchmarks/nets.py: every network builds, infers complete shapes (batch 2), has MXNet's
argument / auxiliary-state names, survives a JSON round trip unchanged; the composed LRN
matches MXNet's formula; the MLP and the small CNN train one step (forward + backward)."""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import weft
import weft.sym as sym

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import nets  # noqa: E402  pylint: disable=wrong-import-position

CPU = weft.cpu()
BATCH = 2
ALL = sorted(nets.BUILDERS)


@pytest.fixture(autouse=True)
def fresh_names():
    with weft.name.NameManager():
        yield


def build(name):
    if name == "small-cnn":
        return nets.small_cnn(num_classes=10)
    if name == "mlp":
        return nets.mlp(num_classes=10)
    return nets.BUILDERS[name](num_classes=1000)


def num_classes(name):
    return 10 if name in ("mlp", "small-cnn") else 1000


def test_nets_table():
    assert set(nets.NETS) == {"alexnet", "vgg16", "inception-bn", "resnet-50"}
    assert nets.NETS["resnet-50"] is nets.resnet50 and nets.NETS["inception-bn"] is nets.inception_bn


# ---- shapes ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ALL)
def test_infer_shape_complete(name):
    net = build(name)
    arg_shapes, out_shapes, aux_shapes = net.infer_shape(data=(BATCH,) + nets.INPUT_SHAPES[name])
    assert arg_shapes is not None, "shapes of %s are incomplete" % name
    assert out_shapes == [(BATCH, num_classes(name))]
    assert net.list_outputs() == ["softmax_output"]
    assert len(arg_shapes) == len(net.list_arguments())
    assert len(aux_shapes) == len(net.list_auxiliary_states())
    for n, s in list(zip(net.list_arguments(), arg_shapes)) + list(zip(net.list_auxiliary_states(), aux_shapes)):
        assert len(s) > 0 and all(d > 0 for d in s), (n, s)
    shapes = dict(zip(net.list_arguments(), arg_shapes))
    assert shapes["softmax_label"] == (BATCH,)
    types = net.infer_type(data="float32")
    assert all(t == np.float32 for part in types for t in part)


def test_num_classes_is_honoured():
    for build_fn in nets.NETS.values():
        net = build_fn(num_classes=17)
        _, out_shapes, _ = net.infer_shape(data=(BATCH, 3, 224, 224))
        assert out_shapes == [(BATCH, 17)]
    assert nets.mlp(hidden=(7,), num_classes=3).infer_shape(data=(BATCH, 784))[1] == [(BATCH, 3)]
    assert nets.small_cnn(num_classes=4).infer_shape(data=(BATCH, 1, 28, 28))[1] == [(BATCH, 4)]


def param_count(net, data_shape):
    arg_shapes, _, _ = net.infer_shape(data=data_shape)
    return sum(int(np.prod(s)) for n, s in zip(net.list_arguments(), arg_shapes)
               if n not in ("data", "softmax_label"))


def test_parameter_counts_match_the_architectures():
    # VGG-16: the well-known 138,357,544. AlexNet as MXNet defines it (no channel groups,
    # 5x5x256 features at 224x224). ResNet-50 v2 with its BatchNorm gammas / betas.
    assert param_count(nets.vgg16(), (BATCH, 3, 224, 224)) == 138357544
    assert param_count(nets.alexnet(), (BATCH, 3, 224, 224)) == 50844008
    assert param_count(nets.resnet50(), (BATCH, 3, 224, 224)) == 25549486


# ---- names (as MXNet's symbols name them) ------------------------------------------------------------
def test_alexnet_names():
    net = nets.alexnet()
    expected = ["data"]
    for i in range(1, 6):
        expected += ["conv%d_weight" % i, "conv%d_bias" % i]
    for i in range(1, 4):
        expected += ["fc%d_weight" % i, "fc%d_bias" % i]
    assert net.list_arguments() == expected + ["softmax_label"]
    assert net.list_auxiliary_states() == []
    shapes = dict(zip(net.list_arguments(), net.infer_shape(data=(BATCH, 3, 224, 224))[0]))
    assert shapes["conv1_weight"] == (96, 3, 11, 11)
    assert shapes["conv2_weight"] == (256, 96, 5, 5)
    assert shapes["fc1_weight"] == (4096, 256 * 5 * 5)


def test_vgg16_names():
    net = nets.vgg16()
    args = net.list_arguments()
    convs = [a[:-len("_weight")] for a in args if a.startswith("conv") and a.endswith("_weight")]
    assert convs == ["conv1_1", "conv1_2", "conv2_1", "conv2_2", "conv3_1", "conv3_2", "conv3_3",
                     "conv4_1", "conv4_2", "conv4_3", "conv5_1", "conv5_2", "conv5_3"]
    assert args[-7:] == ["fc6_weight", "fc6_bias", "fc7_weight", "fc7_bias", "fc8_weight", "fc8_bias",
                         "softmax_label"]
    shapes = dict(zip(args, net.infer_shape(data=(BATCH, 3, 224, 224))[0]))
    assert shapes["fc6_weight"] == (4096, 512 * 7 * 7)


def test_inception_bn_names():
    net = nets.inception_bn()
    args, aux = net.list_arguments(), net.list_auxiliary_states()
    assert args[:5] == ["data", "conv_1_weight", "conv_1_bias", "bn_1_gamma", "bn_1_beta"]
    for a in ["conv_2_red_weight", "conv_3a_1x1_weight", "conv_3a_3x3_reduce_weight", "bn_3a_3x3_reduce_beta",
              "conv_3a_double_3x3_0_weight", "conv_3a_double_3x3_1_weight", "conv_3a_proj_weight",
              "conv_3c_3x3_weight", "conv_4e_double_3x3_1_bias", "conv_5b_proj_weight", "fc1_weight", "fc1_bias"]:
        assert a in args, a
    assert "conv_3c_proj_weight" not in args  # InceptionFactoryB has no projection
    assert aux[:2] == ["bn_1_moving_mean", "bn_1_moving_var"] and aux[-1] == "bn_5b_proj_moving_var"
    assert len(aux) == 2 * sum(a.startswith("bn_") and a.endswith("_gamma") for a in args)
    internals = net.get_internals().list_outputs()
    assert "ch_concat_3a_chconcat_output" in internals and "max_pool_3c_pool_output" in internals
    assert "avg_pool_3a_pool_output" in internals and "max_pool_5b_pool_output" in internals
    shapes = dict(zip(args, net.infer_shape(data=(BATCH, 3, 224, 224))[0]))
    assert shapes["conv_3b_1x1_weight"] == (64, 256, 1, 1)    # 3a concat: 64 + 64 + 96 + 32
    assert shapes["conv_4a_1x1_weight"] == (224, 576, 1, 1)   # 3c concat: 160 + 96 + 320
    assert shapes["fc1_weight"] == (1000, 1024)


def test_resnet50_names():
    net = nets.resnet50()
    args, aux = net.list_arguments(), net.list_auxiliary_states()
    assert args[:6] == ["data", "bn_data_gamma", "bn_data_beta", "conv0_weight", "bn0_gamma", "bn0_beta"]
    assert args[6:15] == ["stage1_unit1_bn1_gamma", "stage1_unit1_bn1_beta", "stage1_unit1_conv1_weight",
                          "stage1_unit1_bn2_gamma", "stage1_unit1_bn2_beta", "stage1_unit1_conv2_weight",
                          "stage1_unit1_bn3_gamma", "stage1_unit1_bn3_beta", "stage1_unit1_conv3_weight"]
    assert args[15] == "stage1_unit1_sc_weight"
    assert args[-5:] == ["bn1_gamma", "bn1_beta", "fc1_weight", "fc1_bias", "softmax_label"]
    assert len(args) == 159 and len(aux) == 102
    assert aux[:4] == ["bn_data_moving_mean", "bn_data_moving_var", "bn0_moving_mean", "bn0_moving_var"]
    assert aux[-2:] == ["bn1_moving_mean", "bn1_moving_var"]
    units = {a.split("_")[0] + "_" + a.split("_")[1] for a in args if a.startswith("stage")}
    assert len(units) == 3 + 4 + 6 + 3
    assert not any(a.endswith("_bias") and "conv" in a for a in args)  # no_bias convolutions
    shapes = dict(zip(args, net.infer_shape(data=(BATCH, 3, 224, 224))[0]))
    assert shapes["stage4_unit3_conv3_weight"] == (2048, 512, 1, 1)
    assert shapes["stage2_unit1_sc_weight"] == (512, 256, 1, 1)
    assert shapes["fc1_weight"] == (1000, 2048)


def test_small_net_names():
    assert nets.mlp().list_arguments() == ["data", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias",
                                           "fc3_weight", "fc3_bias", "softmax_label"]
    assert nets.small_cnn().list_arguments() == ["data", "conv1_weight", "conv1_bias", "conv2_weight",
                                                 "conv2_bias", "fc1_weight", "fc1_bias", "fc2_weight",
                                                 "fc2_bias", "softmax_label"]


# ---- JSON -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ALL)
def test_json_round_trip(name):
    net = build(name)
    text = net.tojson()
    back = sym.load_json(text)
    assert back.tojson() == text
    assert back.list_arguments() == net.list_arguments()
    assert back.list_auxiliary_states() == net.list_auxiliary_states()
    g = json.loads(text)
    assert g["nodes"][g["heads"][0][0]]["name"] == "softmax"
    assert g["nodes"][g["heads"][0][0]]["op"] == "SoftmaxOutput"
    shape = (BATCH,) + nets.INPUT_SHAPES[name]
    assert back.infer_shape(data=shape) == net.infer_shape(data=shape)


# ---- the composed LRN -------------------------------------------------------------------------------------
def test_lrn_matches_mxnet_formula():
    x = sym.Variable("data")
    y = nets.lrn(x, "lrn", alpha=0.1, beta=0.75, knorm=2.0, nsize=5)
    assert y.name == "lrn" and y.list_arguments() == ["data"]
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 7, 3, 4)).astype(np.float32)
    exe = y.simple_bind(CPU, data=a.shape)
    out = exe.forward(is_train=True, data=a)[0].asnumpy()
    sq = np.pad(a.astype(np.float64) ** 2, ((0, 0), (2, 2), (0, 0), (0, 0)))
    window = sum(sq[:, i:i + a.shape[1]] for i in range(5))
    norm = 2.0 + 0.1 / 5 * window
    np.testing.assert_allclose(out, a * norm ** -0.75, rtol=1e-5, atol=1e-6)
    # Gradient with head gradient g: d/dx_c = g_c n_c^-b - 2 a b / nsize x_c sum_{j: c in win(j)} g_j x_j n_j^(-b-1)
    g = rng.standard_normal(a.shape).astype(np.float32)
    exe.backward(weft.nd.array(g))
    t = np.pad(g * a * norm ** (-0.75 - 1), ((0, 0), (2, 2), (0, 0), (0, 0)))
    back_win = sum(t[:, i:i + a.shape[1]] for i in range(5))
    ref = g * norm ** -0.75 - 2 * 0.1 * 0.75 / 5 * a * back_win
    np.testing.assert_allclose(exe.grad_dict["data"].asnumpy(), ref, rtol=1e-4, atol=1e-5)


# ---- one training step of the small networks ----------------------------------------------------------
@pytest.mark.parametrize("name,data_shape", [("mlp", (8, 784)), ("small-cnn", (8, 1, 28, 28))])
def test_forward_backward(name, data_shape):
    net = build(name)
    exe = net.simple_bind(CPU, data=data_shape)
    rng = np.random.default_rng(1)
    for n, arr in exe.arg_dict.items():
        if n == "softmax_label":
            arr[:] = rng.integers(0, 10, arr.shape).astype(np.float32)
        elif n.endswith("_bias"):
            arr[:] = np.zeros(arr.shape, np.float32)
        else:
            fan_in = int(np.prod(arr.shape[1:])) if len(arr.shape) > 1 else 1
            arr[:] = rng.uniform(-1, 1, arr.shape).astype(np.float32) * np.float32(np.sqrt(3.0 / fan_in))
    out = exe.forward(is_train=True)[0].asnumpy()
    assert out.shape == (8, 10)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out.sum(axis=1), np.ones(8), rtol=1e-5)
    exe.backward()
    arg_shapes, _, _ = net.infer_shape(data=data_shape)
    grads = exe.grad_dict
    for n, shape in zip(net.list_arguments(), arg_shapes):
        g = grads[n].asnumpy()
        assert g.shape == shape, n
        assert np.isfinite(g).all(), n
        if n.endswith("_weight"):
            assert np.abs(g).max() > 0, "zero gradient for %s" % n
    # SoftmaxOutput's gradient at its input is softmax - one_hot(label); the last bias
    # gradient sums it over the batch.
    label = exe.arg_dict["softmax_label"].asnumpy().astype(int)
    onehot = np.eye(10, dtype=np.float32)[label]
    last_bias = [n for n in net.list_arguments() if n.endswith("_bias")][-1]
    np.testing.assert_allclose(grads[last_bias].asnumpy(), (out - onehot).sum(axis=0), rtol=1e-4, atol=1e-5)
