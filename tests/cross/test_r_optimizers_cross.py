"""R <-> Python: every optimizer and learning-rate schedule of the R package
gives the Python binding's numbers (three updates of one weight with wd,
rescale_grad and clip_gradient set; schedules at updates 1..20). Runs the R leg
with the package from $WEFT_R_LIBS (scripts/test_r.sh) or installed as
tests/cross/test_r_cross.py does; skips, with the reason, without Rscript."""
import os
import subprocess
import sys

import numpy as np
import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
from test_r_cross import _r_env, r_libs  # noqa: E402,F401  (the fixture installing the R package)

import weft as mx  # noqa: E402
from weft import lr_scheduler  # noqa: E402

W0 = [0.5, -1, 2, 0.1]
GRADS = [[0.2, -0.4, 1, 0.05], [-0.1, 0.3, 0.5, -0.2], [0.4, 0.1, -0.6, 0.3]]
COMMON = dict(wd=0.01, rescale_grad=0.5, clip_gradient=0.3)
PYTHON_OPTIMIZERS = {
    "sgd": ("sgd", dict(learning_rate=0.1, momentum=0.9, **COMMON)),
    "nag": ("nag", dict(learning_rate=0.1, momentum=0.9, **COMMON)),
    "signum": ("signum", dict(learning_rate=0.1, momentum=0.9, wd_lh=0.01, wd=0.01, rescale_grad=0.5)),
    "adam": ("adam", dict(learning_rate=0.1, **COMMON)),
    "adamw": ("adamw", dict(learning_rate=0.1, **COMMON)),
    "rmsprop": ("rmsprop", dict(learning_rate=0.1, centered=False, gamma1=0.9, epsilon=1e-8, **COMMON)),
    "rmsprop_centered": ("rmsprop", dict(learning_rate=0.1, centered=True, gamma1=0.95, gamma2=0.9, epsilon=1e-4,
                                         **COMMON)),
    "adagrad": ("adagrad", dict(learning_rate=0.1, eps=1e-7, **COMMON)),
    "adadelta": ("adadelta", dict(rho=0.9, epsilon=1e-5, **COMMON)),
    "ftrl": ("ftrl", dict(learning_rate=0.1, lamda1=0.01, beta=1, **COMMON)),
    "sgd_factor": ("sgd", dict(learning_rate=0.1, lr_scheduler=lr_scheduler.FactorScheduler(step=1, factor=0.5,
                                                                                             base_lr=0.1))),
}


@pytest.fixture(scope="module")
def r_values(r_libs):
    proc = subprocess.run(["Rscript", "--vanilla", os.path.join(_HERE, "r", "optimizer_steps.R")],
                          env=_r_env(r_libs), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    rows = [line.split() for line in proc.stdout.splitlines() if line.strip()]
    return {row[0]: np.array([float(v) for v in row[1:]]) for row in rows}


def _python_steps(name, kwargs):
    opt = mx.optimizer.create(name, **kwargs)
    updater = mx.optimizer.get_updater(opt)
    weight = mx.nd.array(W0)
    for g in GRADS:
        updater(0, mx.nd.array(g), weight)
    return weight.asnumpy()


@pytest.mark.parametrize("key", sorted(PYTHON_OPTIMIZERS))
def test_r_optimizer_matches_python(r_values, key):
    name, kwargs = PYTHON_OPTIMIZERS[key]
    np.testing.assert_allclose(r_values[key], _python_steps(name, kwargs), rtol=1e-5, atol=1e-6)


def test_r_lr_schedules_match_python(r_values):
    schedules = {
        "factor": lr_scheduler.FactorScheduler(step=3, factor=0.7, stop_factor_lr=0.02, base_lr=0.1),
        "multifactor": lr_scheduler.MultiFactorScheduler(step=[4, 9, 15], factor=0.5, base_lr=0.1),
        "poly": lr_scheduler.PolyScheduler(max_update=15, base_lr=0.1, pwr=2, final_lr=0.001, warmup_steps=3,
                                           warmup_begin_lr=0.01),
        "cosine": lr_scheduler.CosineScheduler(max_update=15, base_lr=0.1, final_lr=0.001, warmup_steps=3,
                                               warmup_mode="constant", warmup_begin_lr=0.02),
    }
    for key, sched in schedules.items():
        expected = [sched(n) for n in range(1, 21)]
        np.testing.assert_allclose(r_values[key], expected, rtol=1e-7, err_msg=key)
