"""weft.gluon.data.vision: vision datasets and transforms, as
``mxnet.gluon.data.vision`` in MXNet 1.x."""
from . import datasets, transforms
from .datasets import (CIFAR10, CIFAR100, MNIST, FashionMNIST, ImageFolderDataset, ImageListDataset,
                       ImageRecordDataset)

__all__ = ["datasets", "transforms", "MNIST", "FashionMNIST", "CIFAR10", "CIFAR100", "ImageRecordDataset",
           "ImageFolderDataset", "ImageListDataset"]
