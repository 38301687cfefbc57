"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder:
npx.save of the arrays arrays() makes, as a dict (np_dict.params) and as a list
(np_list.params). MXNet writes every record as V3 in this mode (NDArray::Save). Not run by
the tests (MXNet is never a test dependency): tests/python/test_np_save_v3.py makes the same
arrays with Weft and compares the bytes it writes."""
import numpy as onp


def arrays():
    """The arrays, as plain NumPy (both libraries wrap them with np.array)."""
    return {
        "f32": onp.arange(12, dtype="float32").reshape(3, 4) / 8,
        "f64": onp.linspace(-1, 1, 5, dtype="float64"),
        "f16": onp.array([[0.5, -2.0], [3.25, 1e-3]], dtype="float16"),
        "u8": onp.arange(7, dtype="uint8"),
        "i8": onp.array([-3, 0, 4], dtype="int8"),
        "i32": onp.arange(24, dtype="int32").reshape(2, 3, 4) - 7,
        "i64": onp.array([2 ** 40, -5], dtype="int64"),
        "bool": onp.array([True, False, True]),
        "scalar": onp.array(3.5, dtype="float32"),
        "empty": onp.zeros((0, 2), dtype="float32"),
    }


if __name__ == "__main__":
    from mxnet import np, npx
    npx.set_np()
    data = {k: np.array(v, dtype=v.dtype) for k, v in arrays().items()}
    npx.save("np_dict.params", data)
    npx.save("np_list.params", list(data.values()))
