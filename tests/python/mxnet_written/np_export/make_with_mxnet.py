"""Wrote the files beside it with MXNet 1.9.1 (pip, CPU) in NumPy mode, run from this folder:
a HybridBlock of built-in layers and F.np/F.npx calls, hybridized and exported; input.npy
(an earlier random input) is its input and output.npy MXNet's output. Not run by the tests
(MXNet is never a test dependency): tests/python/test_np_mxnet_export.py reads its files."""
import numpy as onp, mxnet as mx
from mxnet import np, npx, gluon
npx.set_np()
mx.random.seed(0)
class Net(gluon.HybridBlock):
    def __init__(self):
        super().__init__()
        self.conv = gluon.nn.Conv2D(4, 3, padding=1, activation="relu")
        self.bn = gluon.nn.BatchNorm()
        self.pool = gluon.nn.MaxPool2D(2)
        self.dense = gluon.nn.Dense(5)
    def hybrid_forward(self, F, x):
        y = self.pool(self.bn(self.conv(x)))
        y = F.np.reshape(y, (-1, 4 * 4 * 4))
        z = self.dense(y)
        return F.npx.softmax(z * 2 + 1, axis=-1) - F.np.mean(z, axis=1, keepdims=True) + F.np.sum(z, axis=0)
net = Net(); net.initialize(mx.init.Xavier()); net.hybridize()
x = np.array(onp.load("input.npy"))
y = net(x)
net.export("mnet", epoch=0)
onp.save("output.npy", y.asnumpy())
import json; print(sorted({n["op"] for n in json.load(open("mnet-symbol.json"))["nodes"]}))
