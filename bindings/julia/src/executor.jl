# Executor: a SymbolicNode bound to arrays on a device. The graph passes run
# once at bind; forward / backward push the cached op sequence to the same
# engine NDArray operations use, so `forward(exe); backward(exe)` followed by
# update operators on the weights needs no synchronisation.

const GRAD_REQ_FLAGS = Dict(:null => 0, :write => 1, :add => 3)

"""
    Executor

A bound graph. Fields: `arg_arrays`, `grad_arrays` (`nothing` where no
gradient is computed), `aux_arrays`, `outputs` (fixed at bind; forward writes
into them), and the names `arg_names`, `aux_names`, `out_names`. See
[`arg_dict`](@ref), [`grad_dict`](@ref), [`aux_dict`](@ref)."""
mutable struct Executor
    handle::Ptr{Cvoid}
    symbol::SymbolicNode
    ctx::Context
    arg_names::Vector{String}
    aux_names::Vector{String}
    out_names::Vector{String}
    arg_arrays::Vector{NDArray}
    grad_arrays::Vector{Union{Nothing,NDArray}}
    aux_arrays::Vector{NDArray}
    outputs::Vector{NDArray}
    function Executor(handle::Ptr{Cvoid}, s::SymbolicNode, ctx::Context, args, grads, aux)
        handle == C_NULL && throw(WeftError("Executor: the library returned a NULL handle", 8))
        exe = new(handle, s, ctx, list_arguments(s), list_auxiliary_states(s), list_outputs(s),
                  args, grads, aux, NDArray[])
        finalizer(e -> (h = e.handle; e.handle = C_NULL; _executor_free(h)), exe)
        exe.outputs = _executor_outputs(exe)
        return exe
    end
end

_executor_free(h::Ptr{Cvoid}) = ccall((:weft_executor_free, libweft()), Cvoid, (Ptr{Cvoid},), h)

Base.cconvert(::Type{Ptr{Cvoid}}, e::Executor) = e
function Base.unsafe_convert(::Type{Ptr{Cvoid}}, e::Executor)
    e.handle == C_NULL && throw(WeftError("Executor: the executor has been released"))
    return e.handle
end

function _executor_outputs(exe::Executor)
    n = Ref{Cint}(0)
    p = Ref{Ptr{Ptr{Cvoid}}}(C_NULL)
    check_call(ccall((:weft_executor_outputs, libweft()), Cint, (Ptr{Cvoid}, Ref{Cint}, Ref{Ptr{Ptr{Cvoid}}}),
                     exe, n, p))
    raw = Ptr{Cvoid}[unsafe_load(p[], i) for i in 1:n[]]
    return NDArray[NDArray(h) for h in raw]
end

# A list in `names` order from a vector or a dict (nothing where missing and allowed).
function _in_order(what::String, given, names::Vector{String}, allow_missing::Bool)
    if given === nothing
        allow_missing && return Union{Nothing,NDArray}[nothing for _ in names]
        given = NDArray[]
    end
    if given isa AbstractDict
        out = Union{Nothing,NDArray}[]
        for n in names
            if haskey(given, n)
                push!(out, given[n])
            elseif allow_missing
                push!(out, nothing)
            else
                throw(WeftError("bind: $what lacks '$n'", 1))
            end
        end
        return out
    end
    length(given) == length(names) ||
        throw(WeftError("bind: $what has $(length(given)) arrays, the symbol has $(length(names)) " *
                        "($(join(names, ", ")))", 1))
    for (n, a) in zip(names, given)
        (a isa NDArray || (allow_missing && a === nothing)) ||
            throw(WeftError("bind: $what['$n'] must be an NDArray, got $(typeof(a))", 1))
    end
    return Union{Nothing,NDArray}[a for a in given]
end

function _grad_reqs(grad_req, names::Vector{String})
    reqs = if grad_req isa Base.Symbol || grad_req isa AbstractString
        fill(Base.Symbol(grad_req), length(names))
    elseif grad_req isa AbstractDict
        for k in keys(grad_req)
            String(k) in names || throw(WeftError("grad_req names an unknown argument '$k'", 1))
        end
        [Base.Symbol(get(grad_req, n, :null)) for n in names]
    else
        length(grad_req) == length(names) ||
            throw(WeftError("grad_req has $(length(grad_req)) entries, the symbol has $(length(names)) arguments", 1))
        [Base.Symbol(r) for r in grad_req]
    end
    for r in reqs
        haskey(GRAD_REQ_FLAGS, r) || throw(WeftError("grad_req must be :write, :add or :null, got :$r", 1))
    end
    return reqs
