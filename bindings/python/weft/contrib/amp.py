"""mx.contrib.amp: not available yet (Note [Low precision is a later issue] in quantization.py)."""

__all__ = ["init", "init_trainer", "scale_loss", "unscale", "convert_model", "convert_hybrid_block",
           "convert_symbol", "convert_bucketing_module", "list_lp16_ops", "list_fp32_ops",
           "list_lp16_fp32_ops", "list_conditional_fp32_ops", "list_widest_type_cast", "list_loss_output_functions",
           "list_lp16_use_fp32_params"]


def _not_yet(name):
    def fail(*args, **kwargs):
        raise NotImplementedError("mx.contrib.amp.%s: automatic mixed precision (float16/bfloat16) is not "
                                  "available in Weft yet (low-precision support is a later issue)" % name)
    fail.__name__ = fail.__qualname__ = name
    fail.__doc__ = "Not available yet: raises NotImplementedError (Note [Low precision is a later issue])."
    return fail


init = _not_yet("init")
init_trainer = _not_yet("init_trainer")
scale_loss = _not_yet("scale_loss")
unscale = _not_yet("unscale")
convert_model = _not_yet("convert_model")
convert_hybrid_block = _not_yet("convert_hybrid_block")
convert_symbol = _not_yet("convert_symbol")
convert_bucketing_module = _not_yet("convert_bucketing_module")
list_lp16_ops = _not_yet("list_lp16_ops")
list_fp32_ops = _not_yet("list_fp32_ops")
list_lp16_fp32_ops = _not_yet("list_lp16_fp32_ops")
list_conditional_fp32_ops = _not_yet("list_conditional_fp32_ops")
list_widest_type_cast = _not_yet("list_widest_type_cast")
list_loss_output_functions = _not_yet("list_loss_output_functions")
list_lp16_use_fp32_params = _not_yet("list_lp16_use_fp32_params")
