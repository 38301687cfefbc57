# NDArray: a handle to an array of the engine, freed by a finalizer.
#
# Note [Layout]
# Julia arrays are column-major, the library's are row-major (C order). As in
# MXNet.jl, a Julia Array of size (a, b, c) is the library array of shape
# (c, b, a): the bytes are copied unchanged, never transposed, and element
# x[i, j, k] of the Julia array is element [k-1, j-1, i-1] of the library's.
# Everything that takes or returns a shape in Julia terms (size, NDArray(x),
# Array(a), reshape, nd_zeros, Variable(shape=...), infer_shape, simple_bind,
# fit's data) uses Julia order; `weft_shape(a)` gives the library's order.
# Operator *attributes* (axis=, shape=, kernel=, ...) are passed to the library
# as written, i.e. in the library's order (axis 0 is Julia's last dimension).
# Consequences: the batch is the *last* Julia dimension (a (features, batch)
# matrix is the library's (batch, features)); broadcasting agrees with Julia's
# (the library pads shapes on the left, which is Julia's right); and the Julia
# product A * B of two matrices is the library's dot(B, A).

"""
    NDArray

An array of the Weft engine (any device, dtypes Float32, Float64, Float16,
UInt8, Int32, Int8, Int64, Bool). Create one from a Julia array with
`NDArray(x; ctx=cpu())`, read it back with `Array(a)`. Operations are pushed
to the engine; reading waits. See Note [Layout] for the dimension order."""
mutable struct NDArray
    handle::Ptr{Cvoid}
    function NDArray(handle::Ptr{Cvoid})
        handle == C_NULL && throw(WeftError("NDArray: the library returned a NULL handle", 8))
        a = new(handle)
        finalizer(release!, a)
        return a
    end
end

_ndarray_free(h::Ptr{Cvoid}) = ccall((:weft_ndarray_free, libweft()), Cvoid, (Ptr{Cvoid},), h)

"""Frees the handle now (the finalizer does it otherwise); the array must not be used after."""
function release!(a::NDArray)
    h = a.handle
    a.handle = C_NULL
    h == C_NULL || _ndarray_free(h)
    return nothing
end

# Passing an NDArray to ccall as Ptr{Cvoid} keeps it rooted during the call.
Base.cconvert(::Type{Ptr{Cvoid}}, a::NDArray) = a
function Base.unsafe_convert(::Type{Ptr{Cvoid}}, a::NDArray)
    a.handle == C_NULL && throw(WeftError("NDArray: the array has been released"))
    return a.handle
end

handles(xs) = Ptr{Cvoid}[x === nothing ? C_NULL : Base.unsafe_convert(Ptr{Cvoid}, x) for x in xs]

# ---- creation and host copies ------------------------------------------------------
"""
    empty_ndarray(T, dims; ctx=cpu()) -> NDArray

An uninitialised array of Julia size `dims` (see Note [Layout])."""
function empty_ndarray(::Type{T}, dims; ctx::Context=cpu()) where {T}
    shape = Int64[reverse(Tuple(dims))...]
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check_call(ccall((:weft_ndarray_create, libweft()), Cint,
                     (Ptr{Int64}, Cint, Cint, Cint, Cint, Ref{Ptr{Cvoid}}),
                     shape, length(shape), dtype_flag(T), ctx.dev_type, ctx.dev_id, out))
    return NDArray(out[])
end

"""
    NDArray(x::AbstractArray; ctx=cpu())

A new engine array with the contents of `x`; Julia size `(a, b, c)` becomes the
library shape `(c, b, a)` with the bytes copied as they are (Note [Layout])."""
function NDArray(x::AbstractArray{T}; ctx::Context=cpu()) where {T}
    a = empty_ndarray(T, size(x); ctx=ctx)
    return copy_from!(a, x)
end

