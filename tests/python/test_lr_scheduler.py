"""weft.lr_scheduler against MXNet 1.x's formulas."""
import math

import pytest

from weft import lr_scheduler as lrs


def test_factor_scheduler():
    s = lrs.FactorScheduler(step=3, factor=0.5, base_lr=1.0)
    for n in range(1, 13):
        assert s(n) == pytest.approx(0.5 ** ((n - 1) // 3)), n


def test_factor_scheduler_stop_factor_lr_and_jumps():
    s = lrs.FactorScheduler(step=1, factor=0.1, stop_factor_lr=1e-3, base_lr=1.0)
    assert s(1) == 1.0
    assert s(3) == pytest.approx(0.01)  # jumps over a step at once
    assert s(10) == 1e-3 and s(100) == 1e-3


def test_factor_scheduler_warmup():
    s = lrs.FactorScheduler(step=5, factor=0.5, base_lr=1.0, warmup_steps=4, warmup_begin_lr=0.2)
    assert [s(n) for n in range(4)] == pytest.approx([0.2, 0.4, 0.6, 0.8])
    assert s(4) == 1.0 and s(5) == 1.0 and s(6) == 0.5


def test_constant_warmup():
    s = lrs.MultiFactorScheduler(step=[10], base_lr=1.0, warmup_steps=3, warmup_begin_lr=0.1,
                                 warmup_mode="constant")
    assert [s(n) for n in range(3)] == [0.1, 0.1, 0.1]
    assert s(3) == 1.0


def test_multifactor_scheduler():
    s = lrs.MultiFactorScheduler(step=[2, 5, 8], factor=0.1, base_lr=1.0)
    expect = {1: 1.0, 2: 1.0, 3: 0.1, 5: 0.1, 6: 0.01, 8: 0.01, 9: 0.001, 50: 0.001}
    for n, lr in expect.items():
        assert s(n) == pytest.approx(lr), n
    assert s.cur_step_ind == 3 and s.count == 8


@pytest.mark.parametrize("warmup", [0, 5])
def test_poly_scheduler(warmup):
    base, final, pwr, max_update = 2.0, 0.1, 3, 25
    s = lrs.PolyScheduler(max_update=max_update, base_lr=base, pwr=pwr, final_lr=final, warmup_steps=warmup)
    for n in range(warmup, 40):  # one call per update, as an optimizer makes them
        m = min(n, max_update)
        want = final + (base - final) * (1 - (m - warmup) / (max_update - warmup)) ** pwr
        assert s(n) == pytest.approx(want), n
    if warmup:
        assert s.get_warmup_lr(2) == pytest.approx(2 * base / warmup)


@pytest.mark.parametrize("warmup", [0, 4])
def test_cosine_scheduler(warmup):
    base, final, max_update = 1.0, 0.05, 20
    s = lrs.CosineScheduler(max_update=max_update, base_lr=base, final_lr=final, warmup_steps=warmup,
                            warmup_begin_lr=0.01)
    if warmup:
        assert s(0) == pytest.approx(0.01) and s(2) == pytest.approx(0.01 + (base - 0.01) * 2 / warmup)
    for n in range(warmup, 30):
        m = min(n, max_update)
        want = final + (base - final) * (1 + math.cos(math.pi * (m - warmup) / (max_update - warmup))) / 2
        assert s(n) == pytest.approx(want), n
    assert s(max_update) == pytest.approx(final)


def test_poly_after_max_update_keeps_last_rate():
    # MXNet's rule: past max_update the rate is the last one computed.
    s = lrs.PolyScheduler(max_update=10, base_lr=1.0, pwr=1)
    assert s(9) == pytest.approx(0.1)
    assert s(50) == pytest.approx(0.1)


def test_bad_arguments():
    with pytest.raises(ValueError):
        lrs.FactorScheduler(step=0)
    with pytest.raises(ValueError):
        lrs.FactorScheduler(step=2, factor=1.5)
    with pytest.raises(ValueError):
        lrs.MultiFactorScheduler(step=[3, 2])
    with pytest.raises(ValueError):
        lrs.PolyScheduler(max_update=0)
    with pytest.raises(ValueError):
        lrs.CosineScheduler(max_update=10, base_lr=0.1, warmup_begin_lr=0.5, warmup_steps=2)
    with pytest.raises(ValueError):
        lrs.FactorScheduler(step=2, warmup_mode="cubic")
    with pytest.raises(NotImplementedError):
        lrs.LRScheduler()(1)
