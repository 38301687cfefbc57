# The operator registry, read through weft_op_list / weft_op_schema, and the one
# generic call every generated function goes through.

"""
    OpInfo

One registry operator: its canonical name, handle (static in the library),
inputs, parameter names, variadic count parameter and the parsed schema."""
struct OpInfo
    name::String
    handle::Ptr{Cvoid}
    inputs::Vector{String}
    params::Vector{String}
    variadic::Union{Nothing,String}
    num_outputs::Int
    schema::Dict{String,Any}
end

const OPS = Dict{String,OpInfo}()        # canonical names and aliases -> OpInfo

"""    list_ops() -> Vector{String}: canonical operator names, sorted (weft_op_list)."""
function list_ops()
    n = Ref{Cint}(0)
    names = Ref{Ptr{Ptr{UInt8}}}(C_NULL)
    check_call(ccall((:weft_op_list, libweft()), Cint, (Ref{Cint}, Ref{Ptr{Ptr{UInt8}}}), n, names))
    # Valid until the next library call on this thread: copy every name first.
    return String[unsafe_string(unsafe_load(names[], i)) for i in 1:n[]]
end

function op_handle(name::AbstractString)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check_call(ccall((:weft_op_find, libweft()), Cint, (Cstring, Ref{Ptr{Cvoid}}), name, out))
    return out[]
end

"""    op_schema_json(name) -> String: the schema JSON text of an operator."""
function op_schema_json(name::AbstractString)
    h = op_handle(name)
    js = Ref{Ptr{UInt8}}(C_NULL)
    check_call(ccall((:weft_op_schema, libweft()), Cint, (Ptr{Cvoid}, Ref{Ptr{UInt8}}), h, js))
    return unsafe_string(js[])
end

function make_opinfo(name::AbstractString)
    h = op_handle(name)
    js = Ref{Ptr{UInt8}}(C_NULL)
    check_call(ccall((:weft_op_schema, libweft()), Cint, (Ptr{Cvoid}, Ref{Ptr{UInt8}}), h, js))
    schema = parse_json(unsafe_string(js[]))::Dict{String,Any}
    inputs = String[String(x) for x in something(get(schema, "inputs", nothing), Any[])]
    params = String[String(p["name"]) for p in something(get(schema, "params", nothing), Any[])]
    variadic = get(schema, "variadic", nothing)
    nout = get(schema, "num_outputs", 1)
    return OpInfo(String(schema["name"]), h, inputs, params, variadic === nothing ? nothing : String(variadic),
                  nout isa Integer ? Int(nout) : 1, schema)
end

"""    op_info(name) -> OpInfo: a registry operator by name or alias (cached)."""
function op_info(name::AbstractString)
    info = get(OPS, name, nothing)
    info !== nothing && return info
    info = make_opinfo(name)
    OPS[String(name)] = info
    return info
end

# ---- invoking ----------------------------------------------------------------------------
"""
    invoke_op(op, inputs, keys, vals; out=nothing)

Runs `op` on NDArrays with string attributes. Without `out` returns the new
output (or a vector when there are several); with `out` (an NDArray or a
vector of them) writes into it and returns it."""
function invoke_op(op::OpInfo, inputs::Vector{NDArray}, keys::Vector{String}, vals::Vector{String}; out=nothing)
    ins = handles(inputs)
    if out === nothing
        nout = Ref{Cint}(0)
        outs = Ref{Ptr{Ptr{Cvoid}}}(C_NULL)
        rc = GC.@preserve inputs ccall((:weft_op_invoke, libweft()), Cint,
                   (Ptr{Cvoid}, Cint, Ptr{Ptr{Cvoid}}, Ref{Cint}, Ref{Ptr{Ptr{Cvoid}}}, Cint, Ptr{Cstring}, Ptr{Cstring}),
                   op.handle, length(ins), ins, nout, outs, length(keys), keys, vals)
        check_call(rc)
        # A thread-local list of new handles owned by us: read every pointer before anything else.
        raw = Ptr{Cvoid}[unsafe_load(outs[], i) for i in 1:nout[]]
        results = NDArray[NDArray(h) for h in raw]
        return length(results) == 1 ? results[1] : results
    end
    targets = out isa NDArray ? NDArray[out] : NDArray[o for o in out]
    isempty(targets) && throw(WeftError("$(op.name): out= is empty", 1))
    outh = handles(targets)
    nout = Ref{Cint}(length(outh))
    rc = GC.@preserve inputs targets outh begin
        pouts = Ref{Ptr{Ptr{Cvoid}}}(pointer(outh))
        ccall((:weft_op_invoke, libweft()), Cint,
              (Ptr{Cvoid}, Cint, Ptr{Ptr{Cvoid}}, Ref{Cint}, Ref{Ptr{Ptr{Cvoid}}}, Cint, Ptr{Cstring}, Ptr{Cstring}),
              op.handle, length(ins), ins, nout, pouts, length(keys), keys, vals)
    end
    check_call(rc)
    return out
end

"""
    call_op(name, inputs...; out=nothing, attrs...)

Calls a registry operator by name (what the generated `Weft.nd.<Op>` do)."""
call_op(name::AbstractString, inputs::NDArray...; out=nothing, attrs...) =
    nd_call(op_info(name), inputs, out, attrs)

is_hidden_key(k::AbstractString) = startswith(k, "__") && endswith(k, "__") && length(k) > 4

function check_param(op::OpInfo, k::String)
    (k in op.params || is_hidden_key(k)) && return nothing
    throw(WeftError("$(op.name): unknown argument '$k' (parameters: " *
                    (isempty(op.params) ? "none" : join(op.params, ", ")) * ")", 1))
end

# The body of every generated Weft.nd.<Op>: inputs positionally or by input name
# (NDArrays), parameters by keyword (`nothing` = not given: the library applies
# its default, so only given attributes travel).
function nd_call(op::OpInfo, args::Tuple, out, kwargs)
    inputs = NDArray[]
    for (i, x) in enumerate(args)
        x isa NDArray || throw(WeftError("$(op.name): input $i must be an NDArray, got $(typeof(x))", 1))
        push!(inputs, x)
    end
    named = Dict{String,NDArray}()
    keys = String[]
    vals = String[]
    for (k, v) in kwargs
        ks = String(k)
        if v isa NDArray
            (ks in op.inputs) || throw(WeftError("$(op.name): '$ks' is not an input (inputs: " *
                                                 join(op.inputs, ", ") * ")", 1))
            named[ks] = v
            continue
        end
        check_param(op, ks)
        v === nothing && continue
        push!(keys, ks)
        push!(vals, attr_text(v))
    end
    if !isempty(named)
        # The C call takes inputs positionally: place named ones at their index.
        for (j, n) in enumerate(op.inputs)
            haskey(named, n) || continue
            j <= length(inputs) && throw(WeftError("$(op.name): input '$n' given twice", 1))
            j == length(inputs) + 1 || throw(WeftError("$(op.name): input '$n' given but an earlier input is missing", 1))
            push!(inputs, named[n])
        end
    end
    if op.variadic === nothing
        length(inputs) <= length(op.inputs) ||
            throw(WeftError("$(op.name): $(length(inputs)) inputs given, the operator takes " *
                            "$(length(op.inputs)) ($(join(op.inputs, ", ")))", 1))
    elseif !(op.variadic in keys)
        push!(keys, op.variadic)
        push!(vals, string(length(inputs)))
    end
    return invoke_op(op, inputs, keys, vals; out=out)
end
