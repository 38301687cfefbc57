# Library errors arrive as WeftError with the library's message and status.
# The exception f() throws (nothing when it returns).
function caught(f)
    try
        f()
    catch e
        return e
    end
    return nothing
end

@testset "errors" begin
    a = NDArray(rand(Float32, 3, 2))
    b = NDArray(rand(Float32, 4, 2))
    err = caught(() -> a + b)
    @test err isa WeftError
    @test err.code == 2                                    # WEFT_ERR_SHAPE
    @test occursin("elemwise_add", err.msg)                # the message names the operator
    @test occursin("WeftError (shape)", sprint(showerror, err))

    # A required parameter that is missing, an unknown one, a bad enum value.
    @test_throws WeftError nd.FullyConnected(a, NDArray(rand(Float32, 3, 4)))
    e2 = caught(() -> nd.relu(a; not_a_param=1))
    @test e2 isa WeftError && occursin("not_a_param", e2.msg)
    e3 = caught(() -> nd.Activation(a; act_type="no_such_act"))
    @test e3 isa WeftError && occursin("Activation", e3.msg)
    @test_throws WeftError nd.relu(rand(3))                # not an NDArray
    @test_throws WeftError Weft.call_op("no_such_operator", a)

    # Files: a missing file and a damaged one name the file.
    e4 = caught(() -> load_ndarrays("/nonexistent/dir/x.params"))
    @test e4 isa WeftError && occursin("x.params", e4.msg)
    mktempdir() do dir
        f = joinpath(dir, "bad.params")
        write(f, "this is not a params file")
        @test_throws WeftError load_ndarrays(f)
        @test_throws WeftError Weft.load_symbol(joinpath(dir, "missing-symbol.json"))
    end
    @test_throws WeftError from_json("{not json")

    # Conversions refuse what they cannot represent.
    @test_throws WeftError NDArray(["a", "b"])
    @test_throws WeftError copyto!(a, rand(Float32, 2, 2))

    # The JSON reader used for op schemas.
    v = Weft.parse_json("{\"a\": [1, 2.5, \"x\\u00e9\\n\", true, null], \"b\": {}}")
    @test v["a"] == Any[1, 2.5, "xé\n", true, nothing] && v["b"] == Dict{String,Any}()
    @test Weft.parse_json("\"\\ud83d\\ude00\"") == "😀"
    @test_throws WeftError Weft.parse_json("[1, 2")
    @test_throws WeftError Weft.parse_json("{\"a\" 1}")
end
