"""Every MXNet 1.9.1 operator-level name exists in Weft (issue 17).

``../shared/reference/mxnet-1.9.1-operators.txt`` (beside the repository; CI
has ../shared next to the clone) lists, one per line as ``namespace name``,
every public name of MXNet 1.9.1's ``mx.nd``, ``mx.nd.contrib``, ``.linalg``,
``.random``, ``.image``, ``mx.sym.contrib`` and of the ``NDArray`` and
``Symbol`` classes. ``test_every_reference_name_exists`` looks each one up in
the matching Weft namespace (``mx.nd`` -> ``weft.nd``, ``mx.nd.contrib`` ->
``weft.nd.contrib`` ..., ``NDArray`` -> the methods and attributes of
``weft.nd.NDArray``, ``Symbol`` -> those of ``weft.sym.Symbol``) and fails,
printing the per-namespace counts (have/total) and every missing name, when a
name is missing that is neither EXCLUDED nor PENDING.

EXCLUDED is the short list of names issue 17 allows Weft to leave out, each with
its reason. PENDING holds the names still missing on the branch that wrote this
test: the operators other helpers were adding in parallel. The lead empties
PENDING after merging their branches; the test also fails for a PENDING name
that now exists, so the list cannot go stale. Once PENDING is empty, a missing
name fails the test.

``test_present_names_resolve`` checks that each name that exists is usable:
a callable for the namespaces and the class methods, a readable attribute for
the NDArray/Symbol attributes (``shape``, ``dtype``, ``handle`` ...).
"""
import fnmatch
import inspect
from collections import OrderedDict
from pathlib import Path

import pytest

import weft

REFERENCE = (Path(__file__).resolve().parents[2].parent / "shared" / "reference"
             / "mxnet-1.9.1-operators.txt")
needs_reference = pytest.mark.skipif(not REFERENCE.is_file(), reason=f"no MXNet name list at {REFERENCE}")

_NO_SUBGRAPHS = "symbolic control flow needs subgraph operators (not built; the imperative nd.contrib versions exist)"

# The names issue 17 allows Weft to leave out, as fnmatch patterns over "namespace name".
EXCLUDED = (
    # Quantization: Weft has no int8 inference path (issue 17: "the quantization ops").
    ("mx.nd.contrib quantize*", "quantization"),
    ("mx.nd.contrib quantized_*", "quantization"),
    ("mx.nd.contrib dequantize", "quantization"),
    ("mx.nd.contrib requantize", "quantization"),
    ("mx.nd.contrib calibrate_entropy", "quantization (calibration)"),
    ("mx.sym.contrib quantize*", "quantization"),
    ("mx.sym.contrib quantized_*", "quantization"),
    ("mx.sym.contrib dequantize", "quantization"),
    ("mx.sym.contrib requantize", "quantization"),
    ("mx.sym.contrib calibrate_entropy", "quantization (calibration)"),
    # DGL graph sampling (CSR graphs; Weft has dense storage only).
    ("mx.nd.contrib dgl_*", "DGL graph sampling"),
    ("mx.sym.contrib dgl_*", "DGL graph sampling"),
    # The *_v1 legacy layers, unless aliased to their successors (then they exist and pass).
    ("mx.nd *_v1", "legacy layer"),
    # Symbolic control flow (MXNet's _foreach/_while_loop/_cond subgraph operators).
    ("mx.sym.contrib foreach", _NO_SUBGRAPHS),
    ("mx.sym.contrib while_loop", _NO_SUBGRAPHS),
    ("mx.sym.contrib cond", _NO_SUBGRAPHS),
)

