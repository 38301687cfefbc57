"""weft.onnx's operator coverage per ONNX opset against MXNet 1.9.1's (issue 40's
closing numbers): MXNet operators exported, ONNX operators imported.

    python3 benchmarks/onnx_coverage.py

MXNet 1.9.1 exports at opsets 12 and 13 only; its importer reads any opset,
so its ONNX operators are counted at each opset where ONNX defines them (as
are Weft's)."""
import onnx

import weft as mx
from weft.onnx.mxnet_lists import MXNET_EXPORTED, MXNET_IMPORTED, MXNET_IMPORTED_NOT_ONNX


def _defined(op, opset):
    try:
        onnx.defs.get_schema(op, opset)
        return True
    except onnx.defs.SchemaError:
        return False


def main():
    newest = onnx.defs.onnx_opset_version()
    print("Export: MXNet operators with a translation (MXNet 1.9.1: %d names at opsets 12-13)" % len(MXNET_EXPORTED))
    print("%6s %6s %16s %8s" % ("opset", "weft", "of MXNet's list", "MXNet"))
    for opset in range(12, newest + 1):
        ours = set(mx.onnx.get_operator_support(opset))
        theirs = len(MXNET_EXPORTED) if opset in (12, 13) else 0
        print("%6d %6d %12d/%d %8d" % (opset, len(ours), len(ours & MXNET_EXPORTED), len(MXNET_EXPORTED), theirs))
    missing = sorted(MXNET_EXPORTED - set(mx.onnx.get_operator_support(13)))
    print("MXNet's exported names weft lacks at opset 13: %s" % (missing or "none"))

    ours_all = set(mx.onnx.get_import_support())
    onnx_mx = MXNET_IMPORTED - MXNET_IMPORTED_NOT_ONNX
    print()
    print("Import: ONNX operators translated (MXNet 1.9.1's map: %d names, %d of them ONNX operators)"
          % (len(MXNET_IMPORTED), len(onnx_mx)))
    print("%6s %6s %16s %8s" % ("opset", "weft", "of MXNet's list", "MXNet"))
    for opset in range(7, newest + 1):
        ours = {op for op in ours_all if _defined(op, opset)}
        theirs = {op for op in onnx_mx if _defined(op, opset)}
        print("%6d %6d %12d/%d %8d" % (opset, len(ours), len(ours & theirs), len(theirs), len(theirs)))
    print("MXNet's imported ONNX operators weft lacks: %s" % (sorted(onnx_mx - ours_all) or "none"))
    print("weft imports beyond MXNet's map: %d (%s)" % (len(ours_all - onnx_mx), " ".join(sorted(ours_all - onnx_mx))))


if __name__ == "__main__":
    main()
