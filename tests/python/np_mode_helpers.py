"""What the NumPy-mode symbol tests share: a fixture that turns NumPy mode on
for one test (and off after it, so the legacy tests that follow see the legacy
mode), and a HybridBlock that runs one F.np / F.npx function, so that
hybridize() traces exactly that function."""
import pytest

from weft import gluon, npx


@pytest.fixture
def np_mode():
    npx.set_np()
    yield
    npx.reset_np()


class HybridFn(gluon.HybridBlock):
    """fn(F, *inputs) as a HybridBlock."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def hybrid_forward(self, F, *xs):  # pylint: disable=arguments-differ
        return self.fn(F, *xs)
