"""MXNet 1.9.1's ONNX operator lists, to measure weft.onnx against: the MXNet
operators its exporter translates (mx2onnx's registry, opsets 12 and 13) and
the ONNX operators its importer maps (onnx2mx's _convert_map). Used by
benchmarks/onnx_coverage.py and the tests that keep weft.onnx a superset."""
__all__ = ["MXNET_EXPORTED", "MXNET_IMPORTED", "MXNET_IMPORTED_NOT_ONNX"]

# python/mxnet/onnx/mx2onnx/_op_translations/_op_translations_opset12.py (the
# opset 13 module re-registers the same names), less "null" (graph inputs).
MXNET_EXPORTED = frozenset([
    "Activation", "BatchNorm", "BlockGrad", "Cast", "Concat", "Convolution", "Crop", "Deconvolution",
    "Dropout", "Embedding", "Flatten", "FullyConnected", "InstanceNorm", "L2Normalization", "LRN",
    "LayerNorm", "LeakyReLU", "LogisticRegressionOutput", "MakeLoss", "Pad", "Pooling", "RNN", "ROIPooling",
    "Reshape", "SequenceMask", "SequenceReverse", "SliceChannel", "SoftmaxOutput", "SwapAxis", "UpSampling",
    "_arange", "_contrib_AdaptiveAvgPooling2D", "_contrib_BilinearResize2D", "_contrib_ROIAlign",
    "_contrib_arange_like", "_contrib_box_decode", "_contrib_box_nms", "_contrib_div_sqrt_dim",
    "_contrib_interleaved_matmul_selfatt_qk", "_contrib_interleaved_matmul_selfatt_valatt", "_copy",
    "_div_scalar", "_equal_scalar", "_greater_scalar", "_lesser_scalar", "_linalg_gemm2", "_maximum",
    "_maximum_scalar", "_minimum", "_minimum_scalar", "_minus_scalar", "_mul_scalar", "_ones", "_plus_scalar",
    "_power", "_power_scalar", "_random_normal", "_random_uniform", "_random_uniform_like", "_rdiv_scalar",
    "_rminus_scalar", "_rnn_param_concat", "_sample_multinomial", "_zeros", "abs", "add_n", "arccos",
    "arcsin", "arctan", "argmax", "argmin", "argsort", "batch_dot", "broadcast_add", "broadcast_axis",
    "broadcast_div", "broadcast_equal", "broadcast_greater", "broadcast_greater_equal", "broadcast_lesser",
    "broadcast_lesser_equal", "broadcast_like", "broadcast_logical_and", "broadcast_logical_or",
    "broadcast_logical_xor", "broadcast_minimum", "broadcast_mod", "broadcast_mul", "broadcast_power",
    "broadcast_sub", "broadcast_to", "ceil", "clip", "cos", "depth_to_space", "dot", "elemwise_add",
    "elemwise_div", "elemwise_mul", "elemwise_sub", "exp", "expand_dims", "floor", "gather_nd",
    "hard_sigmoid", "identity", "log", "log2", "log_softmax", "logical_not", "max", "mean", "min", "negative",
    "norm", "one_hot", "ones_like", "prod", "reciprocal", "relu", "repeat", "reshape_like", "reverse",
    "shape_array", "sigmoid", "sin", "size_array", "slice", "slice_axis", "slice_like", "softmax",
    "space_to_depth", "sqrt", "square", "squeeze", "stack", "sum", "take", "tan", "tanh", "tile", "topk",
    "transpose", "where", "zeros_like",
])

# python/mxnet/contrib/onnx/onnx2mx/_import_helper.py: _convert_map.
MXNET_IMPORTED = frozenset([
    "Abs", "Acos", "Add", "And", "ArgMax", "ArgMin", "Asin", "Atan", "AveragePool", "BatchNormalization",
    "Cast", "Ceil", "Clip", "Concat", "Constant", "Conv", "ConvTranspose", "Cos", "DepthToSpace", "Div",
    "Dropout", "Elu", "Equal", "Exp", "FC", "Flatten", "Floor", "Gather", "Gemm", "GlobalAveragePool",
    "GlobalLpPool", "GlobalMaxPool", "Greater", "HardSigmoid", "Identity", "InstanceNormalization", "LRN",
    "LeakyRelu", "Less", "Log", "LogSoftmax", "LpPool", "MatMul", "Max", "MaxPool", "MaxRoiPool", "Mean",
    "Min", "Mul", "Neg", "Not", "Or", "PRelu", "Pad", "Pow", "RandomNormal", "RandomNormalLike",
    "RandomUniform", "RandomUniformLike", "Reciprocal", "ReduceL1", "ReduceL2", "ReduceLogSum",
    "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare",
    "Relu", "Reshape", "Selu", "Shape", "Sigmoid", "Sin", "Size", "Slice", "Softmax", "Softplus", "Softsign",
    "SpaceToDepth", "SpatialBN", "Split", "Sqrt", "Squeeze", "Sub", "Sum", "Tan", "Tanh", "Transpose",
    "Unsqueeze", "Xor",
])

# Caffe2 operators in that map that ONNX never defined: onnx.checker rejects a
# model that uses them, so no ONNX file can hold them.
MXNET_IMPORTED_NOT_ONNX = frozenset(["FC", "SpatialBN"])
