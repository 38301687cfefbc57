# Element types: the library's dtype flags (MXNet's) and their Julia types.

const DTYPE_FLAG = Dict{DataType,Int}(Float32 => 0, Float64 => 1, Float16 => 2, UInt8 => 3,
                                      Int32 => 4, Int8 => 5, Int64 => 6, Bool => 7)
const FLAG_DTYPE = Dict{Int,DataType}(v => k for (k, v) in DTYPE_FLAG)
const DTYPE_NAME = Dict{Int,String}(0 => "float32", 1 => "float64", 2 => "float16", 3 => "uint8",
                                    4 => "int32", 5 => "int8", 6 => "int64", 7 => "bool", 12 => "bfloat16")

"""    dtype_flag(T) -> Int: the library's dtype flag of a Julia element type."""
function dtype_flag(T::Type)
    haskey(DTYPE_FLAG, T) && return DTYPE_FLAG[T]
    throw(WeftError("element type $T has no weft dtype (supported: " *
                    join(sort([string(k) for k in keys(DTYPE_FLAG)]), ", ") * ")", 3))
end

"""    julia_type(flag) -> DataType: the Julia element type of a dtype flag."""
function julia_type(flag::Integer)
    haskey(FLAG_DTYPE, flag) && return FLAG_DTYPE[flag]
    name = get(DTYPE_NAME, Int(flag), "flag $flag")
    throw(WeftError("dtype $name has no Julia element type in Weft.jl (bfloat16: cast it with nd.Cast first)", 3))
end

"""    dtype_name(T or flag) -> String: the library's name ("float32" ...)."""
dtype_name(T::Type) = DTYPE_NAME[dtype_flag(T)]
dtype_name(flag::Integer) = get(DTYPE_NAME, Int(flag), "unknown")
