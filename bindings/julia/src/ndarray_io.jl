# Saving and loading NDArrays in MXNet 1.x's .params format (FORMATS.md A):
# a list of arrays, or named arrays (a dict file).

"""
    save_ndarrays(fname, arrays)

Writes a `.params` file: `arrays` is a vector of NDArrays (a list file), or a
`Dict{String,NDArray}` / vector of `name => NDArray` pairs (a dict file; pairs
keep their order, a Dict is written sorted by name)."""
function save_ndarrays(fname::AbstractString, arrays::AbstractVector{NDArray})
    hs = handles(arrays)
    rc = GC.@preserve arrays ccall((:weft_ndarray_save, libweft()), Cint,
                                   (Cstring, Cint, Ptr{Ptr{Cvoid}}, Ptr{Cstring}),
                                   fname, length(hs), hs, C_NULL)
    check_call(rc)
    return nothing
end

function save_ndarrays(fname::AbstractString, named::AbstractVector{<:Pair})
    names = String[String(first(p)) for p in named]
    arrays = NDArray[last(p) for p in named]
    hs = handles(arrays)
    rc = GC.@preserve arrays ccall((:weft_ndarray_save, libweft()), Cint,
                                   (Cstring, Cint, Ptr{Ptr{Cvoid}}, Ptr{Cstring}),
                                   fname, length(hs), hs, names)
    check_call(rc)
    return nothing
end

save_ndarrays(fname::AbstractString, named::AbstractDict) =
    save_ndarrays(fname, [String(k) => named[k] for k in sort!(collect(keys(named)))])

save_ndarrays(fname::AbstractString, a::NDArray) = save_ndarrays(fname, NDArray[a])

"""
    load_ndarrays(fname) -> Vector{NDArray} or Vector{Pair{String,NDArray}}

Reads a `.params` file: a list file gives the arrays, a dict file the
`name => array` pairs in file order (`Dict(load_ndarrays(f))` for lookups)."""
function load_ndarrays(fname::AbstractString)
    n = Ref{Cint}(0)
    arrs = Ref{Ptr{Ptr{Cvoid}}}(C_NULL)
    nkeys = Ref{Cint}(0)
    keyp = Ref{Ptr{Ptr{UInt8}}}(C_NULL)
    check_call(ccall((:weft_ndarray_load, libweft()), Cint,
                     (Cstring, Ref{Cint}, Ref{Ptr{Ptr{Cvoid}}}, Ref{Cint}, Ref{Ptr{Ptr{UInt8}}}),
                     fname, n, arrs, nkeys, keyp))
    # Both lists are thread-local: copy pointers and names before any other call.
    raw = Ptr{Cvoid}[unsafe_load(arrs[], i) for i in 1:n[]]
    names = (keyp[] == C_NULL || nkeys[] == 0) ? String[] :
            String[unsafe_string(unsafe_load(keyp[], i)) for i in 1:nkeys[]]
    arrays = NDArray[NDArray(h) for h in raw]
    isempty(names) && return arrays
    return Pair{String,NDArray}[names[i] => arrays[i] for i in eachindex(arrays)]
end
