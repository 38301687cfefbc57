# Optimizers: each step runs the registry's update operator on the weight in
# place (out=weight), so updates are engine operations like everything else.
# rescale_grad is 1/batch_size (loss outputs such as SoftmaxOutput sum over
# the batch, as in MXNet).

abstract type AbstractOptimizer end

"""
    SGD(; lr=0.01, momentum=0.0, wd=0.0001, clip_gradient=-1)

Stochastic gradient descent through `sgd_update`, or `sgd_mom_update` when
momentum > 0 (one momentum array per parameter)."""
mutable struct SGD <: AbstractOptimizer
    lr::Float64
    momentum::Float64
    wd::Float64
    clip_gradient::Float64
    states::Dict{Int,NDArray}
end
SGD(; lr::Real=0.01, momentum::Real=0.0, wd::Real=0.0001, clip_gradient::Real=-1) =
    SGD(lr, momentum, wd, clip_gradient, Dict{Int,NDArray}())

"""
    Adam(; lr=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, wd=0.0, clip_gradient=-1)

Adam through `adam_update` (mean and variance arrays per parameter); the bias
correction is folded into the step's learning rate, as MXNet's optimizer does."""
mutable struct Adam <: AbstractOptimizer
    lr::Float64
    beta1::Float64
    beta2::Float64
    epsilon::Float64
    wd::Float64
    clip_gradient::Float64
    steps::Dict{Int,Int}
    states::Dict{Int,Tuple{NDArray,NDArray}}
end
Adam(; lr::Real=0.001, beta1::Real=0.9, beta2::Real=0.999, epsilon::Real=1e-8, wd::Real=0.0, clip_gradient::Real=-1) =
    Adam(lr, beta1, beta2, epsilon, wd, clip_gradient, Dict{Int,Int}(), Dict{Int,Tuple{NDArray,NDArray}}())

zeros_like(a::NDArray) = nd_zeros(eltype(a), size(a)...; ctx=context(a))

"""    update!(opt, index, weight, grad, rescale_grad): one step on parameter `index`."""
function update!(opt::SGD, index::Int, weight::NDArray, grad::NDArray, rescale_grad::Real)
    if opt.momentum == 0
        call_op("sgd_update", weight, grad; lr=opt.lr, wd=opt.wd, rescale_grad=rescale_grad,
                clip_gradient=opt.clip_gradient, out=weight)
    else
        mom = get!(() -> zeros_like(weight), opt.states, index)
        call_op("sgd_mom_update", weight, grad, mom; lr=opt.lr, momentum=opt.momentum, wd=opt.wd,
                rescale_grad=rescale_grad, clip_gradient=opt.clip_gradient, out=weight)
    end
    return weight
end

function update!(opt::Adam, index::Int, weight::NDArray, grad::NDArray, rescale_grad::Real)
    mean, var = get!(() -> (zeros_like(weight), zeros_like(weight)), opt.states, index)
    t = get(opt.steps, index, 0) + 1
    opt.steps[index] = t
    lr = opt.lr * sqrt(1 - opt.beta2^t) / (1 - opt.beta1^t)
    call_op("adam_update", weight, grad, mean, var; lr=lr, beta1=opt.beta1, beta2=opt.beta2, epsilon=opt.epsilon,
            wd=opt.wd, rescale_grad=rescale_grad, clip_gradient=opt.clip_gradient, out=weight)
    return weight
end
