"""reset_arrays (MXNet 1.x): no outputs, its num_arrays inputs zeroed in place,
ordered by the engine after earlier reads and before later ones; bad input
refused at the call naming the op and the argument."""
import numpy as np
import pytest

import weft
from weft import nd


def test_zeroes_every_input_in_place_and_returns_nothing():
    a = nd.array(np.arange(6, dtype=np.float32).reshape(2, 3) + 1)
    b = nd.array(np.array([3, -4], dtype=np.int64), dtype=np.int64)
    assert nd.reset_arrays(a, b, num_arrays=2) == []
    np.testing.assert_array_equal(a.asnumpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(b.asnumpy(), np.zeros(2, np.int64))
    assert b.dtype == np.int64


def test_engine_orders_reads_around_the_reset():
    x = nd.array(np.full((64, 64), 2.0, np.float32))
    before = x * 3  # pushed before the reset: must read the old values
    nd.reset_arrays(x, num_arrays=1)
    after = x + 1  # pushed after: must read zeros
    np.testing.assert_array_equal(before.asnumpy(), np.full((64, 64), 6.0, np.float32))
    np.testing.assert_array_equal(after.asnumpy(), np.ones((64, 64), np.float32))


def test_a_view_resets_only_its_rows():
    x = nd.array(np.ones((4, 3), np.float32))
    nd.reset_arrays(x[1:3], num_arrays=1)
    np.testing.assert_array_equal(x.asnumpy(), np.array([[1] * 3, [0] * 3, [0] * 3, [1] * 3], np.float32))


def test_bad_input_is_refused_at_the_call():
    a = nd.ones((2,))
    with pytest.raises(weft.WeftError, match=r"reset_arrays.*expected 2 input"):
        nd.reset_arrays(a, num_arrays=2)
    with pytest.raises(weft.WeftError, match=r"reset_arrays.*num_arrays.*at least 1"):
        nd.reset_arrays(num_arrays=0)
    with pytest.raises((weft.WeftError, TypeError), match="reset_arrays"):
        nd.reset_arrays(np.ones(2), num_arrays=1)
    np.testing.assert_array_equal(a.asnumpy(), np.ones(2, np.float32))  # untouched by the refused calls


def test_num_arrays_defaults_to_the_count_given():
    # As MXNet's generated wrappers do for the op's variadic count parameter.
    a, b = nd.ones((2,)), nd.ones((3,))
    nd.reset_arrays(a, b)
    assert a.asnumpy().sum() == 0 and b.asnumpy().sum() == 0
