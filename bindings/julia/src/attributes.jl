# Operator attributes travel as text, written the way MXNet's front ends write
# them (FORMATS.md B.2): booleans True/False, tuples "(2, 3)" / "(2,)",
# dtypes by name ("float32"), devices "cpu(0)", nothing "None".

"""    attr_text(v) -> String: the library's text for an attribute value."""
attr_text(v::AbstractString) = String(v)
attr_text(v::Base.Symbol) = String(v)
attr_text(v::Bool) = v ? "True" : "False"
attr_text(v::Integer) = string(Int64(v))
attr_text(v::AbstractFloat) = float_text(v)
attr_text(::Nothing) = "None"
attr_text(v::Context) = string(v)
attr_text(T::Type) = dtype_name(T)
function attr_text(v::Union{Tuple,AbstractVector})
    items = String[attr_item_text(x) for x in v]
    return "(" * join(items, ", ") * (length(items) == 1 ? "," : "") * ")"
end
attr_text(v::NDArray) = throw(WeftError("an NDArray cannot be an attribute value (pass it as an input)", 1))
attr_text(v) = throw(WeftError("an attribute value must be a string, number, Bool, tuple, type or nothing; got $(typeof(v))", 1))

attr_item_text(x::Nothing) = "None"
attr_item_text(x) = attr_text(x)

# Shortest text that C's strtod reads back to the same value: Julia prints
# Float32 as "1.0f-8" and non-finite values as "Inf32"/"NaN", so spell those out.
function float_text(x::AbstractFloat)
    isnan(x) && return "nan"
    isinf(x) && return x > 0 ? "inf" : "-inf"
    x isa Float32 && return replace(string(x), 'f' => 'e')
    x isa Float16 && return float_text(Float32(x))
    return string(Float64(x))
end
