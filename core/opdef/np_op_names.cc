// MXNet 1.9.1's NumPy-mode operator names that Weft's existing operators
// already compute (read by the registry, core/opdef/registry.cc).
//
// Note [NumPy-mode op names]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// A Gluon model hybridized in MXNet's NumPy mode (npx.set_np()) is a graph of
// `_npi_*`, `_np_*` and `_npx_*` nodes: the layers call F.npx.fully_connected,
// F.npx.convolution ..., user code calls F.np.add or `a + b` on a _Symbol, and
// export() writes those names. For Weft to hybridize into such graphs and read
// MXNet's, each name must resolve to an operator. The rows below are the names
// whose MXNet operator computes what a Weft operator computes, with the same
// parameters (names, meanings, defaults), so each is an alias of that operator:
//
//  * `_npx_*`: MXNet itself registers these as aliases of the legacy operators
//    (FullyConnected.add_alias("_npx_fully_connected") ...), so they are exact.
//  * The binary ufuncs (`_npi_add` ...) are MXNet's broadcasting operators, so
//    they name `broadcast_*`, never the same-shape `elemwise_*`.
//  * Not exact: MXNet's `_npi_*` ufuncs promote mixed input dtypes (int32 with
//    float32 gives float32; `_npi_true_divide` of two ints, and the float
//    functions (`_npi_exp` ...) of an int, give float32), while the legacy
//    operators named here keep their (one) input dtype. A traced graph has no
//    dtypes to promote by, so the nodes mean the same in both libraries when
//    their operands share one float dtype (a Gluon model's float32 graph); a
//    graph that relies on mixed-dtype promotion inside one node is computed
//    here in its inputs' common dtype, or refused by type inference.
//  * `_np_broadcast_to` reads 0 in `shape` as NumPy does (a zero-size axis) in
//    MXNet, as "keep this axis" in the legacy operator; weft.sym.np writes no 0.
//
// Left out because no legacy operator takes MXNet's parameters: the reductions
// (`_np_sum`, `_npi_mean`, `_np_max` ... take `dtype`/`initial` and promote:
// operators of their own, core/op/reduce/np_reduce.cc), `_npx_reshape` (its own special codes -1..-6; `_np_reshape` is its own
// operator, core/op/shape/np_reshape.cc), `_npi_concatenate` (its `axis`), `_np_dot` (NumPy's N-d dot,
// its own operator: core/op/dense/np_products.cc);
// and the comparisons (`_npi_equal` ...), which return bool in MXNet where the
// legacy operators return their input dtype (they are operators of their own,
// core/op/elemwise/np_compare.cc, as are `_npi_where` and the other NumPy-only
// functions of core/op/elemwise/np_*.cc). weft.sym.np writes the legacy
// operator for those (Reshape, sum, Concat ...), which MXNet also loads, and
// the symbol-file reader takes MXNet's `_npx_reshape` and `_npi_concatenate`
// nodes as those legacy operators (Note [NumPy-mode nodes read as legacy ones], core/graph/np_json_nodes.cc).
//
// Why a table read by the registry rather than .add_alias() here: an alias is
// added to an OpDef already registered, and the operators live in other
// translation units whose static initialisers may run after this file's. The
// registry attaches each row when its target is registered (by name or alias),
// whatever the order.
#include "core/opdef/np_op_names.h"

