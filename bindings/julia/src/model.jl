# A feed-forward model: a symbol with its parameters, trained by `fit`, used by
# `predict`, saved and loaded as MXNet 1.x checkpoints (FORMATS.md A.7):
# prefix-symbol.json and prefix-%04d.params with keys arg:<name> / aux:<name>.
#
# Data layout (Note [Layout]): samples run along the *last* Julia dimension.
# X has Julia size (features..., n) and y length n (class indices from 0 for
# SoftmaxOutput); predictions come back as (outputs..., n).

"""
    FeedForward(s::SymbolicNode; ctx=cpu())

A model: the symbol, its device, and `arg_params` / `aux_params` (Dicts of
NDArrays by name; empty until trained or loaded)."""
mutable struct FeedForward
    symbol::SymbolicNode
    ctx::Context
    arg_params::Dict{String,NDArray}
    aux_params::Dict{String,NDArray}
end
FeedForward(s::SymbolicNode; ctx::Context=cpu()) =
    FeedForward(s, ctx, Dict{String,NDArray}(), Dict{String,NDArray}())

Base.show(io::IO, m::FeedForward) =
    print(io, "FeedForward(", join(list_outputs(m.symbol), ", "), "; ", length(m.arg_params), " parameters @", m.ctx, ")")

# Arguments that are data or labels (not parameters): data_name and every "*label".
function input_names(s::SymbolicNode, data_name::String, label_name::Union{Nothing,String})
    args = list_arguments(s)
    data_name in args || throw(WeftError("the symbol has no data argument '$data_name' (arguments: $(join(args, ", ")))", 1))
    labels = label_name === nothing ? [a for a in args if endswith(a, "label")] : [label_name]
    for l in labels
        l in args || throw(WeftError("the symbol has no label argument '$l' (arguments: $(join(args, ", ")))", 1))
    end
    return labels
end

# Columns idx of X (the last dimension) as a dense Julia array.
batch_of(X::AbstractArray, idx) = collect(selectdim(X, ndims(X), idx))

# Sample indices of batch b, padded to batch_size by wrapping around (padding
# samples are fed but not counted).
function batch_indices(order::AbstractVector{Int}, b::Int, batch_size::Int)
    n = length(order)
    lo = (b - 1) * batch_size + 1
    hi = min(b * batch_size, n)
    idx = order[lo:hi]
    valid = length(idx)
    k = 0
    while length(idx) < batch_size
        push!(idx, order[k % n + 1])
        k += 1
    end
    return idx, valid
end

function check_data(X::AbstractArray, y::Union{Nothing,AbstractVector}, what::String)
    ndims(X) >= 1 || throw(WeftError("$what: X must have samples along its last dimension", 1))
    n = size(X, ndims(X))
    n > 0 || throw(WeftError("$what: X has no samples", 1))
    y === nothing || length(y) == n ||
        throw(WeftError("$what: X has $n samples (its last dimension) but y has $(length(y))", 2))
    return n
end

