"""The device generator survives a random op that fails in its kernel (Note
[Engine semantics]: the generator's var is KeepValidOnFailure). Before, the
failure was stored on the generator's engine var and every later draw on that
device failed with the same error."""
import numpy as np
import pytest

import weft

GPU = weft.gpu(0)


def test_a_failing_random_kernel_leaves_later_draws_working():
    # The GPU samplers take float, int32 and int64 parameters; uint8 fails in the kernel.
    low = weft.nd.zeros((4,), dtype="uint8", ctx=GPU)
    high = weft.nd.ones((4,), dtype="uint8", ctx=GPU)
    with pytest.raises(weft.base.WeftError, match="uint8"):
        weft.nd._sample_uniform(low, high, shape=(2,)).wait_to_read()
    weft.random.seed(3)
    a = weft.nd.random.uniform(shape=(1000,), ctx=GPU).asnumpy()
    weft.random.seed(3)
    b = weft.nd.random.uniform(shape=(1000,), ctx=GPU).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert 0.4 < a.mean() < 0.6
