"""The ASan suppressions of the Python tests on the ASan build stay narrow (issue 35):
scripts/asan_openmpi.supp silences Open MPI's own use-after-free in mpirun by the one
function that makes it (Note [Open MPI's own use-after-free] there), and nothing else.

Two stand-ins, compiled here without instrumentation as Debian's Open MPI is, copy from a
freed block through memcpy (where ASan's interceptor sees it): one named as the Open MPI
function, one not. Under the preloaded ASan runtime with the file, the first runs on and the
second is still reported; without the file both are (so the stand-ins do reach ASan).
"""
import os
import shutil
import subprocess

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
SUPPRESSIONS = os.path.join(ROOT, "scripts", "asan_openmpi.supp")
CLANG = shutil.which("clang-14")
CC = shutil.which("gcc") or shutil.which("cc")

LIB = r"""
#include <stdlib.h>
#include <string.h>
#define USE_AFTER_FREE(name) \
  __attribute__((noinline)) int name(char *dst) { \
    volatile size_t n = 32; /* a runtime size: a call to memcpy, not inlined moves */ \
    char *p = malloc(64); memset(p, 1, 64); free(p); memcpy(dst, p, n); return dst[0]; }
USE_AFTER_FREE(orte_rml_oob_send_buffer_nb)
USE_AFTER_FREE(weft_like_copy)
"""

MAIN = r"""
#include <stdio.h>
#include <string.h>
int orte_rml_oob_send_buffer_nb(char *dst);
int weft_like_copy(char *dst);
int main(int argc, char **argv) {
  char b[64];
  int r = strcmp(argv[1], "openmpi") == 0 ? orte_rml_oob_send_buffer_nb(b) : weft_like_copy(b);
  printf("ran on %d\n", r);
  return 0;
}
"""


@pytest.fixture(scope="module")
def stand_in(tmp_path_factory):
    if CLANG is None or CC is None:
        pytest.skip("clang-14 (its ASan runtime) and a C compiler are needed; scripts/setup.sh installs both")
    runtime = subprocess.run([CLANG, "-print-file-name=libclang_rt.asan-x86_64.so"], check=True,
                             capture_output=True, text=True).stdout.strip()
    if not os.path.isfile(runtime):
        pytest.skip("clang-14's ASan runtime is not installed (%s); scripts/setup.sh installs it" % runtime)
    d = tmp_path_factory.mktemp("supp")
    (d / "lib.c").write_text(LIB)
    (d / "main.c").write_text(MAIN)
    flags = ["-O1", "-fno-omit-frame-pointer"]
    subprocess.run([CC] + flags + ["-fPIC", "-shared", "-o", str(d / "libstandin.so"), str(d / "lib.c")], check=True)
    subprocess.run([CC] + flags + ["-o", str(d / "main"), str(d / "main.c"), "-L" + str(d), "-lstandin",
                                   "-Wl,-rpath," + str(d)], check=True)
    return str(d / "main"), runtime


def _run(stand_in, who, suppress):
    exe, runtime = stand_in
    options = "detect_leaks=0:symbolize=1"
    if suppress:
        options += ":suppressions=" + SUPPRESSIONS
    # The stand-ins' reports go to their own stderr: under scripts/test_asan_python.sh this
    # process's ASAN_OPTIONS/UBSAN_OPTIONS name a log folder whose every report fails the run.
    env = {k: v for k, v in os.environ.items() if not k.endswith("SAN_OPTIONS")}
    env.update(LD_PRELOAD=runtime, ASAN_OPTIONS=options)
    symbolizer = shutil.which("llvm-symbolizer-14") or shutil.which("llvm-symbolizer")
    if symbolizer:  # interceptor_via_fun matches symbolized frames
        env["ASAN_SYMBOLIZER_PATH"] = symbolizer
    return subprocess.run([exe, who], env=env, capture_output=True, text=True, timeout=60)


def test_open_mpi_copy_is_suppressed(stand_in):
    proc = _run(stand_in, "openmpi", True)
    assert proc.returncode == 0 and "ran on" in proc.stdout, proc.stderr[-3000:]


@pytest.mark.parametrize("who,suppress", [("weft", True), ("weft", False), ("openmpi", False)])
def test_other_reports_stand(stand_in, who, suppress):
    proc = _run(stand_in, who, suppress)
    assert proc.returncode != 0 and "ERROR: AddressSanitizer: heap-use-after-free" in proc.stderr, (
        proc.returncode, proc.stdout, proc.stderr[-3000:])
