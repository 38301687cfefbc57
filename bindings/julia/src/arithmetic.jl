# NDArray arithmetic through the registry (internal code calls operators by
# name with call_op, not through the generated Weft.nd functions, which only
# exist once __init__ has run).
#
# `+`/`-` between arrays are element-wise on equal sizes (as Julia's); the
# dotted forms broadcast (the library pads shapes on the left, which is
# Julia's right, so the rules agree: Note [Layout]); `*` between two matrices
# is Julia's matrix product; scalars combine with every form.

const Scalar = Real

Base.:+(a::NDArray, b::NDArray) = call_op("elemwise_add", a, b)
Base.:-(a::NDArray, b::NDArray) = call_op("elemwise_sub", a, b)
Base.:-(a::NDArray) = call_op("negative", a)
Base.:+(a::NDArray, s::Scalar) = call_op("_plus_scalar", a; scalar=s)
Base.:+(s::Scalar, a::NDArray) = call_op("_plus_scalar", a; scalar=s)
Base.:-(a::NDArray, s::Scalar) = call_op("_minus_scalar", a; scalar=s)
Base.:-(s::Scalar, a::NDArray) = call_op("_rminus_scalar", a; scalar=s)
Base.:*(a::NDArray, s::Scalar) = call_op("_mul_scalar", a; scalar=s)
Base.:*(s::Scalar, a::NDArray) = call_op("_mul_scalar", a; scalar=s)
Base.:/(a::NDArray, s::Scalar) = call_op("_div_scalar", a; scalar=s)

"""
    A * B

The matrix product of two 2-dimensional NDArrays in Julia's sense: sizes
(m, k) and (k, n) give (m, n). In the library's row-major view this is
`dot(B, A)` (Note [Layout])."""
function Base.:*(a::NDArray, b::NDArray)
    (ndims(a) == 2 && ndims(b) == 2) ||
        throw(WeftError("NDArray * NDArray is the matrix product of two matrices; got sizes $(size(a)) and " *
                        "$(size(b)) (use .* for the element-wise product)", 2))
    size(a, 2) == size(b, 1) ||
        throw(WeftError("matrix product: sizes $(size(a)) and $(size(b)) do not fit", 2))
    return call_op("dot", b, a)
end

const BROADCAST_BINARY = Dict{Any,String}((+) => "broadcast_add", (-) => "broadcast_sub", (*) => "broadcast_mul",
                                         (/) => "broadcast_div", (^) => "broadcast_power",
                                         (max) => "broadcast_maximum", (min) => "broadcast_minimum")
const SCALAR_RIGHT = Dict{Any,String}((+) => "_plus_scalar", (-) => "_minus_scalar", (*) => "_mul_scalar",
                                     (/) => "_div_scalar", (^) => "_power_scalar", (max) => "_maximum_scalar",
                                     (min) => "_minimum_scalar")
const SCALAR_LEFT = Dict{Any,String}((+) => "_plus_scalar", (-) => "_rminus_scalar", (*) => "_mul_scalar",
                                    (/) => "_rdiv_scalar", (^) => "_rpower_scalar", (max) => "_maximum_scalar",
                                    (min) => "_minimum_scalar")

for f in (+, -, *, /, ^, max, min)
    @eval begin
        Base.broadcasted(::typeof($f), a::NDArray, b::NDArray) = call_op(BROADCAST_BINARY[$f], a, b)
        Base.broadcasted(::typeof($f), a::NDArray, s::Scalar) = call_op(SCALAR_RIGHT[$f], a; scalar=s)
        Base.broadcasted(::typeof($f), s::Scalar, a::NDArray) = call_op(SCALAR_LEFT[$f], a; scalar=s)
    end
end
# x .^ 2 with a literal exponent lowers to literal_pow.
Base.broadcasted(::typeof(Base.literal_pow), ::typeof(^), a::NDArray, ::Val{p}) where {p} =
    call_op("_power_scalar", a; scalar=p)

# Element-wise functions: f.(a) runs the registry operator of the same name.
const UNARY_OPS = Dict{Any,String}((exp) => "exp", (log) => "log", (sqrt) => "sqrt", (abs) => "abs", (tanh) => "tanh",
                                   (sin) => "sin", (cos) => "cos", (tan) => "tan", (floor) => "floor", (ceil) => "ceil",
                                   (round) => "round", (sign) => "sign", (expm1) => "expm1", (log1p) => "log1p")
for f in keys(UNARY_OPS)
    @eval Base.broadcasted(::typeof($f), a::NDArray) = call_op(UNARY_OPS[$f], a)
end

"""    nd_zeros(T, dims...; ctx=cpu()) -> NDArray of Julia size dims filled with zeros."""
nd_zeros(::Type{T}, dims::Integer...; ctx::Context=cpu()) where {T} =
    call_op("_zeros"; shape=reverse(Int.(dims)), dtype=T, ctx=ctx)
nd_zeros(dims::Integer...; ctx::Context=cpu()) = nd_zeros(Float32, dims...; ctx=ctx)
"""    nd_ones(T, dims...; ctx=cpu()) -> NDArray of Julia size dims filled with ones."""
nd_ones(::Type{T}, dims::Integer...; ctx::Context=cpu()) where {T} =
    call_op("_ones"; shape=reverse(Int.(dims)), dtype=T, ctx=ctx)
nd_ones(dims::Integer...; ctx::Context=cpu()) = nd_ones(Float32, dims...; ctx=ctx)

"""    fill!(a::NDArray, v) -> a: sets every element to v (pushed to the engine)."""
function Base.fill!(a::NDArray, v::Scalar)
    call_op("_full"; shape=Tuple(weft_shape(a)), value=Float64(v), dtype=eltype(a), ctx=context(a), out=a)
    return a
end
