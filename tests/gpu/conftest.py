"""GPU tests. They need gpu(0): a CUDA device in a CUDA build, or -- in a build
without CUDA -- the host emulation of the GPU path (WEFT_GPU_EMULATE=N, Note
[Two GPU backends] in core/gpu/device_api.h), which scripts/test.sh sets for
this folder. Without either every test here skips, saying so.

The operator cases are the registry harness's (tests/python/op_cases)."""
import importlib.util
import os
import sys

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
_BINDING = os.path.normpath(os.path.join(_HERE, os.pardir, os.pardir, "bindings", "python"))
if importlib.util.find_spec("weft") is None:
    sys.path.insert(0, _BINDING)
sys.path.insert(0, os.path.normpath(os.path.join(_HERE, os.pardir, "python")))  # op_cases

import weft  # noqa: E402

NUM_GPUS = weft.num_gpus()
NO_GPU_REASON = ("no GPU: this is a %s build and it reports 0 devices (CUDA builds need a device; "
                 "builds without CUDA need WEFT_GPU_EMULATE=N)" % weft.context.gpu_backend())


def pytest_collection_modifyitems(config, items):
    if NUM_GPUS > 0:
        return
    skip = pytest.mark.skip(reason=NO_GPU_REASON)
    for item in items:
        item.add_marker(skip)