# Still missing on the branch h/ns (the Python surface): each is added by another
# helper's branch (new operators and their fluent methods). The lead empties this
# list after merging those branches; see the module docstring.
PENDING = frozenset("%s %s" % (ns, name) for ns, names in {
    "mx.nd": """
        BilinearSampler CTCLoss Correlation Crop Custom GridGenerator GroupNorm IdentityAttachKLSparseReg
        L2Normalization ROIPooling SVMOutput SequenceReverse SpatialTransformer SwapAxis all_finite amp_cast
        amp_multicast arccos arccosh arcsin arcsinh arctan arctanh argmax_channel argsort batch_take
        broadcast_hypot broadcast_logical_and broadcast_logical_or broadcast_logical_xor cast_storage
        choose_element_0index col2im cosh ctc_loss cumsum degrees depth_to_space diag erf erfinv
        fill_element_0index fix flip ftml_update gamma gammaln hard_sigmoid histogram im2col imdecode khatri_rao
        lamb_update_phase1 lamb_update_phase2 linalg_det linalg_extractdiag linalg_extracttrian linalg_gelqf
        linalg_gemm linalg_gemm2 linalg_inverse linalg_makediag linalg_maketrian linalg_potrf linalg_potri
        linalg_slogdet linalg_sumlogdiag linalg_syrk linalg_trmm linalg_trsm linspace log10 log2 logical_and
        logical_not logical_or logical_xor moments mp_lamb_update_phase1 mp_lamb_update_phase2 mp_nag_mom_update
        mp_sgd_mom_update mp_sgd_update multi_all_finite multi_lars multi_mp_sgd_mom_update multi_mp_sgd_update
        multi_sgd_mom_update multi_sgd_update multi_sum_sq preloaded_multi_mp_sgd_mom_update
        preloaded_multi_mp_sgd_update preloaded_multi_sgd_mom_update preloaded_multi_sgd_update radians
        random_exponential random_gamma random_generalized_negative_binomial random_negative_binomial
        random_pdf_dirichlet random_pdf_exponential random_pdf_gamma random_pdf_generalized_negative_binomial
        random_pdf_negative_binomial random_pdf_normal random_pdf_poisson random_pdf_uniform random_poisson
        ravel_multi_index rcbrt repeat reset_arrays reshape_like reverse rint rmspropalex_update
        sample_exponential sample_gamma sample_generalized_negative_binomial sample_multinomial
        sample_negative_binomial sample_normal sample_poisson sample_uniform scatter_nd shape_array shuffle sinh
        size_array slice_like softmin softsign sort space_to_depth split_v2 swapaxes tile topk trunc
        unravel_index
    """,
    "mx.nd.contrib": """
        AdaptiveAvgPooling2D BatchNormWithReLU BilinearResize2D CTCLoss DeformableConvolution
        DeformablePSROIPooling ModulatedDeformableConvolution MultiBoxDetection MultiBoxPrior MultiBoxTarget
        MultiProposal PSROIPooling Proposal ROIAlign RROIAlign SparseEmbedding SyncBatchNorm adamw_update
        allclose arange_like backward_gradientmultiplier backward_hawkesll backward_index_copy
        backward_quadratic bipartite_matching boolean_mask box_decode box_encode box_iou box_nms
        box_non_maximum_suppression count_sketch ctc_loss div_sqrt_dim edge_id fft getnnz
        gradientmultiplier group_adagrad_update hawkesll ifft index_array index_copy
        interleaved_matmul_encdec_qk interleaved_matmul_encdec_valatt interleaved_matmul_selfatt_qk
        interleaved_matmul_selfatt_valatt isfinite isinf isnan mp_adamw_update multi_adamw_update
        multi_lamb_update multi_mp_adamw_update multi_mp_lamb_update quadratic rand_zipfian round_ste sign_ste
    """,
    "mx.nd.linalg": """
        det extractdiag extracttrian gelqf gemm gemm2 inverse makediag maketrian potrf potri slogdet sumlogdiag
        syevd syrk trmm trsm
    """,
    "mx.nd.random": """
        exponential exponential_like gamma gamma_like generalized_negative_binomial
        generalized_negative_binomial_like multinomial negative_binomial negative_binomial_like normal_like
        poisson poisson_like randn shuffle uniform_like
    """,
    "mx.nd.image": """
        adjust_lighting crop flip_left_right flip_top_bottom normalize random_brightness random_color_jitter
        random_contrast random_flip_left_right random_flip_top_bottom random_hue random_lighting
        random_saturation resize to_tensor
    """,
    "mx.sym.contrib": """
        AdaptiveAvgPooling2D BatchNormWithReLU BilinearResize2D CTCLoss DeformableConvolution
        DeformablePSROIPooling ModulatedDeformableConvolution MultiBoxDetection MultiBoxPrior MultiBoxTarget
        MultiProposal PSROIPooling Proposal ROIAlign RROIAlign SparseEmbedding SyncBatchNorm adamw_update
        allclose arange_like backward_gradientmultiplier backward_hawkesll backward_index_copy
        backward_quadratic bipartite_matching boolean_mask box_decode box_encode box_iou box_nms
        box_non_maximum_suppression count_sketch ctc_loss div_sqrt_dim edge_id fft getnnz
        gradientmultiplier group_adagrad_update hawkesll ifft index_array index_copy
        interleaved_matmul_encdec_qk interleaved_matmul_encdec_valatt interleaved_matmul_selfatt_qk
        interleaved_matmul_selfatt_valatt mp_adamw_update quadratic rand_zipfian round_ste sign_ste
    """,
    "NDArray": """
        arccos arccosh arcsin arcsinh arctan arctanh argmax_channel argsort cosh degrees depth_to_space diag fix
        flip log10 log2 radians rcbrt repeat reshape_like rint shape_array sinh size_array slice_like softmin
        sort space_to_depth split_v2 swapaxes tile topk trunc
    """,
    "Symbol": """
        arccos arccosh arcsin arcsinh arctan arctanh argmax_channel argsort cosh degrees depth_to_space diag fix
        flip log10 log2 radians rcbrt repeat reshape_like rint shape_array sinh size_array slice_like softmin
        sort space_to_depth split_v2 swapaxes tile topk trunc
    """,
}.items() for name in names.split())

