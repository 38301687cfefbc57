"""Evaluation metrics (MXNet 1.x's mx.metric): ``weft.metric.create(name)`` and
every metric MXNet 1.9.1 registers, under its names and aliases: accuracy (acc),
top_k_accuracy (top_k_acc), f1, mcc, pcc, mae, mse, rmse, crossentropy (ce),
negativeloglikelihood (nll_loss), perplexity (ppl), pearsoncorrelation
(pearsonr), loss, torch, caffe, custommetric, compositeevalmetric (composite).
"""
from .base import EvalMetric, check_label_shapes
from .registry import alias, register
from .classification import F1, MCC, PCC, Accuracy, TopKAccuracy
from .regression import MAE, MSE, RMSE, PearsonCorrelation
from .probability import CrossEntropy, NegativeLogLikelihood, Perplexity
from .custom import Caffe, CustomMetric, Loss, Torch, np
from .composite import CompositeEvalMetric, create

__all__ = ["EvalMetric", "CompositeEvalMetric", "Accuracy", "TopKAccuracy", "F1", "MCC", "PCC", "MAE", "MSE",
           "RMSE", "CrossEntropy", "NegativeLogLikelihood", "Perplexity", "PearsonCorrelation", "Loss", "Torch",
           "Caffe", "CustomMetric", "np", "create", "register", "alias", "check_label_shapes"]