"""    copy_from!(a::NDArray, x::AbstractArray) -> a: writes x (converted to eltype(a)) into a."""
function copy_from!(a::NDArray, x::AbstractArray)
    T = eltype(a)
    size(x) == size(a) ||
        throw(WeftError("copy into NDArray: the Julia array has size $(size(x)), the NDArray $(size(a))", 2))
    src = x isa Array{T} ? x : convert(Array{T}, x)
    GC.@preserve src begin
        rc = ccall((:weft_ndarray_copy_from_host, libweft()), Cint, (Ptr{Cvoid}, Ptr{Cvoid}, Csize_t),
                   a, pointer(src), Csize_t(sizeof(src)))
    end
    check_call(rc)
    return a
end

"""    Array(a::NDArray) -> Array: waits for a and copies it to a Julia array (Note [Layout])."""
function Base.Array(a::NDArray)
    out = Array{eltype(a)}(undef, size(a))
    GC.@preserve out begin
        rc = ccall((:weft_ndarray_copy_to_host, libweft()), Cint, (Ptr{Cvoid}, Ptr{Cvoid}, Csize_t),
                   a, pointer(out), Csize_t(sizeof(out)))
    end
    check_call(rc)
    return out
end
Base.convert(::Type{Array}, a::NDArray) = Array(a)

# ---- metadata ---------------------------------------------------------------------------
"""    weft_shape(a::NDArray) -> Vector{Int64}: the shape in the library's (row-major) order."""
function weft_shape(a::NDArray)
    ndim = Ref{Cint}(0)
    dims = Ref{Ptr{Int64}}(C_NULL)
    check_call(ccall((:weft_ndarray_shape, libweft()), Cint, (Ptr{Cvoid}, Ref{Cint}, Ref{Ptr{Int64}}),
                     a, ndim, dims))
    # dims points into the handle; copy it while `a` is alive.
    return GC.@preserve a Int64[unsafe_load(dims[], i) for i in 1:ndim[]]
end

Base.size(a::NDArray) = Tuple(Int.(reverse(weft_shape(a))))
Base.size(a::NDArray, d::Integer) = (s = size(a); d <= length(s) ? s[d] : 1)
Base.ndims(a::NDArray) = length(weft_shape(a))
Base.length(a::NDArray) = prod(size(a); init=1)

function dtype_flag(a::NDArray)
    t = Ref{Cint}(0)
    check_call(ccall((:weft_ndarray_dtype, libweft()), Cint, (Ptr{Cvoid}, Ref{Cint}), a, t))
    return Int(t[])
end
Base.eltype(a::NDArray) = julia_type(dtype_flag(a))

"""    context(a::NDArray) -> Context: the device a lives on."""
function context(a::NDArray)
    dt = Ref{Cint}(0)
    di = Ref{Cint}(0)
    check_call(ccall((:weft_ndarray_context, libweft()), Cint, (Ptr{Cvoid}, Ref{Cint}, Ref{Cint}), a, dt, di))
    return Context(dt[], di[])
end

function Base.show(io::IO, a::NDArray)
    if a.handle == C_NULL
        print(io, "NDArray(released)")
        return
    end
    print(io, "NDArray{", dtype_name(dtype_flag(a)), "}(", join(size(a), "×"), ") @", context(a))
end

function Base.show(io::IO, ::MIME"text/plain", a::NDArray)
    show(io, a)
    if a.handle != C_NULL && haskey(FLAG_DTYPE, dtype_flag(a))
        println(io, ":")
        show(io, MIME"text/plain"(), Array(a))
    end
end

"""    wait_to_read(a::NDArray): blocks until every pending write of a is done."""
wait_to_read(a::NDArray) = check_call(ccall((:weft_ndarray_wait_to_read, libweft()), Cint, (Ptr{Cvoid},), a))

# ---- views ----------------------------------------------------------------------------------
function _new_handle(f)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check_call(f(out))
    return NDArray(out[])
end