end

"""
    bind(s::SymbolicNode, ctx::Context, args; args_grad=nothing, grad_req=:write, aux_states=nothing) -> Executor

Binds `s` to arrays: `args` (and `args_grad`, `aux_states`) are vectors in
`list_arguments` (`list_auxiliary_states`) order or Dicts by name. An argument
without a gradient array gets none; `grad_req` is `:write`, `:add`, `:null`, a
vector of them, or a Dict by name (missing names: `:null`)."""
function Base.bind(s::SymbolicNode, ctx::Context, args; args_grad=nothing, grad_req=:write, aux_states=nothing)
    arg_names = list_arguments(s)
    aux_names = list_auxiliary_states(s)
    arg_arrays = NDArray[a for a in _in_order("args", args, arg_names, false)]
    grad_arrays = _in_order("args_grad", args_grad, arg_names, true)
    aux_arrays = NDArray[a for a in _in_order("aux_states", aux_states === nothing && isempty(aux_names) ?
                                                             NDArray[] : aux_states, aux_names, false)]
    reqs = _grad_reqs(grad_req, arg_names)
    flags = Cint[g === nothing ? 0 : GRAD_REQ_FLAGS[r] for (r, g) in zip(reqs, grad_arrays)]
    grads = Union{Nothing,NDArray}[f == 0 ? nothing : g for (f, g) in zip(flags, grad_arrays)]
    ah = handles(arg_arrays)
    gh = handles(grad_arrays)
    xh = handles(aux_arrays)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    rc = GC.@preserve s arg_arrays grad_arrays aux_arrays ccall((:weft_executor_bind, libweft()), Cint,
        (Ptr{Cvoid}, Cint, Cint, Cint, Ptr{Ptr{Cvoid}}, Ptr{Ptr{Cvoid}}, Ptr{Cint}, Cint, Ptr{Ptr{Cvoid}},
         Ref{Ptr{Cvoid}}),
        s, ctx.dev_type, ctx.dev_id, length(ah), ah, gh, flags, length(xh), xh, out)
    check_call(rc)
    return Executor(out[], copy(s), ctx, arg_arrays, grads, aux_arrays)
end

"""
    simple_bind(s, ctx; grad_req=:write, shapes...) -> Executor

Infers every shape from the given input shapes (Julia order, e.g.
`data=(features, batch)`), allocates zero-filled arguments, gradients (for
grad_req other than `:null`) and auxiliary states, and binds."""
function simple_bind(s::SymbolicNode, ctx::Context; grad_req=:write, shapes...)
    (arg_shapes, _, aux_shapes), known = _infer_shape(s, true, shapes)
    if !known
        unknown = [n for (n, sh) in zip(list_arguments(s), arg_shapes) if sh === nothing || 0 in sh]
        append!(unknown, [n for (n, sh) in zip(list_auxiliary_states(s), aux_shapes) if sh === nothing || 0 in sh])
        throw(WeftError("simple_bind: cannot infer the shapes of " *
                        (isempty(unknown) ? "some internal entries" : join(unknown, ", ")) *
                        " from $(Dict(String(k) => v for (k, v) in shapes))", 2))
    end
    arg_types, _, aux_types = infer_type(s)
    names = list_arguments(s)
    reqs = _grad_reqs(grad_req, names)
    args = NDArray[nd_zeros(something(t, Float32), sh...; ctx=ctx) for (sh, t) in zip(arg_shapes, arg_types)]
    grads = Union{Nothing,NDArray}[r === :null ? nothing : nd_zeros(something(t, Float32), sh...; ctx=ctx)
                                   for (sh, t, r) in zip(arg_shapes, arg_types, reqs)]
    aux = NDArray[nd_zeros(something(t, Float32), sh...; ctx=ctx) for (sh, t) in zip(aux_shapes, aux_types)]
    return bind(s, ctx, args; args_grad=grads, grad_req=reqs, aux_states=aux)
end

