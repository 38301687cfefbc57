# SymbolicNode: a graph (one or more outputs of operator and variable nodes)
# over a weft_symbol handle. Named SymbolicNode, as in MXNet.jl, because
# `Symbol` is Julia's own type.

"""
    SymbolicNode

A symbolic graph. Make variables with [`Variable`](@ref), operator nodes with
`Weft.sym.<Op>(...)`, combine with `+ - * /`, [`Group`](@ref); inspect with
[`list_arguments`](@ref), [`infer_shape`](@ref); serialise with
[`to_json`](@ref) / [`from_json`](@ref)."""
mutable struct SymbolicNode
    handle::Ptr{Cvoid}
    function SymbolicNode(handle::Ptr{Cvoid})
        handle == C_NULL && throw(WeftError("SymbolicNode: the library returned a NULL handle", 8))
        s = new(handle)
        finalizer(s -> (h = s.handle; s.handle = C_NULL; _symbol_free(h)), s)
        return s
    end
end

_symbol_free(h::Ptr{Cvoid}) = ccall((:weft_symbol_free, libweft()), Cvoid, (Ptr{Cvoid},), h)

Base.cconvert(::Type{Ptr{Cvoid}}, s::SymbolicNode) = s
function Base.unsafe_convert(::Type{Ptr{Cvoid}}, s::SymbolicNode)
    s.handle == C_NULL && throw(WeftError("SymbolicNode: the symbol has been released"))
    return s.handle
end

function _new_symbol(f)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check_call(f(out))
    return SymbolicNode(out[])
end

# Copies a (count, const char**) result of the library into Julia strings.
read_strings(n::Integer, p::Ptr{Ptr{UInt8}}) = String[unsafe_string(unsafe_load(p, i)) for i in 1:n]

# ---- naming (MXNet's NameManager: "<hint><n>", counted per hint) ---------------------
const NAME_COUNTERS = Dict{String,Int}()
function auto_name(hint::AbstractString)
    n = get(NAME_COUNTERS, hint, 0)
    NAME_COUNTERS[hint] = n + 1
    return string(hint, n)
end

# ---- creation -----------------------------------------------------------------------------------
"""
    Variable(name; shape=nothing, dtype=nothing, lr_mult=nothing, wd_mult=nothing, init=nothing, attrs...)

A variable node (an input, parameter or auxiliary state). `shape` is in Julia
order and stored as the library's `__shape__` (reversed, Note [Layout]);
further attributes must be `__dunder__` names."""
function Variable(name::AbstractString; shape=nothing, dtype=nothing, lr_mult=nothing, wd_mult=nothing,
                  init=nothing, attrs...)
    s = _new_symbol(out -> ccall((:weft_symbol_create_variable, libweft()), Cint, (Cstring, Ref{Ptr{Cvoid}}),
                                 name, out))
    shape === nothing || set_attr!(s, "__shape__", attr_text(Tuple(reverse(Int.(collect(shape))))))
    lr_mult === nothing || set_attr!(s, "__lr_mult__", attr_text(lr_mult))
    wd_mult === nothing || set_attr!(s, "__wd_mult__", attr_text(wd_mult))
    dtype === nothing || set_attr!(s, "__dtype__", string(dtype_flag(dtype)))
    init === nothing || set_attr!(s, "__init__", String(init))
    for (k, v) in attrs
        ks = String(k)
        is_hidden_key(ks) ||
            throw(WeftError("Variable '$name': attribute '$ks' is not supported; extra attributes must be " *
                            "__dunder__ names", 1))
        set_attr!(s, ks, attr_text(v))
    end
    return s
end

"""    Group(nodes...) -> SymbolicNode: one symbol whose outputs are those of every node."""
function Group(nodes::SymbolicNode...)
    hs = handles(nodes)
    return GC.@preserve nodes _new_symbol(out -> ccall((:weft_symbol_group, libweft()), Cint,
                                                       (Cint, Ptr{Ptr{Cvoid}}, Ref{Ptr{Cvoid}}), length(hs), hs, out))
end
Group(nodes::AbstractVector{SymbolicNode}) = Group(nodes...)

const HIDDEN_KEYS = ("ctx_group", "lr_mult", "wd_mult", "force_mirroring", "mirror_stage")
creation_key(k::String) = k in HIDDEN_KEYS ? "__$(k)__" : k

