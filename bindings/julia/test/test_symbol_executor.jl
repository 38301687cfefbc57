# Symbols: composition, shape inference, JSON; executors: forward, and the
# gradients of a tiny MLP against central finite differences (Float64).
@testset "symbol and executor" begin
    data = Variable("data")
    fc1 = sym.FullyConnected(data; num_hidden=5, name="fc1")
    act = sym.Activation(fc1; act_type="tanh", name="tanh1")
    fc2 = sym.FullyConnected(act; num_hidden=3, name="fc2")

    @testset "composition and inspection" begin
        @test list_arguments(fc2) == ["data", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"]
        @test list_outputs(fc2) == ["fc2_output"]
        @test isempty(list_auxiliary_states(fc2))
        @test Weft.symbol_name(fc2) == "fc2"
        @test Weft.get_attr(fc1, "num_hidden") == "5"
        @test "fc1_output" in list_outputs(Weft.get_internals(fc2))
        @test list_outputs(Weft.get_internals(fc2)["fc1_output"]) == ["fc1_output"]
        g = Group(fc1, fc2)
        @test list_outputs(g) == ["fc1_output", "fc2_output"]
        @test list_outputs(g[2]) == ["fc2_output"]
        w = Variable("w"; shape=(4, 5), lr_mult=2.0)
        @test Weft.get_attr(w, "__shape__") == "(5, 4)"       # Julia order reversed
        @test Weft.get_attr(w, "__lr_mult__") == "2.0"
        s = data * 2 + data
        @test length(list_arguments(s)) == 1
        bn = sym.BatchNorm(data; name="bn")
        @test list_auxiliary_states(bn) == ["bn_moving_mean", "bn_moving_var"]
        @test_throws WeftError sym.FullyConnected(data; num_hidden=2, bogus=1)
    end

    @testset "infer_shape in Julia order" begin
        arg_shapes, out_shapes, aux_shapes = infer_shape(fc2; data=(4, 7))
        @test arg_shapes == [(4, 7), (4, 5), (5,), (5, 3), (3,)]
        @test out_shapes == [(3, 7)]
        @test isempty(aux_shapes)
        @test infer_shape(fc2) === nothing                     # nothing known
        partial = infer_shape_partial(fc2)
        @test length(partial[1]) == 5
        @test_throws WeftError infer_shape(fc2; data=(4, 7), fc1_weight=(3, 5))   # contradicts data
    end

    @testset "JSON" begin
        js = to_json(fc2)
        s2 = from_json(js)
        @test to_json(s2) == js
        @test list_arguments(s2) == list_arguments(fc2)
        mktempdir() do dir
            f = joinpath(dir, "net-symbol.json")
            Weft.save_symbol(f, fc2)
            @test to_json(Weft.load_symbol(f)) == js
        end
        @test Weft.parse_json(js)["heads"] == Any[Any[length(Weft.parse_json(js)["nodes"]) - 1, 0, 0]]
    end

    @testset "forward and gradients vs finite differences" begin
        rng = MersenneTwister(1)
        X = randn(rng, 4, 7)
        params = Dict("fc1_weight" => 0.5 .* randn(rng, 4, 5), "fc1_bias" => 0.1 .* randn(rng, 5),
                      "fc2_weight" => 0.5 .* randn(rng, 5, 3), "fc2_bias" => 0.1 .* randn(rng, 3))
        names = list_arguments(fc2)
        args = Dict(n => NDArray(n == "data" ? X : params[n]) for n in names)
        grads = Dict(n => NDArray(zeros(size(params[n]))) for n in keys(params))
        exe = bind(fc2, cpu(), args; args_grad=grads, grad_req=Dict(n => :write for n in keys(params)))
        @test exe.grad_arrays[1] === nothing                   # data: no gradient

        # forward = the Julia computation
        expect = params["fc2_weight"]' * tanh.(params["fc1_weight"]' * X .+ params["fc1_bias"]) .+ params["fc2_bias"]
        @test Array(forward(exe)[1]) ≈ expect

        G = randn(rng, 3, 7)                                   # head gradient: L = sum(out .* G)
        loss() = sum(Array(forward(exe)[1]) .* G)
        forward(exe; is_train=true)
        backward(exe, [NDArray(G)])
        h = 1e-6
        for (n, p0) in params
            analytic = Array(Weft.grad_dict(exe)[n])
            numeric = similar(analytic)
            p = copy(p0)
            for i in eachindex(p)
                p[i] = p0[i] + h
                copyto!(args[n], p)
                lp = loss()
                p[i] = p0[i] - h
                copyto!(args[n], p)
                lm = loss()
                p[i] = p0[i]
                numeric[i] = (lp - lm) / (2h)
            end
            copyto!(args[n], p0)
            @test isapprox(analytic, numeric; rtol=1e-5, atol=1e-7)
        end

        # forward(exe; data=...) copies inputs; a wrong size is refused.
        X2 = randn(rng, 4, 7)
        out = Array(forward(exe; data=X2)[1])
        @test out ≈ params["fc2_weight"]' * tanh.(params["fc1_weight"]' * X2 .+ params["fc1_bias"]) .+ params["fc2_bias"]
        @test_throws WeftError forward(exe; data=randn(4, 6))
        @test_throws WeftError forward(exe; nonexistent=X2)
    end

    @testset "simple_bind" begin
        exe = simple_bind(fc2, cpu(); grad_req=Dict("fc1_weight" => :write), data=(4, 2))
        @test [size(a) for a in exe.arg_arrays] == [(4, 2), (4, 5), (5,), (5, 3), (3,)]
        @test count(g -> g !== nothing, exe.grad_arrays) == 1
        @test size(forward(exe)[1]) == (3, 2)
        @test_throws WeftError simple_bind(fc2, cpu())        # shapes unknown
    end
end
