# Errors: every C call that returns non-zero throws a WeftError carrying
# weft_last_error() (the thread's message) and the weft_status code.

"""
    WeftError(msg[, code])

Raised for every failed library call (`msg` is the library's message,
`code` the `weft_status` value, 0 for errors found by the binding itself)."""
struct WeftError <: Exception
    msg::String
    code::Int
end
WeftError(msg::AbstractString) = WeftError(String(msg), 0)

const STATUS_NAMES = Dict(1 => "invalid argument", 2 => "shape", 3 => "dtype", 4 => "out of memory",
                          5 => "not found", 6 => "engine", 7 => "io", 8 => "internal")

function Base.showerror(io::IO, e::WeftError)
    kind = get(STATUS_NAMES, e.code, "")
    print(io, "WeftError", isempty(kind) ? "" : " ($kind)", ": ", e.msg)
end

"""The message of the last failed call on this thread."""
last_error() = unsafe_string(ccall((:weft_last_error, libweft()), Cstring, ()))

# No task switch can happen between the failing ccall and weft_last_error():
# check_call runs right after it without yielding, so the thread is the same.
@inline function check_call(rc::Cint)
    rc == 0 && return nothing
    throw(WeftError(last_error(), Int(rc)))
end

"""
    wait_all()

Waits for every operation pushed to the engine; throws the first operation
error stored since the last call."""
wait_all() = check_call(ccall((:weft_wait_all, libweft()), Cint, ()))

"""
    random_seed!(seed::Integer)

Reseeds the library's random generators (Dropout, random operators)."""
random_seed!(seed::Integer) = check_call(ccall((:weft_random_seed, libweft()), Cint, (UInt64,), UInt64(seed)))
