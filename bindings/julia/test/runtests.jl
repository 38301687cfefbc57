# Weft.jl tests (Pkg.test). Needs the built library: WEFT_LIBRARY_PATH, or
# <repo>/build/libweft.so. The MXNet fixtures are looked up in
# <repo>/../shared/fixtures, <repo>/shared/fixtures or WEFT_FIXTURES.
using Test
using Random
using Weft

const nd = Weft.nd
const sym = Weft.sym

@testset "Weft.jl" begin
    @testset "library" begin
        @test isfile(Weft.libweft())
        @test !isempty(Weft.version())
        @test Weft.random_seed!(3) === nothing
        @test Weft.wait_all() === nothing
        @test sprint(show, gpu(1)) == "gpu(1)"
    end
    include("test_ndarray.jl")
    include("test_ops.jl")
    include("test_errors.jl")
    include("test_symbol_executor.jl")
    include("test_fit_checkpoint.jl")
    include("test_fixture.jl")
end
