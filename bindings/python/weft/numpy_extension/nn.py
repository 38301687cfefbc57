"""The neural-network operators of ``mx.npx`` (activation, convolution, pooling,
normalisation, softmax, dropout, embedding, rnn, ...), issue 37.

Note [npx operators over the legacy registry]
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
In MXNet 1.9.1 these names are the legacy operators registered a second time
under ``_npx_*`` aliases (``_npx_convolution`` is ``Convolution``): same
kernels, same parameters, np arrays in and out. Weft does the same without a
second registration: each function calls the legacy op through
``weft.numpy._array._invoke``, which returns ``weft.np.ndarray`` objects, so
values, gradients (autograd records the op as usual) and errors are those of
the legacy op. Optional array inputs are passed only when given (``bias=None``
means ``no_bias=True``, as MXNet 2.0's npx signatures spell it). Output counts
follow MXNet: ``batch_norm``/``layer_norm`` return one array unless
``output_mean_var=True``; hidden outputs (dropout's mask, pooling's workspace)
are never returned.
"""
# pylint: disable=invalid-name,redefined-outer-name,too-many-arguments
from ..ndarray.ndarray import NDArray
from ..numpy._array import _invoke, _invoke_default, ndarray

__all__ = ["activation", "relu", "sigmoid", "leaky_relu", "softmax", "log_softmax", "convolution",
           "deconvolution", "fully_connected", "pooling", "batch_norm", "layer_norm", "dropout", "embedding",
           "rnn", "sequence_mask", "smooth_l1", "batch_flatten", "batch_dot"]


def _need(x, name, func):
    if not isinstance(x, NDArray):
        raise TypeError("%s: %s must be an array, got %s" % (func, name, type(x).__name__))
    return x


def _known_shape(x):
    """x's shape when already read (the output of a shape-keeping op has it), else None."""
    try:
        return x._shape  # pylint: disable=protected-access
    except AttributeError:
        return None


def _opt(attrs):
    """attrs without the None values (the op's own default applies)."""
    return {k: v for k, v in attrs.items() if v is not None}


def activation(data, act_type="relu", out=None, name=None):  # pylint: disable=unused-argument
    """``npx.activation``: relu, sigmoid, tanh, softrelu, softsign or log_sigmoid elementwise."""
    return _invoke("Activation", [_need(data, "data", "activation")], out=out, act_type=act_type)


