"""Partially known shapes in symbolic shape inference (MXNet 1.x legacy: a 0
dim is unknown), inferred forward and backward through the graph
(Note [Partial shapes], core/graph/infer_node.cc)."""
import warnings
import zlib

import numpy as np
import pytest

import weft as mx
from op_cases import CASES

sym = mx.sym


def _args(s, arg_shapes):
    return dict(zip(s.list_arguments(), arg_shapes))


def test_binary_unifies_dims_both_ways():
    a, b = sym.Variable("a"), sym.Variable("b")
    arg, out, aux = (a + b).infer_shape_partial(a=(0, 3), b=(2, 0))
    assert arg == [(2, 3), (2, 3)] and out == [(2, 3)] and aux == []
    # Complete now, so infer_shape returns it too (no warning).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (a + b).infer_shape(a=(0, 3), b=(2, 0)) == ([(2, 3), (2, 3)], [(2, 3)], [])


def test_fully_connected_from_partial_data():
    a = sym.Variable("a")
    fc = sym.FullyConnected(a, num_hidden=4, name="fc")
    arg, out, _ = fc.infer_shape_partial(a=(0, 3))
    assert _args(fc, arg) == {"a": (0, 3), "fc_weight": (4, 3), "fc_bias": (4,)}
    assert out == [(0, 4)]
    # Still incomplete: MXNet's infer_shape warns and returns Nones.
    with pytest.warns(UserWarning, match="a: \\(0, 3\\)"):
        assert fc.infer_shape(a=(0, 3)) == (None, None, None)


def test_passed_through_dims_infer_backward():
    # FullyConnected passes data's batch dim to its output: a known output
    # gives it back (MXNet's FullyConnectedShape does this in its own function).
    a, b = sym.Variable("a"), sym.Variable("b")
    fc = sym.FullyConnected(a, num_hidden=4, name="fc")
    arg, out, _ = (fc + b).infer_shape_partial(a=(0, 3), b=(5, 4))
    assert _args(fc + b, arg)["a"] == (5, 3) and out == [(5, 4)]
    # Through Convolution, Pooling and Flatten too; the spatial dims a stride
    # loses stay unknown.
    net = sym.Flatten(sym.Pooling(sym.Convolution(a, num_filter=2, kernel=(3, 3), name="c"),
                                  kernel=(2, 2), stride=(2, 2)))
    arg, out, _ = (net + b).infer_shape_partial(a=(0, 1, 8, 8), b=(6, 0))
    assert _args(net + b, arg)["a"] == (6, 1, 8, 8) and out == [(6, 18)]
    arg, _, _ = (sym.Convolution(a, num_filter=2, kernel=(3, 3), stride=(2, 2), name="c") + b).infer_shape_partial(
        a=(2, 1, 0, 0), b=(2, 2, 3, 3))
    assert arg[0] == (2, 1, 0, 0)


def test_variable_shape_hint_with_unknown_dim():
    a = sym.Variable("a", shape=(0, 3))
    b = sym.Variable("b")
    arg, out, _ = (a + b).infer_shape_partial(b=(2, 0))
    assert arg == [(2, 3), (2, 3)] and out == [(2, 3)]
    # The hint alone gives the known dim.
    arg, out, _ = (a * 2).infer_shape_partial()
    assert arg == [(0, 3)] and out == [(0, 3)]


def test_softmax_infers_backward():
    a, b = sym.Variable("a"), sym.Variable("b")
    arg, out, _ = (sym.softmax(a) + b).infer_shape_partial(b=(2, 3))
    assert arg == [(2, 3), (2, 3)] and out == [(2, 3)]


def test_backward_only_chain():
    # Nothing is given upstream: the shapes flow from the last input back
    # through two elementwise ops and an activation.
    a, b, c = sym.Variable("a"), sym.Variable("b"), sym.Variable("c")
    y = sym.Activation(sym.exp(a) * 3, act_type="tanh") - b
    s = y + c
    arg, out, _ = s.infer_shape_partial(c=(4, 0, 6))
    assert _args(s, arg) == {"a": (4, 0, 6), "b": (4, 0, 6), "c": (4, 0, 6)} and out == [(4, 0, 6)]
    arg, out, _ = s.infer_shape_partial(c=(4, 0, 6), b=(0, 5, 0))
    assert _args(s, arg) == {"a": (4, 5, 6), "b": (4, 5, 6), "c": (4, 5, 6)} and out == [(4, 5, 6)]


