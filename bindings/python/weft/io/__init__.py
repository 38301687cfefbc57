"""weft.io: data iterators, as ``mxnet.io`` in MXNet 1.x.

DataDesc, DataBatch and the DataIter protocol; NDArrayIter over arrays in
memory; CSVIter, LibSVMIter (dense output: weft has no sparse arrays yet) and
MNISTIter over files; ImageRecordIter / ImageRecordUInt8Iter over RecordIO
images (read, decoded and augmented by a C++ thread pool, core/io/); ResizeIter
and PrefetchingIter around other iterators. The others are written in Python
(MXNet's file iterators are C++).
"""
from .base import DataBatch, DataDesc, DataIter, PrefetchingIter, ResizeIter
from .ndarray_iter import NDArrayIter
from .text_iters import CSVIter, LibSVMIter
from .mnist_iter import MNISTIter
from .native_image_record_iter import ImageRecordIter, ImageRecordUInt8Iter

__all__ = ["DataDesc", "DataBatch", "DataIter", "ResizeIter", "PrefetchingIter", "NDArrayIter", "CSVIter",
           "LibSVMIter", "MNISTIter", "ImageRecordIter", "ImageRecordUInt8Iter"]
