"""python -m weft.tools.onnx: ONNX export from the command line (issue 40 point 4).

    python -m weft.tools.onnx export NAME-symbol.json NAME-0000.params \\
        --shape 1,3,224,224 -o model.onnx [--dtype float32] [--opset 13] \\
        [--dynamic-batch] [--large-model]

    python -m weft.tools.onnx import model.onnx -o NAME

export: one --shape (and optionally one --dtype) per data input, in the
symbol's order; --dynamic-batch makes the first dimension of every input
dynamic. import: writes NAME-symbol.json and NAME-0000.params (arg:/aux:
prefixed), the MXNet-format files weft-serve and SymbolBlock.imports load.
"""
import argparse
import sys

import numpy as np

from .. import ndarray as nd
from .. import onnx as weft_onnx

__all__ = ["parse_shape", "main"]


def parse_shape(text):
    """'1,3,224,224' -> (1, 3, 224, 224)."""
    try:
        dims = tuple(int(d) for d in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("shape %r is not comma-separated integers" % text) from None
    if not dims or any(d < 0 for d in dims):
        raise argparse.ArgumentTypeError("shape %r must be non-negative integers" % text)
    return dims


def _parser():
    parser = argparse.ArgumentParser(prog="python -m weft.tools.onnx",
                                     description="Convert Weft/MXNet models to ONNX.")
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("export", help="NAME-symbol.json + NAME-0000.params -> model.onnx")
    ex.add_argument("symbol", help="the NAME-symbol.json file")
    ex.add_argument("params", help="the NAME-0000.params file")
    ex.add_argument("--shape", type=parse_shape, action="append", required=True,
                    help="an input shape, e.g. 1,3,224,224 (once per data input)")
    ex.add_argument("--dtype", action="append", default=None,
                    help="an input dtype (default float32; once, or once per input)")
    ex.add_argument("-o", "--output", default="model.onnx", help="the ONNX file to write")
    ex.add_argument("--opset", type=int, default=None, help="ONNX opset (default 13)")
    ex.add_argument("--dynamic-batch", action="store_true",
                    help="make the first dimension of every input dynamic")
    ex.add_argument("--large-model", action="store_true",
                    help="store tensors as external data beside the file (over 2 GB)")
    ex.add_argument("--verbose", action="store_true", help="log the ONNX graph")
    im = sub.add_parser("import", help="model.onnx -> NAME-symbol.json + NAME-0000.params")
    im.add_argument("model", help="the ONNX file")
    im.add_argument("-o", "--output", required=True, help="NAME: the prefix of the files written")
    return parser


def _import(args):
    sym, arg, aux = weft_onnx.import_model(args.model)
    sym.save(args.output + "-symbol.json")
    params = {"arg:" + k: v for k, v in arg.items()}
    params.update({"aux:" + k: v for k, v in aux.items()})
    nd.save(args.output + "-0000.params", params)
    return args.output + "-symbol.json"


def main(argv=None):
    args = _parser().parse_args(argv)
    if args.command == "import":
        try:
            print(_import(args))
        except (ValueError, TypeError, NotImplementedError, ImportError) as err:
            print("weft.tools.onnx: %s" % err, file=sys.stderr)
            return 1
        return 0
    dtypes = args.dtype or ["float32"]
    if len(dtypes) == 1:
        dtypes = dtypes * len(args.shape)
    try:
        in_types = [np.dtype(t) for t in dtypes]
        dynamic_shapes = [(None,) + s[1:] for s in args.shape] if args.dynamic_batch else None
        path = weft_onnx.export_model(args.symbol, args.params, args.shape, in_types, args.output,
                                      verbose=args.verbose, dynamic=args.dynamic_batch,
                                      dynamic_input_shapes=dynamic_shapes,
                                      large_model=args.large_model, opset_version=args.opset)
    except (ValueError, TypeError, NotImplementedError, ImportError) as err:
        print("weft.tools.onnx: %s" % err, file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
