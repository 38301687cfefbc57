# Training on a small separable dataset, prediction, callbacks and checkpoints.
@testset "fit, predict, checkpoints" begin
    rng = MersenneTwister(42)
    n = 400
    X = hcat(randn(rng, Float32, 2, n ÷ 2) .+ 2.0f0, randn(rng, Float32, 2, n ÷ 2) .- 2.0f0)   # (features, n)
    y = vcat(zeros(Float32, n ÷ 2), ones(Float32, n ÷ 2))

    net = sym.FullyConnected(Variable("data"); num_hidden=16, name="fc1")
    net = sym.Activation(net; act_type="relu", name="relu1")
    net = sym.FullyConnected(net; num_hidden=2, name="fc2")
    net = sym.SoftmaxOutput(net; name="softmax")
    @test "softmax_label" in list_arguments(net)

    epochs_seen = Int[]
    batches = Ref(0)
    model = fit(net, X, y; n_epoch=5, batch_size=32, optimizer=SGD(lr=0.1, momentum=0.9),
                initializer=XavierInitializer(), rng=rng, verbosity=0,
                callbacks=[EpochCallback(s -> push!(epochs_seen, s.epoch)),
                           BatchCallback(s -> (batches[] += 1; nothing); every=2)])
    @test epochs_seen == collect(1:5)
    @test batches[] == 5 * (cld(n, 32) ÷ 2)
    @test sort(collect(keys(model.arg_params))) == ["fc1_bias", "fc1_weight", "fc2_bias", "fc2_weight"]
    _, acc = Weft.metric_value(Weft.score(model, X, y))
    @test acc >= 0.95
    P = predict(model, X; batch_size=50)
    @test size(P) == (2, n)
    @test all(isapprox.(sum(P; dims=1), 1; atol=1e-5))
    @test predict(model, X; batch_size=64) ≈ P                 # padding of the last batch is dropped

    model2 = fit(net, X, y; n_epoch=5, batch_size=20, optimizer=Adam(lr=0.01), rng=rng, verbosity=0)
    @test Weft.metric_value(Weft.score(model2, X, y))[2] >= 0.95

    # A callback returning :stop ends training; the progress display writes to io.
    io = IOBuffer()
    seen = Int[]
    fit(net, X, y; n_epoch=10, verbosity=2, io=io, rng=rng,
        callbacks=[EpochCallback(s -> (push!(seen, s.epoch); s.epoch == 2 ? :stop : nothing))])
    @test seen == [1, 2]
    text = String(take!(io))
    @test occursin("Epoch 1/10", text) && occursin("train-accuracy=", text)

    @testset "checkpoints" begin
        mktempdir() do dir
            prefix = joinpath(dir, "mlp")
            save_checkpoint(model, prefix, 3)
            @test isfile(prefix * "-symbol.json") && isfile(prefix * "-0003.params")
            @test first.(load_ndarrays(prefix * "-0003.params")) ==
                  ["arg:fc1_weight", "arg:fc1_bias", "arg:fc2_weight", "arg:fc2_bias"]
            s2, args2, aux2 = load_checkpoint(prefix, 3)
            @test to_json(s2) == to_json(net)
            @test Array(args2["fc1_weight"]) == Array(model.arg_params["fc1_weight"])
            @test isempty(aux2)
            m2 = load_checkpoint(prefix, 3, Weft.FeedForward)
            @test predict(m2, X) ≈ P
            # training resumes from loaded parameters; do_checkpoint saves every epoch
            fit(m2, X, y; n_epoch=2, verbosity=0, rng=rng, callbacks=[Weft.do_checkpoint(prefix)])
            @test isfile(prefix * "-0001.params") && isfile(prefix * "-0002.params")
            @test_throws WeftError load_checkpoint(prefix, 7)
        end
    end

    @test_throws WeftError fit(net, X, y[1:10]; verbosity=0)       # sizes disagree
    @test_throws WeftError predict(Weft.FeedForward(net), X)       # no parameters
end