"""
    forward(exe; is_train=false, inputs...) -> Vector{NDArray}

Copies the given inputs (Julia arrays or NDArrays of the bound sizes, by
argument name) into the executor, runs the graph and returns `exe.outputs`."""
function forward(exe::Executor; is_train::Bool=false, inputs...)
    for (k, v) in inputs
        idx = findfirst(==(String(k)), exe.arg_names)
        idx === nothing && throw(WeftError("forward: unknown argument '$k' (arguments: $(join(exe.arg_names, ", ")))", 1))
        dst = exe.arg_arrays[idx]
        size(v) == size(dst) ||
            throw(WeftError("forward: argument '$k' has size $(size(dst)), got $(size(v))", 2))
        copyto!(dst, v)
    end
    check_call(ccall((:weft_executor_forward, libweft()), Cint, (Ptr{Cvoid}, Cint), exe, is_train ? 1 : 0))
    return exe.outputs
end

"""
    backward(exe, out_grads=NDArray[])

Computes the gradients of the arguments bound with `:write` / `:add`.
`out_grads` holds the gradient of each output (none: ones; loss outputs such
as SoftmaxOutput ignore it)."""
function backward(exe::Executor, out_grads::AbstractVector=NDArray[])
    grads = NDArray[g for g in out_grads]
    hs = handles(grads)
    rc = GC.@preserve grads ccall((:weft_executor_backward, libweft()), Cint, (Ptr{Cvoid}, Cint, Ptr{Ptr{Cvoid}}),
                                  exe, length(hs), hs)
    check_call(rc)
    return nothing
end
backward(exe::Executor, g::NDArray) = backward(exe, NDArray[g])

"""    arg_dict(exe) -> Dict{String,NDArray}"""
arg_dict(exe::Executor) = Dict(zip(exe.arg_names, exe.arg_arrays))
"""    grad_dict(exe) -> Dict{String,NDArray}: the arguments that have a gradient."""
grad_dict(exe::Executor) = Dict(n => g for (n, g) in zip(exe.arg_names, exe.grad_arrays) if g !== nothing)
"""    aux_dict(exe) -> Dict{String,NDArray}"""
aux_dict(exe::Executor) = Dict(zip(exe.aux_names, exe.aux_arrays))
"""    output_dict(exe) -> Dict{String,NDArray}"""
output_dict(exe::Executor) = Dict(zip(exe.out_names, exe.outputs))

"""
    copy_params_from!(exe, arg_params, aux_params=nothing; allow_extra=false)

Copies arrays (by name) into the executor's arguments and auxiliary states; a
name the executor lacks is an error unless `allow_extra`."""
function copy_params_from!(exe::Executor, arg_params::AbstractDict, aux_params=nothing; allow_extra::Bool=false)
    for (table, names, arrays, what) in ((arg_params, exe.arg_names, exe.arg_arrays, "argument"),
                                         (something(aux_params, Dict{String,NDArray}()), exe.aux_names,
                                          exe.aux_arrays, "auxiliary state"))
        for (k, v) in table
            idx = findfirst(==(String(k)), names)
            if idx === nothing
                allow_extra || throw(WeftError("copy_params_from!: '$k' is not an $what of the executor", 1))
                continue
            end
            size(v) == size(arrays[idx]) ||
                throw(WeftError("copy_params_from!: '$k' has size $(size(v)), the executor's $(size(arrays[idx]))", 2))
            copyto!(arrays[idx], v)
        end
    end
    return exe
end

"""    debug_str(exe) -> String: the executor's steps, memory plan and total allocation."""
function debug_str(exe::Executor)
    p = Ref{Ptr{UInt8}}(C_NULL)
    check_call(ccall((:weft_executor_debug_str, libweft()), Cint, (Ptr{Cvoid}, Ref{Ptr{UInt8}}), exe, p))
    return unsafe_string(p[])
end

"""    internal_bytes(exe) -> Int: bytes of the executor's own arrays."""
function internal_bytes(exe::Executor)
    b = Ref{Int64}(0)
    check_call(ccall((:weft_executor_internal_bytes, libweft()), Cint, (Ptr{Cvoid}, Ref{Int64}), exe, b))
    return Int(b[])
end

Base.show(io::IO, exe::Executor) = print(io, "Executor(", join(exe.out_names, ", "), ") @", exe.ctx)
