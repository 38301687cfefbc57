# Parameter initializers (MXNet's rules by name): biases, betas and moving
# means start at 0; gammas and moving variances at 1; every other parameter
# (weights) is drawn by the initializer. Values are drawn with Julia's RNG on
# the host (reproducible with a seeded rng) and copied to the array.

abstract type AbstractInitializer end

"""    UniformInitializer(scale=0.07): weights uniform on [-scale, scale]."""
struct UniformInitializer <: AbstractInitializer
    scale::Float64
end
UniformInitializer() = UniformInitializer(0.07)

"""    NormalInitializer(sigma=0.01): weights normal with mean 0 and standard deviation sigma."""
struct NormalInitializer <: AbstractInitializer
    sigma::Float64
end
NormalInitializer() = NormalInitializer(0.01)

"""
    XavierInitializer(; distribution=:uniform, regularization=:avg, magnitude=3)

Glorot's initialisation: scale = sqrt(magnitude / n) with n the fan-in
(:fan_in), fan-out (:fan_out) or their mean (:avg); uniform on [-scale, scale] or normal
with standard deviation scale."""
struct XavierInitializer <: AbstractInitializer
    distribution::Base.Symbol
    regularization::Base.Symbol
    magnitude::Float64
end
function XavierInitializer(; distribution::Base.Symbol=:uniform, regularization::Base.Symbol=:avg, magnitude::Real=3)
    distribution in (:uniform, :normal) || throw(WeftError("XavierInitializer: distribution must be :uniform or :normal", 1))
    regularization in (:avg, :fan_in, :fan_out) ||
        throw(WeftError("XavierInitializer: regularization must be :avg, :fan_in or :fan_out", 1))
    return XavierInitializer(distribution, regularization, Float64(magnitude))
end

draw(init::UniformInitializer, rng::AbstractRNG, ::Type{T}, dims) where {T} =
    T.((rand(rng, Float64, dims...) .* 2 .- 1) .* init.scale)
draw(init::NormalInitializer, rng::AbstractRNG, ::Type{T}, dims) where {T} =
    T.(randn(rng, Float64, dims...) .* init.sigma)
function draw(init::XavierInitializer, rng::AbstractRNG, ::Type{T}, dims) where {T}
    shape = reverse(collect(dims))                     # the library's (out, in, kernel...) order
    length(shape) < 2 && return draw(UniformInitializer(0.07), rng, T, dims)
    receptive = prod(shape[3:end]; init=1)
    fan_in, fan_out = shape[2] * receptive, shape[1] * receptive
    n = init.regularization === :fan_in ? fan_in : init.regularization === :fan_out ? fan_out : (fan_in + fan_out) / 2
    scale = sqrt(init.magnitude / n)
    return init.distribution === :uniform ? T.((rand(rng, Float64, dims...) .* 2 .- 1) .* scale) :
           T.(randn(rng, Float64, dims...) .* scale)
end

"""
    init_value!(init, rng, name, a::NDArray)

Fills parameter `name` by MXNet's name rules (see the file comment)."""
function init_value!(init::AbstractInitializer, rng::AbstractRNG, pname::AbstractString, a::NDArray)
    T = eltype(a)
    if endswith(pname, "bias") || endswith(pname, "beta") || endswith(pname, "moving_mean") ||
       endswith(pname, "running_mean")
        fill!(a, 0)
    elseif endswith(pname, "gamma") || endswith(pname, "moving_var") || endswith(pname, "running_var")
        fill!(a, 1)
    else
        copy_from!(a, draw(init, rng, T, size(a)))
    end
    return a
end
