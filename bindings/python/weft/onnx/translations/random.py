"""Random generators: _random_uniform/_random_normal (and their _like forms)
as ONNX RandomUniform/RandomNormal(Like), _sample_multinomial as Multinomial.
ONNX Runtime draws its own numbers: an exported model samples the same
distributions, not the same values."""
import numpy as np

from .._deps import helper
from ..registry import register

__all__ = []


def _onnx_dtype(np_dtype):
    return helper.np_dtype_to_tensor_dtype(np.dtype(np_dtype))


@register("_random_uniform", "_random_normal")
def random(b, node):
    shape = list(node.out_shapes[0])
    dtype = _onnx_dtype(node.out_dtypes[0])
    if node.op == "_random_uniform":
        b.node("RandomUniform", [], outputs=[node.outputs[0]], name=node.name, shape=shape, dtype=dtype,
               low=node.float("low", 0.0), high=node.float("high", 1.0))
    else:
        b.node("RandomNormal", [], outputs=[node.outputs[0]], name=node.name, shape=shape, dtype=dtype,
               mean=node.float("loc", 0.0), scale=node.float("scale", 1.0))


@register("_random_uniform_like", "_random_normal_like")
def random_like(b, node):
    dtype = _onnx_dtype(node.out_dtypes[0])
    if node.op == "_random_uniform_like":
        b.node("RandomUniformLike", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name, dtype=dtype,
               low=node.float("low", 0.0), high=node.float("high", 1.0))
    else:
        b.node("RandomNormalLike", [node.inputs[0]], outputs=[node.outputs[0]], name=node.name, dtype=dtype,
               mean=node.float("loc", 0.0), scale=node.float("scale", 1.0))


@register("_sample_multinomial")
def multinomial(b, node):
    """MXNet samples from probabilities (last axis), ONNX from unnormalised
    log-probabilities of a (batch, classes) input: the log of the
    probabilities, flattened to 2-D and reshaped back. get_prob (MXNet's
    symbolic default) adds the log-probability of each draw."""
    draws = node.tuple("shape", ()) or ()
    if len(draws) > 1:
        raise node.error("a sample shape of more than one axis (%s) is not supported" % (draws,))
    count = draws[0] if draws else 1
    shape = list(node.in_shapes[0][:-1]) + list(draws)
    logits = b.node("Log", [b.node("Reshape", [node.inputs[0], b.int64s([-1, node.in_shapes[0][-1]])])])
    s = b.node("Multinomial", [logits], sample_size=count, dtype=_onnx_dtype(np.int64))
    b.node("Reshape", [b.cast(s, node.out_dtypes[0]), b.int64s(shape, "shape")], outputs=[node.outputs[0]],
           name=node.name)
    if node.bool("get_prob"):
        logp = b.node("GatherElements", [logits, s], axis=1)
        b.node("Reshape", [logp, b.int64s(shape, "shape")], outputs=[node.outputs[1]], name=node.name + "_prob")
