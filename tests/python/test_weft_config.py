"""weft.config and weft.pc: the flags C, Go and R programs link the package's
libweft.so with (issue 42 point 4; Note [Linking the installed library] in
bindings/python/weft/_link_flags.py). A C program is compiled with them and run;
the $ORIGIN case that made linking the installed library fail is rebuilt with
two tiny libraries, so the test does not depend on how this libweft.so was made."""
import os
import shutil
import subprocess
import sys

import pytest

import weft.config as config
from weft import _link_flags
from weft.base import LIB_PATH, lib

_CC = shutil.which("cc") or shutil.which("gcc")
needs_cc = pytest.mark.skipif(_CC is None, reason="no C compiler (cc/gcc) to link a program with the flags")


def _config(*args, env=None):
    return subprocess.run([sys.executable, "-m", "weft.config", *args], capture_output=True, text=True, timeout=120,
                          env=env)


def test_paths_are_the_loaded_library_and_its_headers():
    assert os.path.samefile(config.get_library(), LIB_PATH)
    assert os.path.isfile(os.path.join(config.get_include(), "weft", "c_api.h"))
    assert os.path.isfile(os.path.join(config.get_include(), "weft", "c_predict_api.h"))
    assert config.cflags() == "-I" + config.get_include()
    assert config.libs().split()[:2] == ["-L" + config.get_lib_dir(), "-lweft"]
    assert config.rpath() == "-Wl,-rpath," + config.get_lib_dir()


def test_command_line_prints_answers_in_order():
    out = _config("--libdir", "--cflags")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == config.get_lib_dir() + " " + config.cflags()


def test_command_line_refuses_no_option_and_unknown_options():
    out = _config()
    assert out.returncode == 2 and "name at least one of" in out.stderr
    out = _config("--ldflagz")
    assert out.returncode == 2 and "unrecognized arguments: --ldflagz" in out.stderr


def test_blas_folder_is_named_for_the_linker():
    """Every RUNPATH folder of libweft.so that exists goes to -rpath-link, so the
    linker finds the BLAS libweft.so needs wherever the -L folder is."""
    dirs = _link_flags.library_search_dirs(config.get_library())
    for d in dirs:
        assert "-Wl,-rpath-link," + d in config.libs().split()
    needed, _ = _link_flags.read_dynamic(config.get_library())
    assert "libc.so.6" in needed


@needs_cc
def test_c_program_links_and_runs_with_the_flags(tmp_path):
    src = tmp_path / "abi.c"
    src.write_text('#include <stdio.h>\n#include <weft/c_api.h>\n'
                   'int main(void) { printf("%d\\n", (int)weft_abi_version()); return 0; }\n')
    flags = _config("--cflags", "--libs", "--rpath")
    assert flags.returncode == 0, flags.stderr
    exe = tmp_path / "abi"
    subprocess.run([_CC, str(src), "-o", str(exe)] + flags.stdout.split(), check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, env=env, check=True)
    assert int(run.stdout) == lib.weft_abi_version()


def _origin_libraries(root):
    """root/pkg/weft/lib/liba.so needs root/pkg/blas/lib/libb.so and finds it by
    RUNPATH $ORIGIN/../../blas/lib, as the pip-built libweft.so finds the BLAS
    wheel; root/link/liba.so is a symlink to it (a build/ folder pointing at the
    installed library)."""
    for d in ("pkg/weft/lib", "pkg/blas/lib", "link"):
        os.makedirs(os.path.join(root, d))
    (root / "b.c").write_text("int b_value(void) { return 42; }\n")
    (root / "a.c").write_text("int b_value(void);\nint a_value(void) { return b_value(); }\n")
    (root / "main.c").write_text("int a_value(void);\nint main(void) { return a_value() == 42 ? 0 : 1; }\n")
    subprocess.run([_CC, "-shared", "-fPIC", "-o", str(root / "pkg/blas/lib/libb.so"), str(root / "b.c")],
                   check=True, timeout=120)
    liba = root / "pkg/weft/lib/liba.so"
    subprocess.run([_CC, "-shared", "-fPIC", "-o", str(liba), str(root / "a.c"), "-L" + str(root / "pkg/blas/lib"),
                    "-lb", "-Wl,-rpath,$ORIGIN/../../blas/lib"], check=True, timeout=120)
    os.symlink(str(liba), str(root / "link/liba.so"))
    return root / "link/liba.so"


