# Devices: a device type (1 cpu, 2 gpu, 3 cpu_pinned, as in the C ABI) and an index.

"""
    Context(dev_type, dev_id)

A device. Use [`cpu`](@ref) and [`gpu`](@ref); shown and passed to operators as
`cpu(0)`, `gpu(1)` (the library's text form)."""
struct Context
    dev_type::Int
    dev_id::Int
end

const DEVICE_TYPE_NAMES = Dict(1 => "cpu", 2 => "gpu", 3 => "cpu_pinned")

"""    cpu(dev_id=0) -> Context"""
cpu(dev_id::Integer=0) = Context(1, dev_id)
"""    gpu(dev_id=0) -> Context"""
gpu(dev_id::Integer=0) = Context(2, dev_id)

function Base.show(io::IO, c::Context)
    print(io, get(DEVICE_TYPE_NAMES, c.dev_type, "dev$(c.dev_type)"), "(", c.dev_id, ")")
end