NAMESPACES = OrderedDict([
    ("mx.nd", lambda: weft.nd),
    ("mx.nd.contrib", lambda: weft.nd.contrib),
    ("mx.nd.linalg", lambda: weft.nd.linalg),
    ("mx.nd.random", lambda: weft.nd.random),
    ("mx.nd.image", lambda: weft.nd.image),
    ("mx.sym.contrib", lambda: weft.sym.contrib),
    ("NDArray", lambda: weft.nd.NDArray),
    ("Symbol", lambda: weft.sym.Symbol),
])

# Data attributes (properties or slots) of the classes, read on an instance; every
# other class name must be a method.
ATTRIBUTES = {
    "NDArray": {"T", "context", "ctx", "dtype", "grad", "handle", "ndim", "shape", "size", "stype", "writable"},
    "Symbol": {"handle", "name"},
}


def reference_names():
    """[(namespace, name)] in file order."""
    out = []
    for line in REFERENCE.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        ns, name = line.split()
        out.append((ns, name))
    return out


def excluded(ns, name):
    key = "%s %s" % (ns, name)
    return any(fnmatch.fnmatchcase(key, pattern) for pattern, _ in EXCLUDED)


def exists(ns, name):
    return hasattr(NAMESPACES[ns](), name)


def coverage():
    """{namespace: (have, total, [missing names not excluded])}."""
    table = OrderedDict((ns, [0, 0, []]) for ns in NAMESPACES)
    for ns, name in reference_names():
        row = table[ns]
        row[1] += 1
        if exists(ns, name):
            row[0] += 1
        elif not excluded(ns, name):
            row[2].append(name)
    return table


def report(table):
    lines = ["MXNet 1.9.1 names in Weft, per namespace (have/total; missing, exclusions aside):"]
    for ns, (have, total, missing) in table.items():
        lines.append("  %-15s %3d/%-3d  missing %d%s" % (ns, have, total, len(missing),
                                                       (": " + " ".join(missing)) if missing else ""))
    return "\n".join(lines)


@needs_reference
def test_reference_file_names_known_namespaces():
    names = reference_names()
    assert len(names) > 700
    unknown = sorted({ns for ns, _ in names} - set(NAMESPACES))
    assert not unknown, "namespaces of the reference file this test does not map: %s" % unknown
    # Every exclusion and PENDING entry names something in the reference file.
    keys = {"%s %s" % n for n in names}
    for pattern, reason in EXCLUDED:
        assert fnmatch.filter(keys, pattern), "exclusion %r (%s) matches no reference name" % (pattern, reason)
    assert not PENDING - keys, "PENDING entries not in the reference file: %s" % sorted(PENDING - keys)


@needs_reference
def test_every_reference_name_exists():
    table = coverage()
    text = report(table)
    print(text)
    missing = {"%s %s" % (ns, name) for ns, row in table.items() for name in row[2]}
    unexpected = sorted(missing - PENDING)
    landed = sorted(n for n in PENDING if exists(*n.split()))
    assert not unexpected and not landed, (
        text + ("\n\nmissing and not PENDING: %s" % unexpected if unexpected else "")
        + ("\n\nPENDING but present now (remove them from PENDING): %s" % landed if landed else ""))


@needs_reference
def test_present_names_resolve():
    x = weft.nd.ones((2, 3))
    s = weft.sym.var("x")
    instances = {"NDArray": x, "Symbol": s}
    bad = []
    for ns, name in reference_names():
        if not exists(ns, name):
            continue
        target = NAMESPACES[ns]()
        if ns in ATTRIBUTES and name in ATTRIBUTES[ns]:
            static = inspect.getattr_static(target, name)
            if inspect.isfunction(static):
                bad.append("%s.%s is a method, MXNet's is an attribute" % (ns, name))
                continue
            try:
                getattr(instances[ns], name)
            except Exception as err:  # pylint: disable=broad-except
                bad.append("%s.%s cannot be read: %r" % (ns, name, err))
        elif ns in ATTRIBUTES:
            if not inspect.isfunction(inspect.getattr_static(target, name)):
                bad.append("%s.%s is not a method" % (ns, name))
        elif not callable(getattr(target, name)):
            bad.append("%s.%s is not callable" % (ns, name))
    assert not bad, "\n".join(bad)


if __name__ == "__main__":  # the table, for a quick look: python3 tests/python/test_mxnet_operator_coverage.py
    print(report(coverage()))