# The body of every generated Weft.sym.<Op>: SymbolicNode inputs positionally or
# by input name, parameters by keyword (only given ones are stored, as MXNet
# does), `attr` a Dict of extra node attributes, `name` the node name.
function sym_call(op::OpInfo, fname::String, args::Tuple, name, attr, kwargs)
    pos = SymbolicNode[]
    for (i, x) in enumerate(args)
        x isa SymbolicNode || throw(WeftError("$(fname): input $i must be a SymbolicNode, got $(typeof(x))", 1))
        push!(pos, x)
    end
    kw_names = String[]
    kw_args = SymbolicNode[]
    keys = String[]
    vals = String[]
    if attr !== nothing
        attr isa AbstractDict || throw(WeftError("$(fname): attr must be a Dict of strings, got $(typeof(attr))", 1))
        for (k, v) in attr
            push!(keys, creation_key(String(k)))
            push!(vals, attr_text(v))
        end
    end
    for (k, v) in kwargs
        ks = String(k)
        if v isa SymbolicNode
            (op.variadic !== nothing || ks in op.inputs) ||
                throw(WeftError("$(fname): '$ks' is not an input (inputs: $(join(op.inputs, ", ")))", 1))
            push!(kw_names, ks)
            push!(kw_args, v)
            continue
        end
        check_param(op, ks)
        v === nothing && continue
        push!(keys, ks)
        push!(vals, attr_text(v))
    end
    if op.variadic === nothing
        length(pos) <= length(op.inputs) ||
            throw(WeftError("$(fname): $(length(pos)) inputs given, the operator takes $(length(op.inputs))", 1))
    elseif !(op.variadic in keys)
        push!(keys, op.variadic)
        push!(vals, string(length(pos) + length(kw_args)))
    end
    node_name = name === nothing ? auto_name(lowercase(fname)) : String(name)
    ph = handles(pos)
    kh = handles(kw_args)
    return GC.@preserve pos kw_args _new_symbol(out -> ccall((:weft_symbol_compose, libweft()), Cint,
        (Ptr{Cvoid}, Cstring, Cint, Ptr{Cstring}, Ptr{Cstring}, Cint, Ptr{Ptr{Cvoid}}, Cint, Ptr{Cstring},
         Ptr{Ptr{Cvoid}}, Ref{Ptr{Cvoid}}),
        op.handle, node_name, length(keys), keys, vals, length(ph), ph, length(kh), kw_names, kh, out))
end

"""    compose(opname, inputs...; name=nothing, attr=nothing, params...) -> SymbolicNode (what sym.<Op> does)."""
compose(opname::AbstractString, inputs::SymbolicNode...; name=nothing, attr=nothing, kwargs...) =
    sym_call(op_info(opname), String(opname), inputs, name, attr, kwargs)

# ---- inspection ------------------------------------------------------------------------------------
function _list(s::SymbolicNode, which::Integer)
    n = Ref{Cint}(0)
    p = Ref{Ptr{Ptr{UInt8}}}(C_NULL)
    check_call(ccall((:weft_symbol_list, libweft()), Cint, (Ptr{Cvoid}, Cint, Ref{Cint}, Ref{Ptr{Ptr{UInt8}}}),
                     s, which, n, p))
    return read_strings(n[], p[])
end
"""    list_arguments(s) -> Vector{String}: argument names (inputs and parameters)."""
list_arguments(s::SymbolicNode) = _list(s, 0)
"""    list_outputs(s) -> Vector{String}: output names."""
list_outputs(s::SymbolicNode) = _list(s, 1)
"""    list_auxiliary_states(s) -> Vector{String}: auxiliary state names (BatchNorm's moving statistics)."""
list_auxiliary_states(s::SymbolicNode) = _list(s, 2)
"""    list_inputs(s) -> Vector{String}: every input: arguments and auxiliary states."""
list_inputs(s::SymbolicNode) = _list(s, 3)

function num_outputs(s::SymbolicNode)
    n = Ref{Cint}(0)
    check_call(ccall((:weft_symbol_num_outputs, libweft()), Cint, (Ptr{Cvoid}, Ref{Cint}), s, n))
    return Int(n[])
