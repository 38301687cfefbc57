"""
    Weft

Julia front end of the Weft deep-learning library: `ccall` over the flat C ABI
(`capi/include/weft/c_api.h`), in the manner of MXNet.jl.

* [`NDArray`](@ref): arrays on the engine. Julia is column-major and the
  library row-major, so a Julia `Array` of size `(a, b, c)` is the library
  array of shape `(c, b, a)`; the bytes are copied as they are, never
  transposed (see `ndarray.jl`, Note [Layout]).
* `Weft.nd.<Op>` / `Weft.sym.<Op>`: one function per registry operator and
  alias, generated when the package loads from `weft_op_list` /
  `weft_op_schema` (see `generate.jl`, Note [Generation at load]).
* [`SymbolicNode`](@ref) graphs, [`Executor`](@ref), [`fit`](@ref) /
  [`predict`](@ref) and checkpoints in the shared MXNet 1.x format.

The library is found through `ENV["WEFT_LIBRARY_PATH"]` (a file or a folder),
else `deps/libweft.so` beside this package, else `<repo>/build/libweft.so`.
"""
module Weft

using Libdl
using Printf
using Random

export WeftError, NDArray, Context, cpu, gpu, SymbolicNode, Variable, Group, Executor
export weft_shape, infer_shape, infer_shape_partial, list_arguments, list_outputs, list_auxiliary_states
export simple_bind, forward, backward, to_json, from_json  # bind extends Base.bind
export fit, predict, save_checkpoint, load_checkpoint, save_ndarrays, load_ndarrays
export SGD, Adam, UniformInitializer, NormalInitializer, XavierInitializer, Accuracy, MSE
export FeedForward, BatchCallback, EpochCallback, do_checkpoint, early_stop, score

include("library.jl")
include("errors.jl")
include("json.jl")
include("context.jl")
include("dtypes.jl")
include("ndarray.jl")
include("attributes.jl")
include("ops.jl")
include("generate.jl")
include("arithmetic.jl")
include("ndarray_io.jl")
include("symbol.jl")
include("executor.jl")
include("initializer.jl")
include("optimizer.jl")
include("metric.jl")
include("callbacks.jl")
include("model.jl")

function __init__()
    # Note [Generation at load]: nothing touches the library while a package
    # image is being written (Weft's own precompilation, or that of a package
    # that depends on it): the library need not exist then, and evaluating new
    # functions into a closed module during another package's precompilation
    # is an error. At run time the library is opened and the operator
    # functions are generated into the (empty, precompiled) modules nd / sym.
    if ccall(:jl_generating_output, Cint, ()) == 1
        return nothing
    end
    load_library!()
    generate_operator_functions!()
    return nothing
end

end # module