namespace weft {
namespace {

constexpr OpNameAlias kNumpyModeAliases[] = {
    // npx: MXNet registers each as an alias of the legacy op (exact)
    {"_npx_activation", "Activation"},
    {"_npx_arange_like", "_contrib_arange_like"},
    {"_npx_batch_dot", "batch_dot"},
    {"_npx_batch_flatten", "Flatten"},
    {"_npx_batch_norm", "BatchNorm"},
    {"_npx_cast", "Cast"},
    {"_npx_convolution", "Convolution"},
    {"_npx_deconvolution", "Deconvolution"},
    {"_npx_dropout", "Dropout"},
    {"_npx_embedding", "Embedding"},
    {"_npx_erf", "erf"},
    {"_npx_erfinv", "erfinv"},
    {"_npx_fully_connected", "FullyConnected"},
    {"_npx_gamma", "gamma"},
    {"_npx_gammaln", "gammaln"},
    {"_npx_gather_nd", "gather_nd"},
    {"_npx_layer_norm", "LayerNorm"},
    {"_npx_leaky_relu", "LeakyReLU"},
    {"_npx_log_softmax", "log_softmax"},
    {"_npx_multibox_detection", "_contrib_MultiBoxDetection"},
    {"_npx_multibox_prior", "_contrib_MultiBoxPrior"},
    {"_npx_multibox_target", "_contrib_MultiBoxTarget"},
    {"_npx_one_hot", "one_hot"},
    {"_npx_pick", "pick"},
    {"_npx_pooling", "Pooling"},
    {"_npx_relu", "relu"},
    {"_npx_reshape_like", "reshape_like"},
    {"_npx_rnn", "RNN"},
    {"_npx_roi_pooling", "ROIPooling"},
    {"_npx_sequence_mask", "SequenceMask"},
    {"_npx_shape_array", "shape_array"},
    {"_npx_sigmoid", "sigmoid"},
    {"_npx_slice", "slice"},
    {"_npx_smooth_l1", "smooth_l1"},
    {"_npx_softmax", "softmax"},
    {"_npx_topk", "topk"},
    // binary ufuncs: the broadcasting ops (Note: promotion)
    {"_npi_add", "broadcast_add"},
    {"_npi_subtract", "broadcast_sub"},
    {"_npi_multiply", "broadcast_mul"},
    {"_npi_true_divide", "broadcast_div"},
    {"_npi_mod", "broadcast_mod"},
    {"_npi_power", "broadcast_power"},
    {"_npi_maximum", "broadcast_maximum"},
    {"_npi_minimum", "broadcast_minimum"},
    {"_npi_hypot", "broadcast_hypot"},
    // array-scalar ufuncs (Note: promotion)
    {"_npi_add_scalar", "_plus_scalar"},
    {"_npi_subtract_scalar", "_minus_scalar"},
    {"_npi_rsubtract_scalar", "_rminus_scalar"},
    {"_npi_multiply_scalar", "_mul_scalar"},
    {"_npi_true_divide_scalar", "_div_scalar"},
    {"_npi_rtrue_divide_scalar", "_rdiv_scalar"},
    {"_npi_mod_scalar", "_mod_scalar"},
    {"_npi_rmod_scalar", "_rmod_scalar"},
    {"_npi_power_scalar", "_power_scalar"},
    {"_npi_rpower_scalar", "_rpower_scalar"},
    {"_npi_maximum_scalar", "_maximum_scalar"},
    {"_npi_minimum_scalar", "_minimum_scalar"},
    // unary ufuncs (Note: promotion)
    {"_npi_negative", "negative"},
    {"_npi_absolute", "abs"},
    {"_npi_exp", "exp"},
    {"_npi_log", "log"},
    {"_npi_log2", "log2"},
    {"_npi_log10", "log10"},
    {"_npi_log1p", "log1p"},
    {"_npi_expm1", "expm1"},
    {"_npi_sqrt", "sqrt"},
    {"_npi_cbrt", "cbrt"},
    {"_npi_square", "square"},
    {"_npi_reciprocal", "reciprocal"},
    {"_npi_sin", "sin"},
    {"_npi_cos", "cos"},
    {"_npi_tan", "tan"},
    {"_npi_arcsin", "arcsin"},
    {"_npi_arccos", "arccos"},
    {"_npi_arctan", "arctan"},
    {"_npi_sinh", "sinh"},
    {"_npi_cosh", "cosh"},
    {"_npi_tanh", "tanh"},
    {"_npi_arcsinh", "arcsinh"},
    {"_npi_arccosh", "arccosh"},
    {"_npi_arctanh", "arctanh"},
    {"_npi_sign", "sign"},
    {"_npi_rint", "rint"},
    {"_npi_ceil", "ceil"},
    {"_npi_floor", "floor"},
    {"_npi_trunc", "trunc"},
    {"_npi_fix", "fix"},
    {"_npi_degrees", "degrees"},
    {"_npi_radians", "radians"},
    // shape and layout
    {"_np_transpose", "transpose"},
    {"_npi_stack", "stack"},
    {"_npi_split", "_split_v2"},
    {"_np_copy", "_copyto"},
    {"_np_squeeze", "squeeze"},
    {"_npi_expand_dims", "expand_dims"},
    {"_np_broadcast_to", "broadcast_to"},
    {"_npi_tile", "tile"},
    {"_npi_swapaxes", "SwapAxis"},
    {"_npi_clip", "clip"},
    // creation
    {"_npi_zeros", "_zeros"},
    {"_npi_ones", "_ones"},
    {"_npi_full", "_full"},
    {"_npi_arange", "_arange"},
    {"_npi_eye", "_eye"},
    {"_np_zeros_like", "zeros_like"},
    {"_np_ones_like", "ones_like"},
    // weft.np calls these through a legacy op (np.diag, np.flip, np.linalg.cholesky);
    // MXNet registers its own op with the same kernel, input and parameters (exact)
    {"_np_diag", "diag"},
    {"_npi_cholesky", "_linalg_potrf"},
    {"_npi_flip", "reverse"},
    // MXNet registers these names as aliases of its legacy operator (add_alias), so
    // its graphs write the legacy name; the NumPy-mode name is looked up too (exact)
    {"_npi_Custom", "Custom"},
    {"_npi_linspace", "_linspace"},
    {"_npi_random_randint", "_random_randint"},
    {"_npi_shuffle", "_shuffle"},
    // MXNet registers each as an alias of the legacy op (.add_alias), so exact; its files
    // hold the legacy name, but it loads these too (issue 37, the "npshape" group)
    {"_np_repeat", "repeat"},
    {"_npi_argsort", "argsort"},
    {"_npi_gather_nd", "gather_nd"},
    {"_npi_histogram", "_histogram"},
    {"_npi_scatter_set_nd", "_scatter_set_nd"},
    {"_npi_slice", "slice"},
    {"_npi_slice_assign", "_slice_assign"},
    {"_npi_slice_assign_scalar", "_slice_assign_scalar"},
    {"_npi_sort", "sort"},
    {"_npi_take", "take"},
    {"_npi_rnn_param_concat", "_rnn_param_concat"},
    // MXNet registers these names as aliases of the operator named (checked in
    // MXNet 1.9.1: MXSymbolGetAtomicSymbolInfo gives the target's name), so exact
    {"_npi_abs", "abs"},
    {"_npi_cast", "Cast"},
    {"_npi_copyto", "_copyto"},
    {"_npi_hypot_scalar", "_hypot_scalar"},
    {"_npi_nonzero", "_npx_nonzero"},
    {"_npx__image_adjust_lighting", "_image_adjust_lighting"},
    {"_npx__image_crop", "_image_crop"},
    {"_npx__image_flip_left_right", "_image_flip_left_right"},
    {"_npx__image_flip_top_bottom", "_image_flip_top_bottom"},
    {"_npx__image_normalize", "_image_normalize"},
    {"_npx__image_random_brightness", "_image_random_brightness"},
    {"_npx__image_random_color_jitter", "_image_random_color_jitter"},
    {"_npx__image_random_contrast", "_image_random_contrast"},
    {"_npx__image_random_flip_left_right", "_image_random_flip_left_right"},
    {"_npx__image_random_flip_top_bottom", "_image_random_flip_top_bottom"},
    {"_npx__image_random_hue", "_image_random_hue"},
    {"_npx__image_random_lighting", "_image_random_lighting"},
    {"_npx__image_random_saturation", "_image_random_saturation"},
    {"_npx__image_resize", "_image_resize"},
    {"_npx__image_to_tensor", "_image_to_tensor"},
    {"_npi_cvimdecode", "_cvimdecode"},  // core/io/cv_image_ops.cc
    {"_npi_cvimread", "_cvimread"},
};

}  // namespace

const OpNameAlias* NumpyModeAliases(size_t* n) {
  *n = sizeof(kNumpyModeAliases) / sizeof(kNumpyModeAliases[0]);
  return kNumpyModeAliases;
}

}  // namespace weft