"""
    reshape(a::NDArray, dims...) -> NDArray

A view with Julia size `dims` sharing a's memory (one dimension may be `:`).
Since Julia's and the library's element orders are both the memory order,
this is exactly Julia's `reshape` on the data."""
function Base.reshape(a::NDArray, dims::Union{Integer,Colon}...)
    n = length(a)
    known = prod(Int[d for d in dims if d isa Integer]; init=1)
    count(d -> d isa Colon, dims) <= 1 || throw(WeftError("reshape: at most one dimension may be ':'"))
    jdims = Int[d isa Colon ? (known == 0 ? 0 : div(n, known)) : Int(d) for d in dims]
    prod(jdims; init=1) == n ||
        throw(WeftError("reshape: cannot view $(size(a)) ($(n) elements) as $(Tuple(jdims))", 2))
    shape = Int64[reverse(jdims)...]
    return _new_handle(out -> ccall((:weft_ndarray_reshape, libweft()), Cint,
                                    (Ptr{Cvoid}, Ptr{Int64}, Cint, Ref{Ptr{Cvoid}}), a, shape, length(shape), out))
end
Base.reshape(a::NDArray, dims::Tuple) = reshape(a, dims...)

"""
    slice(a::NDArray, r::UnitRange) -> NDArray

A view of the entries `r` (1-based) along the *last* Julia dimension (the
library's axis 0), sharing memory."""
function slice(a::NDArray, r::UnitRange{<:Integer})
    n = size(a, ndims(a))
    (first(r) >= 1 && last(r) <= n && first(r) <= last(r) + 1) ||
        throw(WeftError("slice: range $r is outside 1:$n of the last dimension", 1))
    return _new_handle(out -> ccall((:weft_ndarray_slice, libweft()), Cint,
                                    (Ptr{Cvoid}, Int64, Int64, Ref{Ptr{Cvoid}}), a, first(r) - 1, last(r), out))
end

"""    at(a::NDArray, i) -> NDArray: entry i (1-based) of the last Julia dimension, that dimension dropped (a view)."""
function at(a::NDArray, i::Integer)
    return _new_handle(out -> ccall((:weft_ndarray_at, libweft()), Cint,
                                    (Ptr{Cvoid}, Int64, Ref{Ptr{Cvoid}}), a, Int64(i - 1), out))
end

"""    shares_memory(a, b) -> Bool: whether a and b are views of the same memory."""
function shares_memory(a::NDArray, b::NDArray)
    r = Ref{Cint}(0)
    check_call(ccall((:weft_ndarray_shares_memory, libweft()), Cint, (Ptr{Cvoid}, Ptr{Cvoid}, Ref{Cint}), a, b, r))
    return r[] != 0
end

# ---- copies -----------------------------------------------------------------------------------
"""    copyto!(dst::NDArray, src::NDArray): pushes a copy (same shape, dtype converted)."""
function Base.copyto!(dst::NDArray, src::NDArray)
    check_call(ccall((:weft_ndarray_copy, libweft()), Cint, (Ptr{Cvoid}, Ptr{Cvoid}), src, dst))
    return dst
end
Base.copyto!(dst::NDArray, src::AbstractArray) = copy_from!(dst, src)
function Base.copyto!(dst::Array, src::NDArray)
    size(dst) == size(src) || throw(WeftError("copyto!: sizes differ: $(size(dst)) and $(size(src))", 2))
    copyto!(dst, Array(src))
    return dst
end

"""    copy(a::NDArray) -> NDArray: a new array (same device and dtype) holding a's values."""
function Base.copy(a::NDArray)
    b = empty_ndarray(eltype(a), size(a); ctx=context(a))
    return copyto!(b, a)
end

"""    copy_to_context(a, ctx) -> NDArray: a copy on another device."""
function copy_to_context(a::NDArray, ctx::Context)
    return _new_handle(out -> ccall((:weft_ndarray_copy_to_context, libweft()), Cint,
                                    (Ptr{Cvoid}, Cint, Cint, Ref{Ptr{Cvoid}}), a, ctx.dev_type, ctx.dev_id, out))
end
