"""Compiler and linker flags for programs that link the package's libweft.so
(Go's cgo, R's Makevars, C), and the pkg-config file that carries them.

Imports nothing of weft: setup.py loads this file by path to write weft.pc at
install time, and weft.config (``python -m weft.config``) prints the flags for
the library the package loads.

Note [Linking the installed library]: libweft.so needs libscipy_openblas.so,
which it finds through its own RUNPATH -- in a pip-built package
``$ORIGIN/../../scipy_openblas32/lib`` (Note [Package RPATH] in CMakeLists.txt),
in a package made from a build tree (WEFT_CMAKE_BUILD_DIR) the wheel's absolute
folder. At run time the dynamic loader follows that RUNPATH by itself, but the
static linker checks the undefined symbols of every shared library on its
command line, and expands ``$ORIGIN`` from the path it opened, as the dynamic loader does at run time:
reached through a symlink (a build/libweft.so pointing at the installed one) both
look beside the symlink and fail (``scipy_sgetrf_`` undefined; "libscipy_openblas.so:
cannot open shared object file"). So -L and the program's rpath name the
library's real folder, and each RUNPATH folder of libweft.so, expanded from that
real folder, is also given to the linker with ``-Wl,-rpath-link`` (a search
folder for the linker only), which covers a library copied away from its BLAS.
"""
import os
import struct

LIB_NAME = "libweft.so"

_DT_NULL, _DT_NEEDED, _DT_STRTAB, _DT_RPATH, _DT_RUNPATH = 0, 1, 5, 15, 29
_PT_LOAD, _PT_DYNAMIC = 1, 2


class ElfError(ValueError):
    """The file is not a 64- or 32-bit ELF shared object this reader understands."""


def read_dynamic(path):
    """(needed names, rpath/runpath entries) from an ELF file's dynamic section."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        raise ElfError("weft.config: %s is not an ELF file" % path)
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    try:
        if is64:
            phoff, = struct.unpack_from(end + "Q", data, 0x20)
            phentsize, phnum = struct.unpack_from(end + "HH", data, 0x36)
            phdr, dyn = end + "IIQQQQQQ", end + "qQ"
        else:
            phoff, = struct.unpack_from(end + "I", data, 0x1C)
            phentsize, phnum = struct.unpack_from(end + "HH", data, 0x2A)
            phdr, dyn = end + "IIIIIIII", end + "iI"
        loads, dynamic = [], None
        for i in range(phnum):
            fields = struct.unpack_from(phdr, data, phoff + i * phentsize)
            if is64:
                p_type, _, p_offset, p_vaddr, _, p_filesz, _, _ = fields
            else:
                p_type, p_offset, p_vaddr, _, p_filesz, _, _, _ = fields
            if p_type == _PT_LOAD:
                loads.append((p_vaddr, p_offset, p_filesz))
            elif p_type == _PT_DYNAMIC:
                dynamic = (p_offset, p_filesz)
        if dynamic is None:
            return [], []
        entries, step = [], struct.calcsize(dyn)
        for off in range(dynamic[0], dynamic[0] + dynamic[1] - step + 1, step):
            tag, val = struct.unpack_from(dyn, data, off)
            if tag == _DT_NULL:
                break
            entries.append((tag, val))
        strtab_addr = next(v for t, v in entries if t == _DT_STRTAB)
        # DT_STRTAB is a virtual address: map it to a file offset through the PT_LOAD segments.
        strtab = next(off + strtab_addr - va for va, off, size in loads if va <= strtab_addr < va + size)

        def string(offset):
            start = strtab + offset
            return data[start:data.index(b"\0", start)].decode("utf-8", "surrogateescape")

        needed = [string(v) for t, v in entries if t == _DT_NEEDED]
        paths = []
        for t, v in entries:
            if t in (_DT_RPATH, _DT_RUNPATH):
                paths.extend(string(v).split(":"))
    except (struct.error, StopIteration, ValueError) as exc:
        raise ElfError("weft.config: %s has a malformed dynamic section (%s)" % (path, exc)) from exc
    return needed, paths


def library_search_dirs(lib_path):
    """The existing folders libweft.so's RUNPATH names, ``$ORIGIN`` expanded from
    the library's real folder (Note [Linking the installed library])."""
    origin = _real_dir(lib_path)
    _, paths = read_dynamic(lib_path)
    out = []
    for entry in paths:
        if not entry:  # an empty entry means the current folder: never a link input
            continue
        expanded = os.path.normpath(entry.replace("${ORIGIN}", origin).replace("$ORIGIN", origin))
        if os.path.isdir(expanded) and expanded not in out and expanded != origin:
            out.append(expanded)
    return out


def _link_name(lib_path):
    """``-lweft`` for libweft.so, else the file itself (WEFT_LIBRARY_PATH may name any file)."""
    return "-lweft" if os.path.basename(lib_path) == LIB_NAME else os.path.realpath(lib_path)


def cflags(include_dir):
    return ["-I" + include_dir]


def _real_dir(lib_path):
    return os.path.dirname(os.path.realpath(lib_path))


def libs(lib_path):
    lib_dir = _real_dir(lib_path)
    return ["-L" + lib_dir, _link_name(lib_path)] + ["-Wl,-rpath-link," + d for d in library_search_dirs(lib_path)]


def rpath(lib_path):
    """The program's own RUNPATH: the library's folder; libweft.so finds its BLAS itself."""
    return ["-Wl,-rpath," + _real_dir(lib_path)]


def pkg_config_text(lib_path, pc_dir, version):
    """weft.pc for a package whose libweft.so is ``lib_path`` and whose pc file
    lies in ``pc_dir``: every path relative to ``${pcfiledir}``, so the file stays
    right wherever pip puts (or a user moves) the site-packages tree."""
    lib_dir = os.path.dirname(os.path.abspath(lib_path))
    pkg_dir = os.path.dirname(lib_dir)

    def rel(path):
        return "${pcfiledir}/" + os.path.relpath(path, pc_dir)

    # Kept as written, not checked: at install time the library lies in pip's staging
    # tree, where $ORIGIN's neighbours (the BLAS wheel) do not exist yet.
    _, runpath = read_dynamic(lib_path)
    origin = rel(lib_dir)
    dirs = [e.replace("${ORIGIN}", origin).replace("$ORIGIN", origin) for e in runpath if e]
    link_dirs = " ".join("-Wl,-rpath-link," + d for d in dirs if d != origin)
    return "\n".join([
        "# Written by weft's setup.py (bindings/python/weft/_link_flags.py); paths are relative",
        "# to this file. python -m weft.config prints the same flags.",
        "prefix=" + rel(pkg_dir),
        "libdir=" + rel(lib_dir),
        "includedir=" + rel(os.path.join(pkg_dir, "include")),
        "",
        "Name: weft",
        "Description: Weft deep-learning library (C ABI: weft/c_api.h, weft/c_predict_api.h)",
        "Version: " + version,
        "Cflags: -I${includedir}",
        ("Libs: -L${libdir} -lweft -Wl,-rpath,${libdir} " + link_dirs).rstrip(),
        "",
    ])
