# NDArray <-> Julia Array: round trips for every dtype, and the layout rule
# (Julia size (a, b, c) is the library's shape (c, b, a), bytes unchanged).
@testset "NDArray" begin
    @testset "round trip $T" for T in (Float32, Float64, Float16, UInt8, Int32, Int8, Int64, Bool)
        x = rand(T, 3, 4, 2)
        a = NDArray(x)
        @test eltype(a) === T
        @test size(a) == (3, 4, 2)
        @test Array(a) == x
    end

    @testset "layout" begin
        x = reshape(collect(Float32, 1:6), 2, 3)       # Julia 2x3, column-major
        a = NDArray(x)
        @test weft_shape(a) == [3, 2]                  # the library sees 3 rows of 2
        @test size(a) == (2, 3)
        # Row i of the library array is column i of the Julia matrix: at() takes
        # entry i of the library's axis 0, i.e. of Julia's last dimension.
        @test Array(Weft.at(a, 2)) == x[:, 2]
        # sum over the library's axis 0 is the sum over Julia's last dimension.
        @test Array(nd.sum(a; axis=0)) ≈ vec(sum(x; dims=2))
        @test Array(nd.sum(a; axis=1)) ≈ vec(sum(x; dims=1))
        # The library's transpose is Julia's transpose (same data, reversed dims).
        @test Array(nd.transpose(a)) == permutedims(x)
        # 1-d and 0-size edge: a vector keeps its order.
        v = Float32[1, 2, 3]
        @test Array(NDArray(v)) == v
        @test weft_shape(NDArray(v)) == [3]
    end

    @testset "views and copies" begin
        x = rand(Float32, 4, 6)
        a = NDArray(x)
        r = reshape(a, 8, 3)
        @test size(r) == (8, 3)
        @test Array(r) == reshape(x, 8, 3)
        @test Weft.shares_memory(a, r)
        @test Array(reshape(a, :, 2)) == reshape(x, 12, 2)
        s = Weft.slice(a, 2:4)                          # columns 2..4 (the last dimension)
        @test Array(s) == x[:, 2:4]
        c = copy(a)
        @test !Weft.shares_memory(a, c)
        fill!(a, 7)
        @test all(Array(a) .== 7)
        @test Array(c) == x
        b = Weft.nd_zeros(Float64, 2, 5)
        @test size(b) == (2, 5) && eltype(b) === Float64 && all(Array(b) .== 0)
        @test all(Array(Weft.nd_ones(3)) .== 1)
        copyto!(b, ones(2, 5) .* 3)
        @test all(Array(b) .== 3)
        @test Weft.context(a) == cpu(0)
        @test sprint(show, a) == "NDArray{float32}(4×6) @cpu(0)"
    end

    @testset "save / load" begin
        mktempdir() do dir
            f = joinpath(dir, "x.params")
            xs = [rand(Float32, 2, 3), rand(Int32, 4)]
            save_ndarrays(f, [NDArray(x) for x in xs])
            loaded = load_ndarrays(f)
            @test length(loaded) == 2
            @test Array(loaded[1]) == xs[1] && Array(loaded[2]) == xs[2]
            save_ndarrays(f, ["w" => NDArray(xs[1]), "b" => NDArray(xs[2])])
            named = load_ndarrays(f)
            @test first.(named) == ["w", "b"]
            @test Array(Dict(named)["w"]) == xs[1]
        end
    end
end
