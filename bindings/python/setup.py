"""Builds libweft.so with CMake and ships it inside the package.

``pip install ./bindings/python`` runs, in build_ext:
  1. CMake on the repository's top-level CMakeLists.txt (two levels up, or
     $WEFT_SOURCE_DIR) with -DWEFT_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release,
     Ninja when installed else Makefiles with -j2; libweft.so is copied to
     weft/lib/;
  2. the API-mode cffi module weft._weft_ffi from capi/include/weft/c_api.h
     and the helpers in weft/_wpy_helpers.c (see weft/_build_ffi.py).
build_py copies the header to weft/include/weft/c_api.h so an installed
package needs no source tree; build_ext writes weft/lib/pkgconfig/weft.pc, the
flags Go, R and C programs link the package's libweft.so with (as
``python -m weft.config --cflags --libs --rpath`` prints them). Project metadata is in pyproject.toml.
"""
import importlib.util
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.environ.get("WEFT_SOURCE_DIR") or os.path.join(HERE, os.pardir, os.pardir))
HEADER = os.path.join(REPO, "capi", "include", "weft", "c_api.h")
PREDICT_HEADER = os.path.join(REPO, "capi", "include", "weft", "c_predict_api.h")


def _build_ffi_module():
    spec = importlib.util.spec_from_file_location("_weft_build_ffi", os.path.join(HERE, "weft", "_build_ffi.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _link_flags_module():
    # Loaded by path: importing the weft package would load a libweft.so.
    spec = importlib.util.spec_from_file_location("_weft_link_flags", os.path.join(HERE, "weft", "_link_flags.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check_source_tree():
    if not (os.path.isfile(os.path.join(REPO, "CMakeLists.txt")) and os.path.isfile(HEADER)):
        sys.exit("weft: the Weft source tree was not found at %s (set WEFT_SOURCE_DIR to the repository "
                 "root that holds CMakeLists.txt and capi/include/weft/c_api.h)" % REPO)


class BuildPy(build_py):
    def run(self):
        super().run()
        _check_source_tree()
        dst = os.path.join(self.build_lib, "weft", "include", "weft")
        os.makedirs(dst, exist_ok=True)
        shutil.copy2(HEADER, os.path.join(dst, "c_api.h"))
        shutil.copy2(PREDICT_HEADER, os.path.join(dst, "c_predict_api.h"))


class BuildExt(build_ext):
    def run(self):
        _check_source_tree()
        self._build_libweft()
        super().run()

    def _build_libweft(self):
        cmake = shutil.which("cmake")
        if cmake is None:
            sys.exit("weft: cmake is required to build libweft.so")
        # A checkout that already has a configured build tree (scripts/build.sh's
        # build/) names it in WEFT_CMAKE_BUILD_DIR: libweft.so is then brought up
        # to date there and copied, instead of compiled again in a tree of pip's.
        existing = os.environ.get("WEFT_CMAKE_BUILD_DIR")
        if existing:
            existing = os.path.abspath(existing)
            if not os.path.isfile(os.path.join(existing, "CMakeCache.txt")):
                sys.exit("weft: WEFT_CMAKE_BUILD_DIR=%s is not a configured CMake build tree "
                         "(no CMakeCache.txt; run scripts/build.sh first)" % existing)
            self._build_and_copy(cmake, existing)
            return
        build_dir = os.path.join(os.path.abspath(self.build_temp), "cmake")
        os.makedirs(build_dir, exist_ok=True)
        ninja = shutil.which("ninja")
        # The Python that runs this build (pip's build environment, which has the
        # scipy-openblas32 wheel: pyproject.toml) is the one CMake asks for the
        # wheel, and libweft.so finds it relative to itself (Note [Package RPATH]).
        cfg = [cmake, "-S", REPO, "-B", build_dir, "-DWEFT_BUILD_TESTS=OFF", "-DCMAKE_BUILD_TYPE=Release",
               "-DPython3_EXECUTABLE=" + sys.executable, "-DWEFT_PACKAGE_RPATH=ON"]
        cache = os.path.join(build_dir, "CMakeCache.txt")
        if os.path.exists(cache):  # the generator is fixed at the first configure
            with open(cache, encoding="utf-8", errors="replace") as f:
                made_by_ninja = "CMAKE_GENERATOR:INTERNAL=Ninja" in f.read()
            if made_by_ninja and not ninja:
                shutil.rmtree(build_dir)
                os.makedirs(build_dir)
        if not os.path.exists(cache):
            cfg += ["-G", "Ninja"] if ninja else ["-G", "Unix Makefiles"]
        subprocess.check_call(cfg)
        self._build_and_copy(cmake, build_dir)

    def _build_and_copy(self, cmake, build_dir):
        build = [cmake, "--build", build_dir, "--target", "weft"]
        uses_ninja = os.path.exists(os.path.join(build_dir, "build.ninja"))
        if not uses_ninja:
            build += ["--", "-j2"]
        subprocess.check_call(build)
        lib = os.path.join(build_dir, "libweft.so")
        if not os.path.isfile(lib):
            sys.exit("weft: the CMake build did not produce %s" % lib)
        pkg_dir = os.path.dirname(self.get_ext_fullpath("weft._weft_ffi"))
        os.makedirs(os.path.join(pkg_dir, "lib"), exist_ok=True)
        shutil.copy2(lib, os.path.join(pkg_dir, "lib", "libweft.so"))
        for plugin in ("libweft_mpi.so", "libweft_nccl.so"):  # loaded on demand by the allreduce store
            if os.path.isfile(os.path.join(build_dir, plugin)):
                shutil.copy2(os.path.join(build_dir, plugin), os.path.join(pkg_dir, "lib", plugin))
        # weft.pc for Go, R and C programs that link this package's library (python -m
        # weft.config prints the same flags; Note [Linking the installed library]).
        pc_dir = os.path.join(pkg_dir, "lib", "pkgconfig")
        os.makedirs(pc_dir, exist_ok=True)
        flags = _link_flags_module()
        with open(os.path.join(pc_dir, "weft.pc"), "w", encoding="utf-8") as f:
            f.write(flags.pkg_config_text(os.path.join(pkg_dir, "lib", "libweft.so"), pc_dir,
                                          self.distribution.get_version()))

    def build_extension(self, ext):
        if ext.name == "weft._weft_ffi":
            builder = _build_ffi_module()
            ffi = builder.make_ffi(HEADER)
            os.makedirs(self.build_temp, exist_ok=True)
            c_file = os.path.join(os.path.abspath(self.build_temp), "_weft_ffi.c")
            ffi.emit_c_code(c_file)
            settings = builder.extension_settings(HEADER)  # weft/_wpy_helpers.c and its settings
            ext.sources = [c_file] + settings["sources"]
            ext.include_dirs = settings["include_dirs"]
            ext.define_macros = settings["define_macros"]
            ext.extra_compile_args = settings["extra_compile_args"]
        super().build_extension(ext)


setup(
    ext_modules=[Extension("weft._weft_ffi", sources=["weft/_build_ffi.py"])],  # sources set in build_ext
    cmdclass={"build_py": BuildPy, "build_ext": BuildExt},
)
