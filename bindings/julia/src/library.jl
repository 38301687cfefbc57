# Finding and opening libweft; every ccall names its library as `libweft()`.
#
# `ccall((:weft_x, libweft()), ...)` with a non-constant library expression is
# resolved by Julia at the first call of each call site (as CUDA.jl does with
# `libcuda()`), so the path may be chosen at run time in __init__.

const LIBRARY_NAME = "libweft." * Libdl.dlext
const _LIBRARY_PATH = Ref{String}("")
const _LIBRARY_HANDLE = Ref{Ptr{Cvoid}}(C_NULL)

"""
    libweft() -> String

The path of the loaded libweft (set when the package loads)."""
function libweft()
    p = _LIBRARY_PATH[]
    isempty(p) && throw(ErrorException("Weft: the library is not loaded (Weft.__init__ has not run)"))
    return p
end

"""
    library_candidates() -> Vector{String}

Where libweft is looked for, in order: `ENV["WEFT_LIBRARY_PATH"]` (a file, or a
folder holding the library), `deps/libweft.so` inside this package, then the
development tree's `<repo>/build/libweft.so`."""
function library_candidates()
    out = String[]
    env = get(ENV, "WEFT_LIBRARY_PATH", "")
    if !isempty(env)
        push!(out, isdir(env) ? joinpath(env, LIBRARY_NAME) : env)
    end
    package_root = dirname(@__DIR__)                      # bindings/julia
    push!(out, joinpath(package_root, "deps", LIBRARY_NAME))
    push!(out, normpath(joinpath(package_root, "..", "..", "build", LIBRARY_NAME)))
    return out
end

function find_library()
    candidates = library_candidates()
    if !isempty(get(ENV, "WEFT_LIBRARY_PATH", ""))
        # An explicit choice is never silently replaced by another library.
        isfile(candidates[1]) && return candidates[1]
        throw(ErrorException("Weft: WEFT_LIBRARY_PATH=$(repr(ENV["WEFT_LIBRARY_PATH"])) does not name $(LIBRARY_NAME)"))
    end
    for c in candidates
        isfile(c) && return c
    end
    throw(ErrorException("Weft: cannot find $(LIBRARY_NAME); looked at " * join(candidates, ", ") *
                         ". Build it (cmake --build <repo>/build --target weft) or set WEFT_LIBRARY_PATH."))
end

const HEADER_ABI_VERSION = 1   # WEFT_ABI_VERSION of the c_api.h this binding was written against

function load_library!()
    path = find_library()
    _LIBRARY_HANDLE[] = Libdl.dlopen(path, Libdl.RTLD_NOW | Libdl.RTLD_GLOBAL)
    _LIBRARY_PATH[] = path
    abi = ccall((:weft_abi_version, libweft()), Cint, ())
    abi >= HEADER_ABI_VERSION ||
        throw(ErrorException("Weft: $(path) has ABI version $(abi), older than the binding's $(HEADER_ABI_VERSION)"))
    # Resolve the free functions' call sites now, so finalizers never open the library.
    _ndarray_free(C_NULL)
    _symbol_free(C_NULL)
    _executor_free(C_NULL)
    return path
end

"""
    version() -> String

The library's version text, e.g. `"0.1.0"`."""
version() = unsafe_string(ccall((:weft_version, libweft()), Cstring, ()))
