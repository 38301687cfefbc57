"""mx.contrib.quantization: not available yet.

Note [Low precision is a later issue]
    MXNet's INT8 quantization (quantize_model, quantize_net, calibration) and AMP
    (float16 / bfloat16 mixed precision) need quantized operators and low-precision
    kernels that Weft does not have. Issue 41 allows these two modules to say so: each
    public function of MXNet 1.9.1's module exists and raises NotImplementedError naming
    the feature, so scripts fail at the call with a clear message rather than with an
    AttributeError. Low-precision support is a later issue.
"""

__all__ = ["quantize_model", "quantize_model_mkldnn", "quantize_graph", "quantize_net", "quantize_net_v2",
           "calib_graph", "CalibrationCollector", "LayerOutputCollector", "LayerOutputMinMaxCollector",
           "LayerHistogramCollector", "combine_histogram"]


def _not_yet(name):
    def fail(*args, **kwargs):
        raise NotImplementedError("mx.contrib.quantization.%s: INT8 quantization is not available in Weft yet "
                                  "(low-precision support is a later issue)" % name)
    fail.__name__ = fail.__qualname__ = name
    fail.__doc__ = "Not available yet: raises NotImplementedError (Note [Low precision is a later issue])."
    return fail


quantize_model = _not_yet("quantize_model")
quantize_model_mkldnn = _not_yet("quantize_model_mkldnn")
quantize_graph = _not_yet("quantize_graph")
quantize_net = _not_yet("quantize_net")
quantize_net_v2 = _not_yet("quantize_net_v2")
calib_graph = _not_yet("calib_graph")
CalibrationCollector = _not_yet("CalibrationCollector")
LayerOutputCollector = _not_yet("LayerOutputCollector")
LayerOutputMinMaxCollector = _not_yet("LayerOutputMinMaxCollector")
LayerHistogramCollector = _not_yet("LayerHistogramCollector")
combine_histogram = _not_yet("combine_histogram")
