# A small JSON reader for the operator schemas (weft_op_schema) and symbol
# files: the package depends on the standard library only, which has no JSON.
# Objects become Dict{String,Any}, arrays Vector{Any}, numbers Int64 (when
# written without fraction or exponent and in range) or Float64, true/false
# Bool, null `nothing`. Malformed text is a WeftError naming the byte offset.

mutable struct JSONReader
    bytes::Vector{UInt8}
    pos::Int
end

"""
    parse_json(text) -> Any

Parses one JSON value (RFC 8259) from `text`; trailing non-space text is an error."""
function parse_json(text::AbstractString)
    r = JSONReader(Vector{UInt8}(codeunits(String(text))), 1)
    value = json_value(r)
    json_skip_space(r)
    r.pos <= length(r.bytes) && json_fail(r, "unexpected text after the value")
    return value
end

json_fail(r::JSONReader, what::AbstractString) =
    throw(WeftError("JSON: $what at byte $(r.pos)"))

function json_skip_space(r::JSONReader)
    b = r.bytes
    while r.pos <= length(b) && (b[r.pos] == UInt8(' ') || b[r.pos] == UInt8('\n') ||
                                 b[r.pos] == UInt8('\t') || b[r.pos] == UInt8('\r'))
        r.pos += 1
    end
end

function json_peek(r::JSONReader)
    json_skip_space(r)
    r.pos > length(r.bytes) && json_fail(r, "unexpected end of text")
    return r.bytes[r.pos]
end

function json_expect(r::JSONReader, c::Char)
    json_peek(r) == UInt8(c) || json_fail(r, "expected '$c'")
    r.pos += 1
end

function json_value(r::JSONReader)
    c = json_peek(r)
    c == UInt8('{') && return json_object(r)
    c == UInt8('[') && return json_array(r)
    c == UInt8('"') && return json_string(r)
    c == UInt8('t') && return json_literal(r, "true", true)
    c == UInt8('f') && return json_literal(r, "false", false)
    c == UInt8('n') && return json_literal(r, "null", nothing)
    (c == UInt8('-') || UInt8('0') <= c <= UInt8('9')) && return json_number(r)
    json_fail(r, "unexpected character '$(Char(c))'")
end

function json_literal(r::JSONReader, word::String, value)
    n = ncodeunits(word)
    if r.pos + n - 1 <= length(r.bytes) && r.bytes[r.pos:r.pos+n-1] == codeunits(word)
        r.pos += n
        return value
    end
    json_fail(r, "invalid literal (expected $word)")
end

function json_object(r::JSONReader)
    json_expect(r, '{')
    out = Dict{String,Any}()
    json_peek(r) == UInt8('}') && (r.pos += 1; return out)
    while true
        json_peek(r) == UInt8('"') || json_fail(r, "expected a string key")
        key = json_string(r)
        json_expect(r, ':')
        out[key] = json_value(r)
        c = json_peek(r)
        r.pos += 1
        c == UInt8('}') && return out
        c == UInt8(',') || (r.pos -= 1; json_fail(r, "expected ',' or '}'"))
    end
end

function json_array(r::JSONReader)
    json_expect(r, '[')
    out = Any[]
    json_peek(r) == UInt8(']') && (r.pos += 1; return out)
    while true
        push!(out, json_value(r))
        c = json_peek(r)
        r.pos += 1
        c == UInt8(']') && return out
        c == UInt8(',') || (r.pos -= 1; json_fail(r, "expected ',' or ']'"))
    end
end

function json_hex4(r::JSONReader)
    r.pos + 3 <= length(r.bytes) || json_fail(r, "truncated \\u escape")
    v = UInt32(0)
    for k in 0:3
        c = r.bytes[r.pos+k]
        d = UInt8('0') <= c <= UInt8('9') ? c - UInt8('0') :
            UInt8('a') <= c <= UInt8('f') ? c - UInt8('a') + 0x0a :
            UInt8('A') <= c <= UInt8('F') ? c - UInt8('A') + 0x0a : json_fail(r, "bad hex digit in \\u escape")
        v = (v << 4) | UInt32(d)
    end
    r.pos += 4
    return v
end

function json_string(r::JSONReader)
    json_expect(r, '"')
    b = r.bytes
    io = IOBuffer()
    while true
        r.pos > length(b) && json_fail(r, "unterminated string")
        c = b[r.pos]
        if c == UInt8('"')
            r.pos += 1
            return String(take!(io))
        elseif c == UInt8('\\')
            r.pos += 1
            r.pos > length(b) && json_fail(r, "unterminated escape")
            e = b[r.pos]
            r.pos += 1
            if e == UInt8('"') || e == UInt8('\\') || e == UInt8('/')
                write(io, e)
            elseif e == UInt8('b')
                write(io, UInt8('\b'))
            elseif e == UInt8('f')
                write(io, UInt8('\f'))
            elseif e == UInt8('n')
                write(io, UInt8('\n'))
            elseif e == UInt8('r')
                write(io, UInt8('\r'))
            elseif e == UInt8('t')
                write(io, UInt8('\t'))
            elseif e == UInt8('u')
                u = json_hex4(r)
                if 0xd800 <= u <= 0xdbff   # a surrogate pair encodes one code point
                    if r.pos + 1 <= length(b) && b[r.pos] == UInt8('\\') && b[r.pos+1] == UInt8('u')
                        r.pos += 2
                        lo = json_hex4(r)
                        0xdc00 <= lo <= 0xdfff || json_fail(r, "invalid low surrogate")
                        u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00)
                    else
                        u = UInt32(0xfffd)
                    end
                elseif 0xdc00 <= u <= 0xdfff
                    u = UInt32(0xfffd)
                end
                print(io, Char(u))
            else
                json_fail(r, "invalid escape '\\$(Char(e))'")
            end
        elseif c < 0x20
            json_fail(r, "control character in string")
        else
            write(io, c)
            r.pos += 1
        end
    end
end

function json_number(r::JSONReader)
    b = r.bytes
    start = r.pos
    is_float = false
    r.pos <= length(b) && b[r.pos] == UInt8('-') && (r.pos += 1)
    while r.pos <= length(b)
        c = b[r.pos]
        if UInt8('0') <= c <= UInt8('9') || c == UInt8('+') || c == UInt8('-')
            r.pos += 1
        elseif c == UInt8('.') || c == UInt8('e') || c == UInt8('E')
            is_float = true
            r.pos += 1
        else
            break
        end
    end
    text = String(b[start:r.pos-1])
    if !is_float
        v = tryparse(Int64, text)
        v !== nothing && return v
    end
    v = tryparse(Float64, text)
    v === nothing && (r.pos = start; json_fail(r, "invalid number '$text'"))
    return v
end
