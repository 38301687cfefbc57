# Training progress and callbacks. A callback is called with the TrainState
# after every `every` batches (BatchCallback) or epochs (EpochCallback); when
# it returns `false` or `:stop`, training stops after the current batch
# (early stopping).

"""
    TrainState

What callbacks see: `epoch`, `n_epoch`, `batch`, `n_batch`, `metric`
(name => value of the running training metric), `eval_metric` (name =>
value on eval_data, or nothing), `elapsed` seconds of the epoch, `model`."""
mutable struct TrainState
    epoch::Int
    n_epoch::Int
    batch::Int
    n_batch::Int
    metric::Pair{String,Float64}
    eval_metric::Union{Nothing,Pair{String,Float64}}
    elapsed::Float64
    model::Any
end

abstract type AbstractCallback end

"""    BatchCallback(f; every=1): calls f(state) after every `every` batches."""
struct BatchCallback <: AbstractCallback
    every::Int
    f::Function
end
BatchCallback(f::Function; every::Integer=1) = BatchCallback(Int(every), f)

"""    EpochCallback(f; every=1): calls f(state) after every `every` epochs."""
struct EpochCallback <: AbstractCallback
    every::Int
    f::Function
end
EpochCallback(f::Function; every::Integer=1) = EpochCallback(Int(every), f)

wants_stop(r) = r === false || r === :stop

"""
    do_checkpoint(prefix; every=1) -> EpochCallback

Saves `prefix-symbol.json` and `prefix-<epoch>.params` (save_checkpoint) after
every `every` epochs."""
do_checkpoint(prefix::AbstractString; every::Integer=1) =
    EpochCallback(state -> (save_checkpoint(state.model, prefix, state.epoch); nothing); every=every)

"""
    early_stop(; patience=2, min_delta=0.0) -> EpochCallback

Stops when the monitored metric (eval_data's if given, else the training
one; accuracy: higher is better, others lower) has not improved by min_delta
for `patience` epochs."""
function early_stop(; patience::Integer=2, min_delta::Real=0.0)
    best = Ref(NaN)
    waited = Ref(0)
    return EpochCallback() do state
        name, value = something(state.eval_metric, state.metric)
        higher = name == "accuracy"
        improved = isnan(best[]) || (higher ? value > best[] + min_delta : value < best[] - min_delta)
        if improved
            best[] = value
            waited[] = 0
            return nothing
        end
        waited[] += 1
        return waited[] >= patience ? :stop : nothing
    end
end

# A one-line text progress bar, redrawn in place ("\r") on a terminal.
function show_progress(io::IO, state::TrainState; width::Int=30)
    done = state.n_batch == 0 ? width : round(Int, width * state.batch / state.n_batch)
    bar = repeat("=", max(done - 1, 0)) * (done > 0 ? ">" : "") * repeat(" ", width - done)
    @printf(io, "\rEpoch %d/%d [%s] %d/%d  train-%s=%.4f  %.1fs", state.epoch, state.n_epoch, bar, state.batch,
            state.n_batch, first(state.metric), last(state.metric), state.elapsed)
    flush(io)
end

function show_epoch(io::IO, state::TrainState)
    show_progress(io, state)
    if state.eval_metric !== nothing
        @printf(io, "  eval-%s=%.4f", first(state.eval_metric), last(state.eval_metric))
    end
    println(io)
end