@needs_cc
def test_origin_runpath_is_expanded_from_the_real_folder(tmp_path):
    linked = _origin_libraries(tmp_path)
    needed, runpath = _link_flags.read_dynamic(str(linked))
    assert needed[0] == "libb.so" and runpath == ["$ORIGIN/../../blas/lib"]
    assert _link_flags.library_search_dirs(str(linked)) == [str(tmp_path / "pkg/blas/lib")]
    exe = str(tmp_path / "main")
    # Without the flag the linker expands $ORIGIN from the symlink's folder and fails,
    # as linking Go against a build/ that links the installed libweft.so did (scipy_sgetrf_).
    plain = subprocess.run([_CC, str(tmp_path / "main.c"), "-o", exe, "-L" + str(tmp_path / "link"), "-la"],
                           capture_output=True, text=True, timeout=120)
    assert plain.returncode != 0 and "b_value" in plain.stderr
    # Nor does it run with the symlink's folder as its rpath: the loader expands $ORIGIN alike.
    rpath_link = "-Wl,-rpath-link," + str(tmp_path / "pkg/blas/lib")
    subprocess.run([_CC, str(tmp_path / "main.c"), "-o", exe, "-L" + str(tmp_path / "link"), "-la", rpath_link,
                    "-Wl,-rpath," + str(tmp_path / "link")], check=True, timeout=120)
    run = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "libb.so" in run.stderr
    flags = _link_flags.libs(str(linked)) + _link_flags.rpath(str(linked))
    assert flags[0] == "-L" + str(tmp_path / "pkg/weft/lib") and flags[-1] == "-Wl,-rpath," + flags[0][2:]
    subprocess.run([_CC, str(tmp_path / "main.c"), "-o", exe] + flags, check=True, timeout=120)
    assert subprocess.run([exe], timeout=60).returncode == 0


@needs_cc
@pytest.mark.skipif(shutil.which("pkg-config") is None, reason="pkg-config is not installed")
def test_pkg_config_file_is_relative_to_itself(tmp_path):
    _origin_libraries(tmp_path)
    real = tmp_path / "pkg/weft/lib/liba.so"
    pc_dir = tmp_path / "pkg/weft/lib/pkgconfig"
    os.makedirs(str(pc_dir))
    text = _link_flags.pkg_config_text(str(real), str(pc_dir), "0.1.0")
    assert "-Wl,-rpath-link,${pcfiledir}/../../../blas/lib" in text and str(tmp_path) not in text
    # Moved as a whole, the file still describes the tree it lies in.
    (pc_dir / "weft.pc").write_text(text)
    moved = tmp_path / "moved"
    shutil.move(str(tmp_path / "pkg"), str(moved))
    env = dict(os.environ, PKG_CONFIG_PATH=str(moved / "weft/lib/pkgconfig"))
    out = subprocess.run(["pkg-config", "--libs", "--cflags", "weft"], capture_output=True, text=True, timeout=60,
                         env=env, check=True).stdout.split()
    assert "-L" + str(moved / "weft/lib/pkgconfig/..") in out
    # liba.so is found as libweft.so would be: link the moved library by its -L and the pc's flags.
    os.rename(str(moved / "weft/lib/liba.so"), str(moved / "weft/lib/libweft.so"))
    exe = str(tmp_path / "main")
    subprocess.run([_CC, str(tmp_path / "main.c"), "-o", exe] + out, check=True, timeout=120)
    assert subprocess.run([exe], timeout=60).returncode == 0


def test_installed_package_ships_its_pc_file():
    if config.get_prefix() != os.path.dirname(os.path.abspath(config.__file__)):
        pytest.skip("the library is not the package's own (a development tree's build/, or WEFT_LIBRARY_PATH): "
                    "weft.pc is written by pip install (setup.py)")
    with open(os.path.join(config.get_pkgconfig_dir(), "weft.pc"), encoding="utf-8") as f:
        text = f.read()
    assert "Libs: -L${libdir} -lweft -Wl,-rpath,${libdir}" in text and "Cflags: -I${includedir}" in text


def test_non_elf_file_is_refused_with_the_function_name(tmp_path):
    bogus = tmp_path / "libweft.so"
    bogus.write_bytes(b"not an ELF file")
    with pytest.raises(ValueError, match="weft.config: .* is not an ELF file"):
        _link_flags.library_search_dirs(str(bogus))
    truncated = tmp_path / "trunc.so"
    with open(config.get_library(), "rb") as f:
        truncated.write_bytes(f.read(200))
    with pytest.raises(ValueError, match="weft.config"):
        _link_flags.library_search_dirs(str(truncated))


def test_libinfo_names_the_library_and_headers_as_mxnet_does():
    import weft as mx  # pylint: disable=import-outside-toplevel  (MXNet scripts' spelling)
    assert mx.libinfo.find_lib_path() == [config.get_library()] == mx.libinfo.find_lib_path("libweft")
    assert mx.libinfo.find_include_path() == config.get_include()
    assert mx.libinfo.__version__ == mx.__version__
    with pytest.raises(RuntimeError, match="find_lib_path: cannot find the library 'libnothere'"):
        mx.libinfo.find_lib_path("libnothere")
    with pytest.raises(TypeError, match="find_lib_path: prefix"):
        mx.libinfo.find_lib_path(3)
    with pytest.raises(RuntimeError, match="find_conf_path"):
        mx.libinfo.find_conf_path()


def test_running_config_as_a_module_warns_of_nothing():
    """weft/__init__ must not import weft.config (runpy would warn that it ran a module
    the package had already imported)."""
    out = _config("--prefix")
    assert out.returncode == 0 and "RuntimeWarning" not in out.stderr, out.stderr
