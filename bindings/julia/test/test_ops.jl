# Operators generated from the registry, checked against plain Julia.
@testset "operators" begin
    @testset "generated from the registry" begin
        names = Weft.list_ops()
        @test "FullyConnected" in names && "sgd_update" in names
        for n in names
            @test isdefined(nd, Symbol(n)) && isdefined(sym, Symbol(n))
        end
        @test isdefined(nd, :Softmax)                    # an alias of SoftmaxOutput
        @test occursin("num_hidden", string(@doc nd.FullyConnected))
    end

    x = randn(Float32, 5, 4)
    y = randn(Float32, 5, 4)
    a, b = NDArray(x), NDArray(y)
    @testset "element-wise" begin
        @test Array(nd.relu(a)) == max.(x, 0)
        @test Array(nd.exp(a)) ≈ exp.(x)
        @test Array(nd.Activation(a; act_type="tanh")) ≈ tanh.(x)
        @test Array(nd.Activation(a; act_type=:sigmoid)) ≈ 1 ./ (1 .+ exp.(-x))
        @test Array(nd.clip(a; a_min=-0.5, a_max=0.5)) ≈ clamp.(x, -0.5f0, 0.5f0)
        @test Array(a + b) ≈ x + y
        @test Array(a - b) ≈ x - y
        @test Array(-a) == -x
        @test Array(a .* b) ≈ x .* y
        @test Array(a ./ (b .^ 2 .+ 1)) ≈ x ./ (y .^ 2 .+ 1)
        @test Array(2 .* a .+ 1) ≈ 2 .* x .+ 1
        @test Array(1 .- a) ≈ 1 .- x
        @test Array(a / 4) ≈ x / 4
        @test Array(exp.(a)) ≈ exp.(x)
        @test Array(max.(a, 0)) == max.(x, 0)
    end

    @testset "broadcasting follows Julia's rules" begin
        v = randn(Float32, 5)                       # Julia (5,) broadcasts as (5, 1)
        @test Array(a .+ NDArray(v)) ≈ x .+ v
        r = randn(Float32, 1, 4)
        @test Array(a .* NDArray(r)) ≈ x .* r
    end

    @testset "matrix product and dense layers" begin
        w = randn(Float32, 4, 3)
        @test Array(a * NDArray(w)) ≈ x * w         # Julia's product, the library's dot(w, x)
        # FullyConnected: data (in, batch), weight Julia (in, hidden) = library (hidden, in).
        data = randn(Float32, 6, 8)
        W = randn(Float32, 6, 3)
        bias = randn(Float32, 3)
        out = nd.FullyConnected(NDArray(data), NDArray(W), NDArray(bias); num_hidden=3)
        @test size(out) == (3, 8)
        @test Array(out) ≈ W' * data .+ bias rtol = 1e-5
        # inputs by name give the same result
        out2 = nd.FullyConnected(data=NDArray(data), weight=NDArray(W), bias=NDArray(bias), num_hidden=3)
        @test Array(out2) ≈ Array(out)
    end

    @testset "reductions, softmax, argmax" begin
        @test Array(nd.sum(a))[1] ≈ sum(x)
        @test Array(nd.mean(a; axis=0)) ≈ vec(sum(x; dims=2)) ./ 4
        s = Array(nd.softmax(a; axis=-1))           # library's last axis = Julia's first
        e = exp.(x .- maximum(x; dims=1))
        @test s ≈ e ./ sum(e; dims=1)
        @test Array(nd.argmax(a; axis=1)) == Float32.(getindex.(argmax(x; dims=1), 1) .- 1)[:]
    end

    @testset "out= and variadic" begin
        o = Weft.nd_zeros(Float32, 5, 4)
        r = nd.elemwise_add(a, b; out=o)
        @test r === o
        @test Array(o) ≈ x + y
        c = nd.Concat(a, b; dim=0)                  # library axis 0 = Julia's last
        @test Array(c) == hcat(x, y)
        @test Array(nd.add_n(a, b, a)) ≈ 2x + y
    end

    @testset "update operators" begin
        w = randn(Float32, 3, 2)
        g = randn(Float32, 3, 2)
        W = NDArray(w)
        nd.sgd_update(W, NDArray(g); lr=0.1, wd=0.0, out=W)
        @test Array(W) ≈ w - 0.1f0 * g
    end
end
