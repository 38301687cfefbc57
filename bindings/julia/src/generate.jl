# Note [Generation at load]
# Every registry operator (and alias) becomes a function Weft.nd.<Op> (on
# NDArrays) and Weft.sym.<Op> (composing SymbolicNodes), generated in __init__
# from weft_op_list / weft_op_schema, as MXNet.jl did. Generation happens in
# __init__ rather than at module top level so the package still precompiles
# (the library's path is chosen at run time and is not needed to precompile;
# `__precompile__(false)` would make every package that uses Weft
# unprecompilable too). The two modules are `baremodule`s: they import nothing
# from Base, so operator names such as `sum`, `exp`, `max` or `round` are new
# functions there instead of clashing with Base's.
#
# Signatures: nd.<Op>(inputs...; out=nothing, params...) and
# sym.<Op>(inputs...; name=nothing, attr=nothing, params_or_inputs...). Inputs
# may also be given by their input name (`data=x`); a parameter left out (or
# given as `nothing`) is not sent, and the library applies its default. A
# parameter that is a Julia keyword (slice's `begin`/`end`) is written
# `var"end"=3`. Attribute values follow the library's (row-major) order, see
# Note [Layout].

baremodule nd end
baremodule sym end

function op_docstring(op::OpInfo, fname::String, kind::Base.Symbol)
    io = IOBuffer()
    ins = op.variadic === nothing ? join(op.inputs, ", ") : "inputs..."
    extra = kind === :nd ? "out=nothing" : "name=nothing, attr=nothing"
    println(io, "    ", kind, ".", fname, "(", ins, "; ", isempty(op.params) ? "" : "params..., ", extra, ")")
    println(io)
    fname == op.name || println(io, "Alias of `", op.name, "`.\n")
    doc = get(op.schema, "doc", "")
    println(io, doc isa AbstractString && !isempty(doc) ? doc : "The $(op.name) operator.")
    if !isempty(op.inputs)
        println(io, "\n# Inputs")
        for n in op.inputs
            println(io, "- `", n, "`")
        end
    end
    params = something(get(op.schema, "params", nothing), Any[])
    if !isempty(params)
        println(io, "\n# Parameters")
        for p in params
            t = get(p, "type", "")
            if t == "enum"
                t = "{" * join(string.(something(get(p, "allowed", nothing), Any[])), ", ") * "}"
            end
            head = get(p, "required", false) == true ? "(required)" : "= $(get(p, "default", "None"))"
            pd = get(p, "doc", "")
            println(io, "- `", p["name"], "::", t, "` ", head, ": ", pd isa AbstractString ? pd : "")
        end
    end
    if kind === :nd
        println(io, "\nReturns a new NDArray (a vector when the operator has several visible outputs), ",
                "or `out` when given.")
    else
        println(io, "\nReturns the SymbolicNode of the new node (named `name`, else `", lowercase(fname), "<n>`).")
    end
    return String(take!(io))
end

function define_op_function!(mod::Module, fname::String, op::OpInfo, kind::Base.Symbol)
    f = Base.Symbol(fname)
    ex = if kind === :nd
        :(function $f(args...; out=nothing, kwargs...)
              return $(nd_call)($op, args, out, kwargs)
          end)
    else
        :(function $f(args...; name=nothing, attr=nothing, kwargs...)
              return $(sym_call)($op, $fname, args, name, attr, kwargs)
          end)
    end
    Core.eval(mod, ex)
    try
        # Documentation is a convenience: a failure here must not stop loading.
        target = Expr(:., mod, QuoteNode(f))
        Core.eval(@__MODULE__, Expr(:macrocall, GlobalRef(Core, Base.Symbol("@doc")), LineNumberNode(0),
                                    op_docstring(op, fname, kind), target))
    catch
    end
    return nothing
end

"""
    generate_operator_functions!()

Defines `Weft.nd.<Op>` and `Weft.sym.<Op>` for every canonical operator name
and alias of the registry (run by `__init__`)."""
function generate_operator_functions!()
    defined = Set{String}()
    for name in list_ops()
        op = op_info(name)
        aliases = String[String(a) for a in something(get(op.schema, "aliases", nothing), Any[])]
        for fname in vcat(name, aliases)
            (isempty(fname) || fname in defined) && continue   # a name is defined once (first wins)
            push!(defined, fname)
            OPS[fname] = op
            define_op_function!(nd, fname, op, :nd)
            define_op_function!(sym, fname, op, :sym)
        end
    end
    return nothing
end