end

"""    symbol_name(s) -> String: the head node's name ("" for a group)."""
function symbol_name(s::SymbolicNode)
    p = Ref{Ptr{UInt8}}(C_NULL)
    check_call(ccall((:weft_symbol_name, libweft()), Cint, (Ptr{Cvoid}, Ref{Ptr{UInt8}}), s, p))
    return unsafe_string(p[])
end

"""    s[i] -> SymbolicNode: output i (1-based); s["name"] an internal output by name (e.g. "fc1_output")."""
function Base.getindex(s::SymbolicNode, i::Integer)
    n = num_outputs(s)
    1 <= i <= n || throw(WeftError("SymbolicNode: output $i is outside 1:$n", 1))
    return _new_symbol(out -> ccall((:weft_symbol_get_output, libweft()), Cint, (Ptr{Cvoid}, Cint, Ref{Ptr{Cvoid}}),
                                    s, i - 1, out))
end
function Base.getindex(s::SymbolicNode, key::AbstractString)
    outs = list_outputs(s)
    idx = findfirst(==(key), outs)
    idx === nothing && throw(WeftError("SymbolicNode: no output named '$key' (outputs: $(join(outs, ", ")))", 5))
    return s[idx]
end

"""    get_internals(s) -> SymbolicNode: every node output of the graph as one group."""
get_internals(s::SymbolicNode) =
    _new_symbol(out -> ccall((:weft_symbol_get_internals, libweft()), Cint, (Ptr{Cvoid}, Ref{Ptr{Cvoid}}), s, out))

"""    get_children(s) -> Union{SymbolicNode,Nothing}: the inputs of the head node (nothing for a variable)."""
function get_children(s::SymbolicNode)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check_call(ccall((:weft_symbol_get_children, libweft()), Cint, (Ptr{Cvoid}, Ref{Ptr{Cvoid}}), s, out))
    return out[] == C_NULL ? nothing : SymbolicNode(out[])
end

Base.copy(s::SymbolicNode) =
    _new_symbol(out -> ccall((:weft_symbol_copy, libweft()), Cint, (Ptr{Cvoid}, Ref{Ptr{Cvoid}}), s, out))

"""    get_attr(s, key) -> Union{String,Nothing}: an attribute of the head node."""
function get_attr(s::SymbolicNode, key::AbstractString)
    v = Ref{Ptr{UInt8}}(C_NULL)
    found = Ref{Cint}(0)
    check_call(ccall((:weft_symbol_get_attr, libweft()), Cint, (Ptr{Cvoid}, Cstring, Ref{Ptr{UInt8}}, Ref{Cint}),
                     s, key, v, found))
    return found[] == 0 ? nothing : unsafe_string(v[])
end

"""    set_attr!(s, key, value): sets an attribute (text) of the head node."""
function set_attr!(s::SymbolicNode, key::AbstractString, value::AbstractString)
    check_call(ccall((:weft_symbol_set_attr, libweft()), Cint, (Ptr{Cvoid}, Cstring, Cstring), s, key, value))
    return s
end

"""    list_attr(s; recursive=false) -> Dict{String,String} ("node\$key" keys when recursive)."""
function list_attr(s::SymbolicNode; recursive::Bool=false)
    n = Ref{Cint}(0)
    p = Ref{Ptr{Ptr{UInt8}}}(C_NULL)
    check_call(ccall((:weft_symbol_list_attr, libweft()), Cint, (Ptr{Cvoid}, Cint, Ref{Cint}, Ref{Ptr{Ptr{UInt8}}}),
                     s, recursive ? 1 : 0, n, p))
    flat = read_strings(2 * n[], p[])
    return Dict{String,String}(flat[2i-1] => flat[2i] for i in 1:n[])
end

function Base.show(io::IO, s::SymbolicNode)
    if s.handle == C_NULL
        print(io, "SymbolicNode(released)")
    else
        print(io, "SymbolicNode(", join(list_outputs(s), ", "), ")")
    end
end

