"""The C ABI is append-only (docs/STYLE.md): the library exports exactly the
functions the header declares, and capi/abi_symbols.txt (the released list)
is a prefix of the header's order, so nothing is removed or reordered."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "capi" / "include" / "weft" / "c_api.h"
PREDICT_HEADER = ROOT / "capi" / "include" / "weft" / "c_predict_api.h"


def header_functions(header=HEADER):
    text = header.read_text()
    names = []
    for m in re.finditer(r"WEFT_API\s+[^;]*?\b(weft_[a-z0-9_]+)\s*\(", text):
        if m.group(1) not in names:
            names.append(m.group(1))
    return names


def test_released_symbols_are_a_prefix_of_the_header():
    released = (ROOT / "capi" / "abi_symbols.txt").read_text().split()
    declared = header_functions()
    assert declared[: len(released)] == released, "C ABI functions were removed or reordered"


@pytest.mark.skipif(shutil.which("nm") is None, reason="binutils nm is not installed")
def test_library_exports_exactly_the_header_functions():
    import weft.base as base

    out = subprocess.run(["nm", "-D", "--defined-only", str(base.LIB_PATH)],
                         capture_output=True, text=True, check=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.split()[-2:-1] == ["T"]}
    assert exported == set(header_functions()) | set(header_functions(PREDICT_HEADER))
