# Evaluation metrics, updated on the host from a batch's labels and outputs.

abstract type AbstractMetric end

"""
    Accuracy()

Classification accuracy: the predicted class of a sample is the argmax of its
output column (outputs have Julia size (classes, batch)); labels are class
indices starting at 0, as the library's SoftmaxOutput expects."""
mutable struct Accuracy <: AbstractMetric
    correct::Int
    total::Int
end
Accuracy() = Accuracy(0, 0)

"""    MSE(): mean squared error between outputs and labels."""
mutable struct MSE <: AbstractMetric
    sum::Float64
    total::Int
end
MSE() = MSE(0.0, 0)

reset!(m::Accuracy) = (m.correct = 0; m.total = 0; m)
reset!(m::MSE) = (m.sum = 0.0; m.total = 0; m)

"""    update!(metric, labels, outputs, n=length(labels)): counts the first n samples of a batch."""
function update!(m::Accuracy, labels::AbstractVector, outputs::AbstractArray, n::Integer=length(labels))
    pred = reshape(outputs, :, size(outputs, ndims(outputs)))     # (classes, batch)
    for j in 1:n
        m.correct += (argmax(view(pred, :, j)) - 1) == round(Int, labels[j])
    end
    m.total += n
    return m
end

function update!(m::MSE, labels::AbstractVector, outputs::AbstractArray, n::Integer=length(labels))
    pred = reshape(outputs, :, size(outputs, ndims(outputs)))
    for j in 1:n
        m.sum += (Float64(pred[1, j]) - Float64(labels[j]))^2
    end
    m.total += n
    return m
end

"""    metric_value(m) -> (name, value)"""
metric_value(m::Accuracy) = ("accuracy", m.total == 0 ? NaN : m.correct / m.total)
metric_value(m::MSE) = ("mse", m.total == 0 ? NaN : m.sum / m.total)
