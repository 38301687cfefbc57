# A Gluon CNN exported by MXNet 1.9.1 (Conv, BatchNorm, ReLU, MaxPool, Dense,
# Dropout) loads as a checkpoint and gives MXNet's inference output.

function fixture_dir()
    repo = normpath(joinpath(@__DIR__, "..", "..", ".."))
    for d in (get(ENV, "WEFT_FIXTURES", ""), joinpath(repo, "..", "shared", "fixtures"),
              joinpath(repo, "shared", "fixtures"))
        !isempty(d) && isfile(joinpath(d, "cnn-symbol.json")) && return d
    end
    return nothing
end

# test/data/cnn-io.txt: per array a header "name dtype ndim dims..." (library
# order) and the values in C order, i.e. Julia's column-major order of the
# reversed dims (Note [Layout]).
function read_arrays(path)
    out = Dict{String,Array{Float32}}()
    lines = [l for l in eachline(path) if !startswith(l, "#")]
    i = 1
    while i <= length(lines)
        head = split(lines[i])
        ndim = parse(Int, head[3])
        dims = parse.(Int, head[4:3+ndim])
        count = prod(dims)
        vals = parse.(Float32, lines[i+1:i+count])
        out[head[1]] = reshape(vals, reverse(dims)...)
        i += count + 1
    end
    return out
end

@testset "MXNet 1.9.1 fixture" begin
    dir = fixture_dir()
    if dir === nothing
        @info "MXNet fixtures not found (set WEFT_FIXTURES to shared/fixtures): fixture test not run"
        @test_skip false
    else
        s, args, auxs = load_checkpoint(joinpath(dir, "cnn"), 0)
        @test "cnn_conv0_weight" in keys(args)
        @test sort(collect(keys(auxs))) == ["cnn_batchnorm0_running_mean", "cnn_batchnorm0_running_var"]
        io = read_arrays(joinpath(@__DIR__, "data", "cnn-io.txt"))
        @test size(io["data"]) == (8, 8, 3, 2)
        model = Weft.FeedForward(s, cpu(), args, auxs)
        out = predict(model, io["data"]; batch_size=2)
        @test size(out) == size(io["output"]) == (5, 2)
        @test isapprox(out, io["output"]; atol=1e-4)
    end
end