"""
    fit(model::FeedForward, X, y; kwargs...) -> model
    fit(s::SymbolicNode, X, y; ctx=cpu(), kwargs...) -> FeedForward

Trains on X (Julia size (features..., n)) and y (n labels) by mini-batch
gradient descent. Keyword arguments:

- `n_epoch=10`, `batch_size=32`, `shuffle=true`, `rng=Random.default_rng()`
- `optimizer=SGD()` (or `Adam()`), `initializer=UniformInitializer(0.07)`
  (used for parameters the model does not have yet)
- `eval_metric=Accuracy()`, `eval_data=nothing` (or `(X_val, y_val)`)
- `callbacks=[]` ([`BatchCallback`](@ref), [`EpochCallback`](@ref),
  [`do_checkpoint`](@ref), [`early_stop`](@ref)); a callback returning `false`
  or `:stop` ends training
- `verbosity=1` (0 silent, 1 a line per epoch, 2 a progress bar per batch),
  `io=stdout`
- `data_name="data"`, `label_name=nothing` (default: the argument ending in "label")"""
function fit(model::FeedForward, X::AbstractArray, y::AbstractVector; n_epoch::Integer=10, batch_size::Integer=32,
             shuffle::Bool=true, rng::AbstractRNG=Random.default_rng(), optimizer::AbstractOptimizer=SGD(),
             initializer::AbstractInitializer=UniformInitializer(0.07), eval_metric::AbstractMetric=Accuracy(),
             eval_data=nothing, callbacks::AbstractVector=AbstractCallback[], verbosity::Integer=1, io::IO=stdout,
             data_name::AbstractString="data", label_name::Union{Nothing,AbstractString}=nothing)
    n = check_data(X, y, "fit")
    batch_size > 0 || throw(WeftError("fit: batch_size must be positive", 1))
    s = model.symbol
    labels = input_names(s, String(data_name), label_name === nothing ? nothing : String(label_name))
    length(labels) <= 1 || throw(WeftError("fit: the symbol has several label arguments ($(join(labels, ", "))); " *
                                           "name the one y feeds with label_name", 1))
    inputs = vcat(String(data_name), labels)
    params = [a for a in list_arguments(s) if !(a in inputs)]

    shapes = Dict{Base.Symbol,Any}(Base.Symbol(data_name) => (size(X)[1:end-1]..., batch_size))
    isempty(labels) || (shapes[Base.Symbol(labels[1])] = (batch_size,))
    grad_req = Dict{String,Base.Symbol}(p => :write for p in params)
    exe = simple_bind(s, model.ctx; grad_req=grad_req, shapes...)
    init_params!(model, exe, params, initializer, rng)

    data_arr = arg_dict(exe)[String(data_name)]
    label_arr = isempty(labels) ? nothing : arg_dict(exe)[labels[1]]
    param_idx = [(i, exe.arg_arrays[i], exe.grad_arrays[i]) for i in eachindex(exe.arg_names)
                 if exe.arg_names[i] in params && exe.grad_arrays[i] !== nothing]
    n_batch = cld(n, batch_size)
    state = TrainState(0, n_epoch, 0, n_batch, "" => NaN, nothing, 0.0, model)
    label_T = label_arr === nothing ? Float32 : eltype(label_arr)
    stop = false
    for epoch in 1:n_epoch
        reset!(eval_metric)
        t0 = time()
        order = shuffle ? randperm(rng, n) : collect(1:n)
        state.epoch = epoch
        state.eval_metric = nothing
        for b in 1:n_batch
            idx, valid = batch_indices(order, b, batch_size)
            copy_from!(data_arr, batch_of(X, idx))
            label_arr === nothing || copy_from!(label_arr, label_T.(y[idx]))
            forward(exe; is_train=true)
            backward(exe)
            for (i, w, g) in param_idx
                update!(optimizer, i, w, g, 1 / batch_size)
            end
            update!(eval_metric, y[idx], Array(exe.outputs[1]), valid)
            state.batch = b
            state.metric = Pair(metric_value(eval_metric)...)
            state.elapsed = time() - t0
            verbosity >= 2 && show_progress(io, state)
            for cb in callbacks
                if cb isa BatchCallback && b % cb.every == 0
                    wants_stop(cb.f(state)) && (stop = true)
                end
            end
            stop && break
        end
        wait_all()
        state.elapsed = time() - t0
        if eval_data !== nothing
            Xv, yv = eval_data
            m = score(model, Xv, yv; metric=typeof(eval_metric)(), batch_size=batch_size,
                      data_name=data_name, label_name=isempty(labels) ? nothing : labels[1])
            state.eval_metric = Pair(metric_value(m)...)
        end
        verbosity >= 1 && show_epoch(io, state)
        for cb in callbacks
            if cb isa EpochCallback && epoch % cb.every == 0
                wants_stop(cb.f(state)) && (stop = true)
            end
        end
        stop && break
    end
    return model
end

fit(s::SymbolicNode, X::AbstractArray, y::AbstractVector; ctx::Context=cpu(), kwargs...) =
    fit(FeedForward(s; ctx=ctx), X, y; kwargs...)

# The model's parameters become the executor's arrays: values the model already
# has (a loaded checkpoint, an earlier fit) are copied in, the rest initialised.
function init_params!(model::FeedForward, exe::Executor, params::Vector{String}, init::AbstractInitializer,
                      rng::AbstractRNG)
    args = arg_dict(exe)
    for p in params
        a = args[p]
        if haskey(model.arg_params, p)
            size(model.arg_params[p]) == size(a) ||
                throw(WeftError("fit: parameter '$p' has size $(size(model.arg_params[p])), the network needs $(size(a))", 2))
            copyto!(a, model.arg_params[p])
        else
            init_value!(init, rng, p, a)
        end
        model.arg_params[p] = a
    end
    for (p, a) in aux_dict(exe)
        if haskey(model.aux_params, p)
            copyto!(a, model.aux_params[p])
        else
            init_value!(init, rng, p, a)
        end
        model.aux_params[p] = a
    end
    return model
end

# An inference executor for batches of batch_size with the model's parameters.
function inference_executor(model::FeedForward, X::AbstractArray, batch_size::Int, data_name::String,
                            label_name::Union{Nothing,String})
    s = model.symbol
    labels = input_names(s, data_name, label_name)
    shapes = Dict{Base.Symbol,Any}(Base.Symbol(data_name) => (size(X)[1:end-1]..., batch_size))
    for l in labels
        shapes[Base.Symbol(l)] = (batch_size,)
    end
    exe = simple_bind(s, model.ctx; grad_req=:null, shapes...)
    inputs = vcat(data_name, labels)
    for p in exe.arg_names
        p in inputs && continue
        haskey(model.arg_params, p) || throw(WeftError("predict: the model has no value for parameter '$p'", 5))
    end
    for p in exe.aux_names
        haskey(model.aux_params, p) || throw(WeftError("predict: the model has no value for auxiliary state '$p'", 5))
    end
    copy_params_from!(exe, model.arg_params, model.aux_params; allow_extra=true)
    return exe, labels