# ---- serialisation (MXNet 1.x JSON, FORMATS.md B) ------------------------------------------------
"""    to_json(s) -> String: the graph as MXNet 1.x JSON text."""
function to_json(s::SymbolicNode)
    p = Ref{Ptr{UInt8}}(C_NULL)
    check_call(ccall((:weft_symbol_to_json, libweft()), Cint, (Ptr{Cvoid}, Ref{Ptr{UInt8}}), s, p))
    return unsafe_string(p[])
end

"""    from_json(text) -> SymbolicNode."""
from_json(text::AbstractString) =
    _new_symbol(out -> ccall((:weft_symbol_from_json, libweft()), Cint, (Cstring, Ref{Ptr{Cvoid}}), text, out))

"""    save_symbol(fname, s): writes to_json(s) to a file (prefix-symbol.json)."""
function save_symbol(fname::AbstractString, s::SymbolicNode)
    text = to_json(s)
    try
        write(fname, text)
    catch e
        throw(WeftError("save_symbol: cannot write '$fname': $(sprint(showerror, e))", 7))
    end
    return nothing
end

"""    load_symbol(fname) -> SymbolicNode: reads a symbol JSON file."""
function load_symbol(fname::AbstractString)
    isfile(fname) || throw(WeftError("load_symbol: no such file '$fname'", 7))
    return from_json(read(fname, String))
end

# ---- shape inference ---------------------------------------------------------------------------------
julia_shape(dims::AbstractVector) = Tuple(Int.(reverse(dims)))

function _read_shapes(n::Integer, ndims::Ptr{Cint}, dims::Ptr{Ptr{Int64}})
    out = Union{Nothing,Tuple}[]
    for i in 1:n
        r = unsafe_load(ndims, i)
        if r < 0
            push!(out, nothing)
        else
            p = unsafe_load(dims, i)
            push!(out, julia_shape(Int64[unsafe_load(p, j) for j in 1:r]))
        end
    end
    return out
end

function _infer_shape(s::SymbolicNode, partial::Bool, shapes)
    names = String[]
    ndims = Cint[]
    data = Int64[]
    offsets = Int64[]
    for (k, v) in shapes
        (v isa Tuple || v isa AbstractVector) ||
            throw(WeftError("infer_shape: the shape of '$k' must be a tuple, got $(typeof(v))", 1))
        push!(names, String(k))
        push!(ndims, length(v))
        push!(offsets, length(data))
        append!(data, Int64[reverse(collect(Int64, v))...])    # Julia order -> library order
    end
    complete = Ref{Cint}(0)
    na, no, nx = Ref{Cint}(0), Ref{Cint}(0), Ref{Cint}(0)
    nda, ndo, ndx = Ref{Ptr{Cint}}(C_NULL), Ref{Ptr{Cint}}(C_NULL), Ref{Ptr{Cint}}(C_NULL)
    dda, ddo, ddx = Ref{Ptr{Ptr{Int64}}}(C_NULL), Ref{Ptr{Ptr{Int64}}}(C_NULL), Ref{Ptr{Ptr{Int64}}}(C_NULL)
    check_call(ccall((:weft_symbol_infer_shape, libweft()), Cint,
                     (Ptr{Cvoid}, Cint, Ptr{Cstring}, Ptr{Cint}, Ptr{Int64}, Ptr{Int64}, Cint, Ref{Cint},
                      Ref{Cint}, Ref{Ptr{Cint}}, Ref{Ptr{Ptr{Int64}}},
                      Ref{Cint}, Ref{Ptr{Cint}}, Ref{Ptr{Ptr{Int64}}},
                      Ref{Cint}, Ref{Ptr{Cint}}, Ref{Ptr{Ptr{Int64}}}),
                     s, length(names), names, ndims, data, offsets, partial ? 1 : 0, complete,
                     na, nda, dda, no, ndo, ddo, nx, ndx, ddx))
    # Valid until the next library call on this thread: read all three now.
    args = _read_shapes(na[], nda[], dda[])
    outs = _read_shapes(no[], ndo[], ddo[])
    auxs = _read_shapes(nx[], ndx[], ddx[])
    # MXNet 1.x legacy shapes: a 0 dimension means unknown.
    known = complete[] == 1 && all(sh -> sh !== nothing && !(0 in sh), vcat(args, outs, auxs))
    return (args, outs, auxs), known
end