def relu(data, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.relu``: max(data, 0)."""
    if out is None and data.__class__ is ndarray:  # Note [Default-parameter calls] (weft.numpy._array)
        return _invoke_default("relu", data, shape=_known_shape(data))
    return _invoke("relu", [_need(data, "data", "relu")], out=out)


def sigmoid(data, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.sigmoid``: 1 / (1 + exp(-data))."""
    if out is None and data.__class__ is ndarray:  # Note [Default-parameter calls] (weft.numpy._array)
        return _invoke_default("sigmoid", data, shape=_known_shape(data))
    return _invoke("sigmoid", [_need(data, "data", "sigmoid")], out=out)


def leaky_relu(data, gamma=None, act_type="leaky", slope=0.25, lower_bound=0.125, upper_bound=0.334,
               out=None, name=None):  # pylint: disable=unused-argument
    """``npx.leaky_relu``: leaky, prelu (with gamma), elu, selu, gelu or rrelu."""
    ins = [_need(data, "data", "leaky_relu")]
    if gamma is not None:
        ins.append(_need(gamma, "gamma", "leaky_relu"))
    elif act_type == "prelu":
        raise ValueError("leaky_relu: act_type='prelu' needs the gamma array")
    return _invoke("LeakyReLU", ins, out=out, act_type=act_type, slope=slope, lower_bound=lower_bound,
                   upper_bound=upper_bound)


def _length_for(data, length, axis):
    """length checked against data (its shape without axis; (1,) for 1-D data), as the op takes it."""
    nd = data.ndim
    ax = axis % nd if -nd <= axis < nd else None
    if ax is None:
        raise ValueError("softmax: axis %d is out of range for a %d-d array" % (axis, nd))
    shape = tuple(data.shape)
    expect = (shape[:ax] + shape[ax + 1:]) or (1,)
    got = tuple(length.shape)
    if got == () and expect == (1,):
        return _invoke("reshape", [length], shape=(1,))
    if got != expect:
        raise ValueError("softmax: length must have shape %s (data's shape without axis %d), got %s"
                         % (expect, ax, got))
    return length


def _softmax(opname, func, data, axis, length, temperature, use_length, dtype, out):
    if (axis == -1 and temperature is None and not use_length and dtype is None and out is None
            and data.__class__ is ndarray):
        # Note [Default-parameter calls] (weft.numpy._array): the op's axis defaults to -1.
        return _invoke_default(opname, data, shape=_known_shape(data))
    _need(data, "data", func)
    attrs = _opt({"axis": axis, "temperature": temperature, "dtype": dtype})
    if not use_length:
        return _invoke(opname, [data], out=out, **attrs)
    # MXNet's masked softmax (Note [Softmax with length] in core/op/softmax/softmax.cc):
    # each row over its first length entries, zeros past them (log_softmax's too).
    _need(length, "length", func)
    return _invoke(opname, [data, _length_for(data, length, axis)], out=out, use_length=True, **attrs)


def softmax(data, axis=-1, length=None, temperature=None, use_length=False, dtype=None, out=None,
            name=None):  # pylint: disable=unused-argument
    """``npx.softmax``: exp(x/t) / sum(exp(x/t)) along axis; with use_length, only
    the first length[i] entries of each row take part and the rest are 0."""
    return _softmax("softmax", "softmax", data, axis, length, temperature, use_length, dtype, out)


def log_softmax(data, axis=-1, length=None, temperature=None, use_length=False, dtype=None, out=None,
                name=None):  # pylint: disable=unused-argument
    """``npx.log_softmax``: log of softmax along axis (use_length: 0 past length, as MXNet)."""
    return _softmax("log_softmax", "log_softmax", data, axis, length, temperature, use_length, dtype, out)


def convolution(data=None, weight=None, bias=None, kernel=None, stride=None, dilate=None, pad=None,
                num_filter=1, num_group=1, workspace=1024, no_bias=False, cudnn_tune=None, cudnn_off=False,
                layout=None, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.convolution``: N-D convolution of data (batch, C, *spatial) with weight
    (num_filter, C/num_group, *kernel) plus bias; bias None means no bias."""
    ins = [_need(data, "data", "convolution"), _need(weight, "weight", "convolution")]
    if kernel is None:
        raise ValueError("convolution: kernel is required")
    if bias is None:
        no_bias = True
    elif not no_bias:
        ins.append(_need(bias, "bias", "convolution"))
    return _invoke("Convolution", ins, out=out, **_opt(dict(
        kernel=kernel, stride=stride, dilate=dilate, pad=pad, num_filter=num_filter, num_group=num_group,
        workspace=workspace, no_bias=no_bias, cudnn_tune=cudnn_tune, cudnn_off=cudnn_off, layout=layout)))


def deconvolution(data=None, weight=None, bias=None, kernel=None, stride=None, dilate=None, pad=None, adj=None,
                  target_shape=None, num_filter=1, num_group=1, workspace=512, no_bias=True, cudnn_tune=None,
                  cudnn_off=False, layout=None, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.deconvolution``: transposed convolution (the gradient of convolution
    with respect to its data); weight (C, num_filter/num_group, *kernel)."""
    ins = [_need(data, "data", "deconvolution"), _need(weight, "weight", "deconvolution")]
    if kernel is None:
        raise ValueError("deconvolution: kernel is required")
    if bias is None:
        no_bias = True
    elif not no_bias:
        ins.append(_need(bias, "bias", "deconvolution"))
    return _invoke("Deconvolution", ins, out=out, **_opt(dict(
        kernel=kernel, stride=stride, dilate=dilate, pad=pad, adj=adj, target_shape=target_shape,
        num_filter=num_filter, num_group=num_group, workspace=workspace, no_bias=no_bias, cudnn_tune=cudnn_tune,
        cudnn_off=cudnn_off, layout=layout)))


def fully_connected(x, weight, bias=None, num_hidden=None, no_bias=True, flatten=True, out=None,
                    name=None):  # pylint: disable=unused-argument
    """``npx.fully_connected``: x * weight^T + bias (weight (num_hidden, in));
    num_hidden defaults to weight.shape[0]; bias None means no bias."""
    ins = [_need(x, "x", "fully_connected"), _need(weight, "weight", "fully_connected")]
    if num_hidden is None:
        num_hidden = weight.shape[0]
    if bias is not None:
        no_bias = False
        ins.append(_need(bias, "bias", "fully_connected"))
    else:
        no_bias = True
    return _invoke("FullyConnected", ins, out=out, num_hidden=num_hidden, no_bias=no_bias, flatten=flatten)


def pooling(data=None, kernel=None, stride=None, pad=None, pool_type="max", pooling_convention="valid",
            global_pool=False, cudnn_off=False, p_value=None, count_include_pad=None, layout=None, out=None,
            name=None):  # pylint: disable=unused-argument
    """``npx.pooling``: max/avg/sum/lp pooling over 1-3 spatial axes (one output)."""
    return _invoke("Pooling", [_need(data, "data", "pooling")], out=out, **_opt(dict(
        kernel=kernel, stride=stride, pad=pad, pool_type=pool_type, pooling_convention=pooling_convention,
        global_pool=global_pool, cudnn_off=cudnn_off, p_value=p_value, count_include_pad=count_include_pad,
        layout=layout)))


def batch_norm(x, gamma, beta, running_mean, running_var, eps=1e-3, momentum=0.9, fix_gamma=True,
               use_global_stats=False, output_mean_var=False, axis=1, cudnn_off=False, min_calib_range=None,
               max_calib_range=None, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.batch_norm``: batch normalisation over axis; in training (autograd
    recording with train_mode) it updates running_mean/running_var in place.
    Returns the normalised array, or [out, mean, var] with output_mean_var."""
    f = "batch_norm"
    ins = [_need(x, "x", f), _need(gamma, "gamma", f), _need(beta, "beta", f),
           _need(running_mean, "running_mean", f), _need(running_var, "running_var", f)]
    res = _invoke("BatchNorm", ins, **_opt(dict(
        eps=eps, momentum=momentum, fix_gamma=fix_gamma, use_global_stats=use_global_stats,
        output_mean_var=output_mean_var, axis=axis, cudnn_off=cudnn_off, min_calib_range=min_calib_range,
        max_calib_range=max_calib_range)))
    return _first_or_all(res, output_mean_var, out)


def _first_or_all(res, all_outputs, out):
    if isinstance(res, list) and not all_outputs:
        res = res[0]
    if out is not None:
        res.copyto(out)
        return out
    return res


def layer_norm(data=None, gamma=None, beta=None, axis=-1, eps=1e-5, output_mean_var=False, out=None,
               name=None):  # pylint: disable=unused-argument
    """``npx.layer_norm``: normalisation over one axis, scaled by gamma and shifted
    by beta; [out, mean, std] with output_mean_var."""
    f = "layer_norm"
    res = _invoke("LayerNorm", [_need(data, "data", f), _need(gamma, "gamma", f), _need(beta, "beta", f)],
                  axis=axis, eps=eps, output_mean_var=output_mean_var)
    return _first_or_all(res, output_mean_var, out)


def dropout(data, p=0.5, mode="training", axes=None, cudnn_off=True, out=None,
            name=None):  # pylint: disable=unused-argument
    """``npx.dropout``: zeroes each element with probability p and scales the rest
    by 1/(1-p) while autograd is training (mode='always': always); else identity."""
    if not 0 <= p <= 1:
        raise ValueError("dropout: p must be in [0, 1], got %r" % (p,))
    res = _invoke("Dropout", [_need(data, "data", "dropout")], **_opt(dict(
        p=p, mode=mode, axes=axes, cudnn_off=cudnn_off)))
    return _first_or_all(res, False, out)


def embedding(data, weight, input_dim=None, output_dim=None, dtype="float32", sparse_grad=False, out=None,
              name=None):  # pylint: disable=unused-argument
    """``npx.embedding``: rows of weight (input_dim, output_dim) at the indices in
    data; input_dim/output_dim default to weight's shape."""
    _need(weight, "weight", "embedding")
    if weight.ndim != 2:
        raise ValueError("embedding: weight must be 2-D (input_dim, output_dim), got shape %s" % (weight.shape,))
    input_dim = weight.shape[0] if input_dim is None else input_dim
    output_dim = weight.shape[1] if output_dim is None else output_dim
    return _invoke("Embedding", [_need(data, "data", "embedding"), weight], out=out, input_dim=input_dim,
                   output_dim=output_dim, dtype=dtype, sparse_grad=sparse_grad)


def rnn(data=None, parameters=None, state=None, state_cell=None, sequence_length=None, mode=None,
        state_size=None, num_layers=None, bidirectional=False, state_outputs=False, p=0.0,
        use_sequence_length=False, projection_size=None, lstm_state_clip_min=None, lstm_state_clip_max=None,
        lstm_state_clip_nan=False, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.rnn``: fused multi-layer (bi)directional rnn_relu/rnn_tanh/lstm/gru over
    data (seq_len, batch, input); state_cell for lstm. Returns the output, or
    [output, final state(s)] with state_outputs."""
    f = "rnn"
    if mode is None or state_size is None or num_layers is None:
        raise ValueError("rnn: mode, state_size and num_layers are required")
    ins = [_need(data, "data", f), _need(parameters, "parameters", f), _need(state, "state", f)]
    if mode == "lstm":
        ins.append(_need(state_cell, "state_cell", f))
    if use_sequence_length:
        ins.append(_need(sequence_length, "sequence_length", f))
    res = _invoke("RNN", ins, out=out, **_opt(dict(
        mode=mode, state_size=state_size, num_layers=num_layers, bidirectional=bidirectional,
        state_outputs=state_outputs, p=p, use_sequence_length=use_sequence_length or None,
        projection_size=projection_size, lstm_state_clip_min=lstm_state_clip_min,
        lstm_state_clip_max=lstm_state_clip_max, lstm_state_clip_nan=lstm_state_clip_nan or None)))
    return res


def sequence_mask(data, sequence_length=None, use_sequence_length=False, value=0.0, axis=0, out=None,
                  name=None):  # pylint: disable=unused-argument
    """``npx.sequence_mask``: sets the steps past sequence_length[b] of each batch
    entry (along axis 0 or 1) to value; identity without use_sequence_length."""
    ins = [_need(data, "data", "sequence_mask")]
    if use_sequence_length:
        ins.append(_need(sequence_length, "sequence_length", "sequence_mask"))
    return _invoke("SequenceMask", ins, out=out, use_sequence_length=use_sequence_length, value=value, axis=axis)


def smooth_l1(data, scalar=1.0, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.smooth_l1``: (scalar*x)^2/2 where |x| < 1/scalar^2, else |x| - 0.5/scalar^2."""
    return _invoke("smooth_l1", [_need(data, "data", "smooth_l1")], out=out, scalar=scalar)


def batch_flatten(x, out=None, name=None):  # pylint: disable=unused-argument
    """``npx.batch_flatten``: (d0, d1, ..., dk) -> (d0, d1*...*dk)."""
    return _invoke("Flatten", [_need(x, "x", "batch_flatten")], out=out)


def batch_dot(a, b, transpose_a=False, transpose_b=False, forward_stype=None, out=None,
              name=None):  # pylint: disable=unused-argument
    """``npx.batch_dot``: batched matrix product of (B, M, K) and (B, K, N)."""
    return _invoke("batch_dot", [_need(a, "a", "batch_dot"), _need(b, "b", "batch_dot")], out=out,
                   **_opt(dict(transpose_a=transpose_a, transpose_b=transpose_b, forward_stype=forward_stype)))