def test_small_cnn_from_partial_batch():
    data = sym.Variable("data")
    net = sym.Convolution(data, num_filter=8, kernel=(3, 3), name="conv")
    net = sym.BatchNorm(net, name="bn")
    net = sym.Activation(net, act_type="relu", name="relu")
    net = sym.Pooling(net, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool")
    net = sym.Flatten(net, name="flat")
    net = sym.FullyConnected(net, num_hidden=10, name="fc")
    net = sym.SoftmaxOutput(net, name="softmax")
    arg, out, aux = net.infer_shape_partial(data=(0, 3, 28, 28))
    assert _args(net, arg) == {
        "data": (0, 3, 28, 28), "conv_weight": (8, 3, 3, 3), "conv_bias": (8,),
        "bn_gamma": (8,), "bn_beta": (8,), "fc_weight": (10, 8 * 13 * 13), "fc_bias": (10,),
        "softmax_label": (0,)}
    assert out == [(0, 10)]
    assert dict(zip(net.list_auxiliary_states(), aux)) == {"bn_moving_mean": (8,), "bn_moving_var": (8,)}
    # The internal entries are partial too.
    internals = net.get_internals()
    _, iout, _ = internals.infer_shape_partial(data=(0, 3, 28, 28))
    shapes = dict(zip(internals.list_outputs(), iout))
    assert shapes["conv_output"] == (0, 8, 26, 26) and shapes["pool_output"] == (0, 8, 13, 13)
    assert shapes["flat_output"] == (0, 1352)
    # With the batch size known everything is, and binding works.
    arg, out, aux = net.infer_shape(data=(5, 3, 28, 28))
    assert out == [(5, 10)] and _args(net, arg)["softmax_label"] == (5,)


def test_unknown_spatial_dims_still_give_the_weights():
    data = sym.Variable("data")
    conv = sym.Convolution(data, num_filter=4, kernel=(3, 3), pad=(1, 1), name="c")
    arg, out, _ = conv.infer_shape_partial(data=(2, 3, 0, 0))
    assert _args(conv, arg)["c_weight"] == (4, 3, 3, 3) and out == [(2, 4, 0, 0)]


def test_reshape_keeps_what_is_known():
    a = sym.Variable("a")
    r = sym.Reshape(a, shape=(-1, 6))
    assert r.infer_shape_partial(a=(0, 4, 3))[1] == [(0, 6)]
    # slice clips end to the dim (NDArray: slice of (3, 4) to end=5 is (3, 4)),
    # so its output dim is not known from an unknown input dim ...
    assert sym.slice(a, begin=(0,), end=(5,)).infer_shape_partial(a=(0, 4))[1] == [(0, 4)]
    # ... while slice_axis requires end <= dim, so any valid input gives 5.
    assert sym.slice_axis(a, axis=0, begin=0, end=5).infer_shape_partial(a=(0, 4))[1] == [(5, 4)]
    # Concat's unknown dims must agree: the known ones still add up.
    c = sym.Concat(a, sym.Variable("b"), dim=1)
    assert c.infer_shape_partial(a=(0, 4), b=(0, 2))[1] == [(0, 6)]


def test_conflict_names_the_node():
    a, b = sym.Variable("a"), sym.Variable("b")
    s = sym.elemwise_add(a, b, name="sum_node")
    with pytest.raises(mx.ShapeError, match="sum_node"):
        s.infer_shape_partial(a=(2, 3), b=(4, 0))
    with pytest.raises(mx.ShapeError, match="sum_node"):
        s.infer_shape_partial(a=(2, 0), b=(0, 3, 1))
    # A conflict found backward names the node too.
    t = sym.FullyConnected(sym.relu(a, name="act"), num_hidden=2, name="fc") + b
    with pytest.raises(mx.ShapeError, match="fc|_plus"):
        t.infer_shape_partial(a=(3, 4), b=(5, 2))


def test_zero_size_arrays_stay_real_when_bound():
    # Outside infer_shape's legacy arguments a 0 dim is a real zero-size dim.
    a, b = sym.Variable("a"), sym.Variable("b")
    exe = (a + b).bind(mx.cpu(), {"a": mx.nd.zeros((0, 3)), "b": mx.nd.zeros((0, 3))})
    assert exe.forward()[0].shape == (0, 3)
    with pytest.raises(mx.ShapeError, match="a"):
        (a + b).simple_bind(mx.cpu(), a=(0, 3))  # MXNet: unknown, cannot bind


# -- every shape-preserving single-input op infers its input backward ----------------------------------

# Ops whose one-input harness case gives an output of the input's shape but
# whose input is not inferred from `op(a) + b`, with the reason: the case's
# parameters keep the shape, others do not, so the output does not determine
# the input. MXNet 1.9.1 does not infer these backward either (their shape
# functions return early while the data shape is unknown).
NOT_BACKWARD = {
    "_contrib_arange_like": "with axis=... the output is 1-D, the input's length along that axis",
    "argsort": "with axis=None the output is the flattened input",
    "khatri_rao": "of several matrices the output has the product of their row counts",
    "_npi_tril": "a 1-D input of length n gives an (n, n) output",
}


def _same_shape_cases():
    out = []
    for op, cases in sorted(CASES.items()):
        for idx, case in enumerate(cases):
            if case.call is not None or case.compare_inputs:
                continue
            rng = np.random.default_rng(zlib.crc32(("%s/%d" % (op, idx)).encode()))
            xs = case.make_inputs(rng)
            if len(xs) != 1 or xs[0].ndim == 0 or 0 in xs[0].shape:
                continue
            out.append((op, idx, case.attrs, tuple(xs[0].shape)))
            break
    return out


def _sym_fn(op):
    """The generated symbol function of a canonical op name (weft.sym._internal has them all)."""
    return getattr(sym._internal, op, None)


def test_shape_preserving_ops_infer_backward():
    checked, inferred, failures, listed = 0, [], [], set()
    for op, idx, attrs, shape in _same_shape_cases():
        fn = _sym_fn(op)
        if fn is None:
            continue
        a, b = sym.Variable("a"), sym.Variable("b")
        try:
            y = fn(a, **attrs)
        except mx.WeftError:
            continue  # the case's attributes need an NDArray-only argument
        if len(y.list_outputs()) != 1 or y.list_arguments() != ["a"]:
            continue
        try:
            fwd = y.infer_shape_partial(a=shape)[1]
        except mx.WeftError:
            continue
        if fwd != [shape]:
            continue
        checked += 1
        got = dict(zip((y + b).list_arguments(), (y + b).infer_shape_partial(b=shape)[0]))["a"]
        if op in NOT_BACKWARD:
            listed.add(op)
            if got == shape:
                failures.append("%s infers backward now: drop it from NOT_BACKWARD" % op)
            continue
        inferred.append(op)
        if got != shape:
            failures.append("%s (case %d %s): a inferred %s, expected %s" % (op, idx, attrs, got, shape))
    stale = sorted(set(NOT_BACKWARD) - listed)
    assert not stale, "NOT_BACKWARD names ops the loop no longer reaches: %s" % stale
    assert not failures, "\n".join(failures)
    # The loop is not vacuous: unary math, activations, softmax, norms, ...
    assert checked > 120 and len(inferred) > 120, (checked, len(inferred))
    for op in ("exp", "relu", "softmax", "log_softmax", "Activation", "LeakyReLU", "clip", "Cast",
               "_plus_scalar", "BlockGrad", "L2Normalization", "Dropout", "LRN", "SequenceMask"):
        assert op in inferred, op


def test_same_shape_declarations_hold_on_every_case():
    """A slot declared to share its shape (set_same_shape) that does not on some
    harness case would make inference with every input known raise a conflict
    or disagree with the NDArray result: run every case both ways."""
    checked, failures = 0, []
    for op, cases in sorted(CASES.items()):
        fn = _sym_fn(op)
        if fn is None:
            continue
        for idx, case in enumerate(cases):
            if case.call is not None or case.compare_inputs:
                continue
            rng = np.random.default_rng(zlib.crc32(("%s/%d" % (op, idx)).encode()))
            xs = case.make_inputs(rng)
            try:
                res = getattr(mx.nd, op)(*[mx.nd.array(x, dtype=x.dtype) for x in xs], **case.attrs)
            except mx.WeftError:
                continue
            outs = [o.shape for o in (res if isinstance(res, (list, tuple)) else [res])]
            names = ["in%d" % i for i in range(len(xs))]
            try:
                y = fn(*[sym.Variable(n) for n in names], **case.attrs)
            except (mx.WeftError, TypeError):
                continue
            if y.list_arguments() != names or len(y.list_outputs()) != len(outs):
                continue
            # Real zero-size shapes cannot be given to infer_shape (0 is unknown there).
            if any(0 in x.shape for x in xs) or any(0 in s for s in outs):
                continue
            checked += 1
            try:
                got = y.infer_shape_partial(**{n: x.shape for n, x in zip(names, xs)})[1]
            except mx.WeftError as e:
                failures.append("%s case %d: %s" % (op, idx, str(e).splitlines()[0]))
                continue
            if all(g == () for g in got) and all(o != () for o in outs):
                continue  # data-dependent output shapes (contrib.boolean_mask): unknown until run
            if got != outs:
                failures.append("%s case %d: inferred %s, NDArray gives %s" % (op, idx, got, outs))
    assert not failures, "\n".join(failures)
    assert checked > 300, checked


def test_partial_inference_never_contradicts_the_full_one():
    """Soundness over the registry: for every op's harness cases, hiding input
    dims (each alone, and random pairs) must give shapes whose known dims are
    the ones the fully known inference gives, and never an error (a valid
    completion exists). Catches a sentinel dim taken for a known one (squeeze's
    1s, image resize's shorter side) and an op's guess for an unknown input
    taken for knowledge (LeakyReLU's gamma, SoftmaxOutput's label)."""
    checked, bad = 0, []
    for op, cases in sorted(CASES.items()):
        fn = _sym_fn(op)
        if fn is None:
            continue
        for idx, case in enumerate(cases):
            if case.call is not None or case.compare_inputs:
                continue
            rng = np.random.default_rng(zlib.crc32(("%s/%d" % (op, idx)).encode()))
            xs = case.make_inputs(rng)
            if any(0 in x.shape or x.ndim == 0 for x in xs):
                continue
            names = ["in%d" % i for i in range(len(xs))]
            try:
                y = fn(*[sym.Variable(n) for n in names], **case.attrs)
            except (mx.WeftError, TypeError):
                continue
            if y.list_arguments() != names:
                continue
            full = {n: x.shape for n, x in zip(names, xs)}
            try:
                truth = y.infer_shape_partial(**full)
            except mx.WeftError:
                continue
            dims = [(n, d) for n, x in zip(names, xs) for d in range(x.ndim)]
            pick = np.random.default_rng(idx)
            hidden = [[i] for i in range(len(dims))]
            hidden += [list(pick.choice(len(dims), size=min(len(dims), 2), replace=False)) for _ in range(2)]
            for h in hidden:
                given = {n: list(s) for n, s in full.items()}
                for i in h:
                    n, d = dims[i]
                    given[n][d] = 0
                given = {n: tuple(s) for n, s in given.items()}
                checked += 1
                try:
                    got = y.infer_shape_partial(**given)
                except mx.WeftError as e:
                    bad.append("%s case %d %s: %s" % (op, idx, given, str(e).splitlines()[0][:160]))
                    continue
                for part_true, part_got in zip(truth, got):
                    for t, g in zip(part_true, part_got):
                        if g != () and (len(g) != len(t) or any(gd not in (0, td) for gd, td in zip(g, t))):
                            bad.append("%s case %d %s: %s, fully known %s" % (op, idx, given, g, t))
    assert not bad, "\n".join(bad[:40])
    assert checked > 5000, checked


@pytest.mark.parametrize("name", ["resnet18_v1", "mobilenetv2_0.25", "inceptionv3", "densenet121"])
def test_model_zoo_nets_from_an_unknown_batch(name):
    """Gluon's deferred parameters carry __shape__ hints with 0 for the dims
    their layer learns from data (a conv weight's in-channels): with the batch
    unknown too, every parameter and auxiliary state is still inferred, the
    output is (0, 1000), and nothing contradicts the inference with a batch."""
    from weft.gluon.model_zoo import vision  # pylint: disable=import-outside-toplevel
    net = vision.get_model(name)
    net.initialize()
    size = 299 if name == "inceptionv3" else 224
    s = net(sym.Variable("data"))
    arg, out, aux = s.infer_shape_partial(data=(0, 3, size, size))
    full = s.infer_shape_partial(data=(2, 3, size, size))
    assert out == [(0, 1000)]
    unknown = [n for n, sh in zip(s.list_arguments(), arg) if not sh or 0 in sh]
    assert unknown == ["data"], unknown
    assert all(sh and 0 not in sh for sh in aux)
    for got, true in zip(arg + out + aux, full[0] + full[1] + full[2]):
        assert len(got) == len(true) and all(g in (0, t) for g, t in zip(got, true)), (got, true)