"""
    infer_shape(s; name=shape...) -> (arg_shapes, out_shapes, aux_shapes) or nothing

Shapes of every argument, output and auxiliary state from the given input
shapes, all in Julia order (`data=(features, batch)`). Returns `nothing` when
the given shapes do not determine every shape; throws a WeftError naming the
node when they contradict each other."""
function infer_shape(s::SymbolicNode; shapes...)
    res, known = _infer_shape(s, true, shapes)
    return known ? res : nothing
end
infer_shape(s::SymbolicNode, shapes::AbstractDict) = infer_shape(s; (Base.Symbol(k) => v for (k, v) in shapes)...)

"""    infer_shape_partial(s; name=shape...) -> what is known (`nothing` for unknown shapes)."""
infer_shape_partial(s::SymbolicNode; shapes...) = _infer_shape(s, true, shapes)[1]

"""
    infer_type(s; name=T...) -> (arg_types, out_types, aux_types)

Element types (Julia types; `nothing` when unknown) from given ones; with
nothing given, Float32 is assumed."""
function infer_type(s::SymbolicNode; types...)
    names = String[String(k) for (k, _) in types]
    flags = Cint[dtype_flag(v) for (_, v) in types]
    complete = Ref{Cint}(0)
    na, no, nx = Ref{Cint}(0), Ref{Cint}(0), Ref{Cint}(0)
    ta, to, tx = Ref{Ptr{Cint}}(C_NULL), Ref{Ptr{Cint}}(C_NULL), Ref{Ptr{Cint}}(C_NULL)
    check_call(ccall((:weft_symbol_infer_type, libweft()), Cint,
                     (Ptr{Cvoid}, Cint, Ptr{Cstring}, Ptr{Cint}, Ref{Cint}, Ref{Cint}, Ref{Ptr{Cint}},
                      Ref{Cint}, Ref{Ptr{Cint}}, Ref{Cint}, Ref{Ptr{Cint}}),
                     s, length(names), names, flags, complete, na, ta, no, to, nx, tx))
    flags_of(n, p) = Int[unsafe_load(p, i) for i in 1:n]
    fa, fo, fx = flags_of(na[], ta[]), flags_of(no[], to[]), flags_of(nx[], tx[])
    conv(fs) = Union{Nothing,DataType}[f < 0 ? nothing : julia_type(f) for f in fs]
    return conv(fa), conv(fo), conv(fx)
end

# ---- arithmetic on symbols -------------------------------------------------------------------------
Base.:+(a::SymbolicNode, b::SymbolicNode) = compose("elemwise_add", a, b; name=auto_name("_plus"))
Base.:-(a::SymbolicNode, b::SymbolicNode) = compose("elemwise_sub", a, b; name=auto_name("_minus"))
Base.:+(a::SymbolicNode, s::Real) = compose("_plus_scalar", a; name=auto_name("_plusscalar"), scalar=s)
Base.:+(s::Real, a::SymbolicNode) = a + s
Base.:-(a::SymbolicNode, s::Real) = compose("_minus_scalar", a; name=auto_name("_minusscalar"), scalar=s)
Base.:-(s::Real, a::SymbolicNode) = compose("_rminus_scalar", a; name=auto_name("_rminusscalar"), scalar=s)
Base.:*(a::SymbolicNode, s::Real) = compose("_mul_scalar", a; name=auto_name("_mulscalar"), scalar=s)
Base.:*(s::Real, a::SymbolicNode) = a * s
Base.:/(a::SymbolicNode, s::Real) = compose("_div_scalar", a; name=auto_name("_divscalar"), scalar=s)
Base.:-(a::SymbolicNode) = compose("negative", a; name=auto_name("negative"))
Base.broadcasted(::typeof(*), a::SymbolicNode, b::SymbolicNode) = compose("broadcast_mul", a, b; name=auto_name("_mul"))
Base.broadcasted(::typeof(/), a::SymbolicNode, b::SymbolicNode) = compose("broadcast_div", a, b; name=auto_name("_div"))
Base.broadcasted(::typeof(+), a::SymbolicNode, b::SymbolicNode) = compose("broadcast_add", a, b; name=auto_name("_plus"))
Base.broadcasted(::typeof(-), a::SymbolicNode, b::SymbolicNode) = compose("broadcast_sub", a, b; name=auto_name("_minus"))