end

"""
    predict(model::FeedForward, X; batch_size=32, data_name="data") -> Array

The first output of the network for every sample of X (samples along the
last dimension), in inference mode; Julia size (outputs..., n)."""
function predict(model::FeedForward, X::AbstractArray; batch_size::Integer=32, data_name::AbstractString="data",
                 label_name::Union{Nothing,AbstractString}=nothing)
    n = check_data(X, nothing, "predict")
    exe, _ = inference_executor(model, X, Int(batch_size), String(data_name),
                                label_name === nothing ? nothing : String(label_name))
    data_arr = arg_dict(exe)[String(data_name)]
    result = nothing
    order = collect(1:n)
    for b in 1:cld(n, batch_size)
        idx, valid = batch_indices(order, b, Int(batch_size))
        copy_from!(data_arr, batch_of(X, idx))
        out = Array(forward(exe; is_train=false)[1])
        if result === nothing
            result = Array{eltype(out)}(undef, size(out)[1:end-1]..., n)
        end
        lo = (b - 1) * batch_size
        selectdim(result, ndims(result), lo+1:lo+valid) .= selectdim(out, ndims(out), 1:valid)
    end
    return result
end

"""    score(model, X, y; metric=Accuracy(), batch_size=32) -> metric: evaluates the model on (X, y)."""
function score(model::FeedForward, X::AbstractArray, y::AbstractVector; metric::AbstractMetric=Accuracy(),
               batch_size::Integer=32, data_name::AbstractString="data",
               label_name::Union{Nothing,AbstractString}=nothing)
    check_data(X, y, "score")
    out = predict(model, X; batch_size=batch_size, data_name=data_name, label_name=label_name)
    reset!(metric)
    update!(metric, y, out, length(y))
    return metric
end

# ---- checkpoints ---------------------------------------------------------------------------------
checkpoint_params_file(prefix::AbstractString, epoch::Integer) = @sprintf("%s-%04d.params", prefix, epoch)

"""
    save_checkpoint(prefix, epoch, s, arg_params, aux_params)
    save_checkpoint(model::FeedForward, prefix, epoch)

Writes `prefix-symbol.json` and `prefix-%04d.params` (keys `arg:<name>`,
`aux:<name>`, in the symbol's argument / auxiliary-state order) — the files
MXNet's `save_checkpoint` writes and every Weft binding loads."""
function save_checkpoint(prefix::AbstractString, epoch::Integer, s::SymbolicNode, arg_params::AbstractDict,
                         aux_params::AbstractDict)
    save_symbol(string(prefix, "-symbol.json"), s)
    pairs = Pair{String,NDArray}[]
    ordered(names, table) = vcat([n for n in names if haskey(table, n)],
                                 sort!([String(k) for k in keys(table) if !(String(k) in names)]))
    for k in ordered(list_arguments(s), arg_params)
        push!(pairs, "arg:" * k => arg_params[k])
    end
    for k in ordered(list_auxiliary_states(s), aux_params)
        push!(pairs, "aux:" * k => aux_params[k])
    end
    save_ndarrays(checkpoint_params_file(prefix, epoch), pairs)
    return nothing
end
save_checkpoint(model::FeedForward, prefix::AbstractString, epoch::Integer) =
    save_checkpoint(prefix, epoch, model.symbol, model.arg_params, model.aux_params)

"""
    load_checkpoint(prefix, epoch) -> (symbol, arg_params, aux_params)
    load_checkpoint(prefix, epoch, FeedForward; ctx=cpu()) -> FeedForward

Reads a checkpoint written by any Weft binding or by MXNet 1.x."""
function load_checkpoint(prefix::AbstractString, epoch::Integer)
    s = load_symbol(string(prefix, "-symbol.json"))
    loaded = load_ndarrays(checkpoint_params_file(prefix, epoch))
    arg_params = Dict{String,NDArray}()
    aux_params = Dict{String,NDArray}()
    loaded isa AbstractVector{NDArray} && !isempty(loaded) &&
        throw(WeftError("load_checkpoint: $(checkpoint_params_file(prefix, epoch)) holds unnamed arrays", 7))
    for (k, v) in loaded
        if startswith(k, "arg:")
            arg_params[k[5:end]] = v
        elseif startswith(k, "aux:")
            aux_params[k[5:end]] = v
        else
            throw(WeftError("load_checkpoint: key '$k' has neither the 'arg:' nor the 'aux:' prefix", 7))
        end
    end
    return s, arg_params, aux_params
end

function load_checkpoint(prefix::AbstractString, epoch::Integer, ::Type{FeedForward}; ctx::Context=cpu())
    s, args, auxs = load_checkpoint(prefix, epoch)
    return FeedForward(s, ctx, args, auxs)
end
