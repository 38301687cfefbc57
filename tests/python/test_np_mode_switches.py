"""NumPy mode's switches (issue 37): npx.set_np/reset_np/is_np_array/is_np_shape,
mx.util's scopes and decorators, mx.np_shape/mx.use_np_shape at top level,
mx.test_utils.use_np, per-thread state and the default float dtype."""
import threading

import numpy as np
import pytest

import weft as mx
from weft import npx


@pytest.fixture(autouse=True)
def _off():
    mx.npx.reset_np()
    yield
    mx.npx.reset_np()


def test_default_is_off():
    assert npx.is_np_array() is False and npx.is_np_shape() is False
    assert mx.util.is_np_default_dtype() is False
    assert npx._default_float_dtype() is np.float32


def test_set_np_and_reset():
    npx.set_np()
    assert npx.is_np_array() and npx.is_np_shape() and mx.util.is_np_array() and mx.is_np_shape()
    assert npx._default_float_dtype() is np.float32  # dtype=False by default, as in MXNet
    npx.set_np(dtype=True)
    assert npx._default_float_dtype() is np.float64 and mx.util.is_np_default_dtype()
    npx.set_np(shape=True, array=False)
    assert npx.is_np_shape() and not npx.is_np_array()
    npx.reset_np()
    assert not npx.is_np_array() and not npx.is_np_shape() and not mx.util.is_np_default_dtype()


def test_set_np_rejects_array_without_shape():
    with pytest.raises(ValueError, match="set_np"):
        npx.set_np(shape=False, array=True)
    assert not npx.is_np_array()  # nothing changed
    with pytest.raises(TypeError, match="set_np: dtype"):
        npx.set_np(dtype="yes")
    npx.set_np()
    with pytest.raises(ValueError, match="set_np_shape"):
        mx.set_np_shape(False)


def test_set_np_shape_returns_previous():
    assert mx.set_np_shape(True) is False
    assert mx.set_np_shape(True) is True
    assert mx.set_np_shape(False) is True
    assert mx.util.set_np_default_dtype(True) is False
    assert mx.util.set_np_default_dtype(False) is True


def test_scopes_nest_and_restore():
    with mx.np_shape():
        assert mx.is_np_shape()
        with mx.np_shape(False):
            assert not mx.is_np_shape()
        assert mx.is_np_shape()
    assert not mx.is_np_shape()
    with mx.util.np_array(True):
        assert mx.is_np_array()
    assert not mx.is_np_array()
    with mx.util._NumpyArrayScope(True):  # MXNet's legacy tests use the class directly
        assert mx.util.is_np_array()
    with mx.util.np_default_dtype():
        assert npx._default_float_dtype() is np.float64
    assert npx._default_float_dtype() is np.float32
    with pytest.raises(RuntimeError):
        with mx.np_shape():
            raise RuntimeError("boom")
    assert not mx.is_np_shape()  # restored on the way out of an exception


def test_use_np_on_functions():
    @mx.use_np_shape
    def f(a, b=1):
        """doc of f"""
        return mx.is_np_shape(), mx.is_np_array(), a + b

    assert f(1, b=2) == (True, False, 3) and f.__name__ == "f" and f.__doc__ == "doc of f"
    assert not mx.is_np_shape()

    @mx.test_utils.use_np
    def g():
        return mx.is_np_shape(), mx.is_np_array()

    assert g() == (True, True) and mx.use_np is mx.util.use_np is mx.test_utils.use_np
    with pytest.raises(TypeError, match="use_np_shape"):
        mx.use_np_shape(3)


def test_use_np_on_classes():
    @mx.util.use_np
    class Block:
        def __init__(self):
            self.seen = mx.is_np_array()

        def forward(self):
            return mx.is_np_array(), mx.is_np_shape()

        @property
        def prop(self):
            return mx.is_np_array()

        @staticmethod
        def stat():
            return mx.is_np_shape()

        @classmethod
        def klass(cls):
            return cls.__name__, mx.is_np_array()

    b = Block()
    assert b.seen and b.forward() == (True, True) and b.prop is True
    assert Block.stat() is True and Block.klass() == ("Block", True) and b.stat() is True
    assert not mx.is_np_array()  # only inside the methods


def test_state_is_per_thread():
    npx.set_np(dtype=True)
    seen = {}

    def worker():
        seen["start"] = (npx.is_np_array(), npx.is_np_shape(), npx._default_float_dtype())
        npx.set_np()
        seen["set"] = npx.is_np_array()
        npx.reset_np()

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == {"start": (False, False, np.float32), "set": True}
    assert npx.is_np_array() and npx._default_float_dtype() is np.float64  # the worker's reset stayed there


def test_array_scope_state_where_mxnet_keeps_it():
    # Code written for MXNet reads the thread's current scope object directly.
    assert not hasattr(mx.util._NumpyArrayScope._current, "value") or \
        mx.util._NumpyArrayScope._current.value._is_np_array is False
    npx.set_np()
    assert mx.util._NumpyArrayScope._current.value._is_np_array is True
    scope = mx.util._NumpyArrayScope(False)
    with scope:
        assert mx.util._NumpyArrayScope._current.value is scope and not npx.is_np_array()
    assert npx.is_np_array()


def test_use_np_wraps_inherited_methods():
    class Base:
        def __call__(self):
            return self.forward()

        def forward(self):
            return mx.is_np_array()

        def plain(self):
            return mx.is_np_shape()

    @mx.use_np
    class Net(Base):
        pass

    assert Net()() is True and Net().plain() is True  # inherited methods run in the scope, as MXNet
    assert Base()() is False  # the base class itself is untouched
