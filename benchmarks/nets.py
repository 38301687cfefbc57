"""Symbol builders for whole networks, after MXNet 1.x's example/image-classification/symbols.

Each builder returns a ``weft.sym`` Symbol ending in ``SoftmaxOutput(name='softmax')``, with
MXNet's node names, so ``list_arguments()`` reads as MXNet's does ('conv1_weight',
'fc1_bias', BatchNorm aux '..._moving_mean'). Nodes MXNet leaves unnamed get the name MXNet
gives them in a fresh process ('activation0', 'pooling0', 'flatten0'), except the residual
additions of ResNet, which are named by weft.name as MXNet's are ('_plus<n>'):

    alexnet(num_classes=1000)        AlexNet (symbols/alexnet.py), 3x224x224
    vgg16(num_classes=1000)          VGG-16 (symbols/vgg.py, num_layers=16, no BatchNorm), 3x224x224
    inception_bn(num_classes=1000)   Inception-BN (symbols/inception-bn.py), 3x224x224
    resnet50(num_classes=1000)       ResNet-50 v2, pre-activation (symbols/resnet.py), 3x224x224
    mlp(hidden=(512, 512), num_classes=10)  MLP for flattened 28x28 (784) inputs
    small_cnn(num_classes=10)        LeNet-like CNN for 1x28x28 inputs

``NETS`` maps MXNet's network names to the ImageNet builders.

Differences from MXNet:
  * weft has no ``LRN`` operator (``weft.sym.LRN`` does not exist). AlexNet's LRN is
    composed from primitives with MXNet's formula
        out = x * (knorm + alpha / nsize * sum_{nsize channels} x^2) ** -beta
    (square, expand_dims, 3-D sum pooling across channels, Reshape, scalar ops); its
    nodes are named '<name>_*'. When weft gains ``LRN`` it is used instead.
  * the float16 / ``dtype`` variants of MXNet's builders are left out (float32 only).

    PYTHONPATH=bindings/python WEFT_LIBRARY_PATH=build/libweft.so python benchmarks/nets.py
prints each network's argument count, parameter count and output shape at batch 64.
"""
import weft

sym = weft.sym


# ---- AlexNet -----------------------------------------------------------------------------------------

def lrn(data, name, alpha=0.0001, beta=0.75, knorm=2.0, nsize=5):
    """MXNet's LRN across channels (NCHW). weft.sym.LRN when weft has it, else composed
    from primitives (see the module docstring), every node named '<name>_*' and the
    last one ``name``."""
    if hasattr(sym, "LRN"):
        return sym.LRN(data=data, alpha=alpha, beta=beta, knorm=knorm, nsize=nsize, name=name)
    sq = sym.square(data, name=name + "_sq")
    # (N, C, H, W) -> (N, 1, C, H, W): sum x^2 over a window of nsize channels (zero padded).
    sq5 = sym.expand_dims(sq, axis=1, name=name + "_expand")
    win = sym.Pooling(sq5, kernel=(nsize, 1, 1), stride=(1, 1, 1), pad=(nsize // 2, 0, 0), pool_type="sum",
                      name=name + "_sum")
    win = sym.Reshape(win, shape=(0, -3, 0, 0), name=name + "_reshape")  # back to (N, C, H, W)
    scaled = sym._mul_scalar(win, scalar=alpha / nsize, name=name + "_scale")
    shifted = sym._plus_scalar(scaled, scalar=float(knorm), name=name + "_knorm")
    norm = sym._power_scalar(shifted, scalar=-beta, name=name + "_pow")
    return sym.elemwise_mul(data, norm, name=name)


def alexnet(num_classes=1000):
    data = sym.Variable("data")
    # stage 1
    conv1 = sym.Convolution(data=data, kernel=(11, 11), stride=(4, 4), num_filter=96, name="conv1")
    relu1 = sym.Activation(data=conv1, act_type="relu", name="activation0")
    lrn1 = lrn(relu1, "lrn0", alpha=0.0001, beta=0.75, knorm=2, nsize=5)
    pool1 = sym.Pooling(data=lrn1, pool_type="max", kernel=(3, 3), stride=(2, 2), name="pooling0")
    # stage 2
    conv2 = sym.Convolution(data=pool1, kernel=(5, 5), pad=(2, 2), num_filter=256, name="conv2")
    relu2 = sym.Activation(data=conv2, act_type="relu", name="activation1")
    lrn2 = lrn(relu2, "lrn1", alpha=0.0001, beta=0.75, knorm=2, nsize=5)
    pool2 = sym.Pooling(data=lrn2, kernel=(3, 3), stride=(2, 2), pool_type="max", name="pooling1")
    # stage 3
    conv3 = sym.Convolution(data=pool2, kernel=(3, 3), pad=(1, 1), num_filter=384, name="conv3")
    relu3 = sym.Activation(data=conv3, act_type="relu", name="activation2")
    conv4 = sym.Convolution(data=relu3, kernel=(3, 3), pad=(1, 1), num_filter=384, name="conv4")
    relu4 = sym.Activation(data=conv4, act_type="relu", name="activation3")
    conv5 = sym.Convolution(data=relu4, kernel=(3, 3), pad=(1, 1), num_filter=256, name="conv5")
    relu5 = sym.Activation(data=conv5, act_type="relu", name="activation4")
    pool3 = sym.Pooling(data=relu5, kernel=(3, 3), stride=(2, 2), pool_type="max", name="pooling2")
    # stage 4
    flatten = sym.Flatten(data=pool3, name="flatten0")
    fc1 = sym.FullyConnected(data=flatten, num_hidden=4096, name="fc1")
    relu6 = sym.Activation(data=fc1, act_type="relu", name="activation5")
    dropout1 = sym.Dropout(data=relu6, p=0.5, name="dropout0")
    # stage 5
    fc2 = sym.FullyConnected(data=dropout1, num_hidden=4096, name="fc2")
    relu7 = sym.Activation(data=fc2, act_type="relu", name="activation6")
    dropout2 = sym.Dropout(data=relu7, p=0.5, name="dropout1")
    # stage 6
    fc3 = sym.FullyConnected(data=dropout2, num_hidden=num_classes, name="fc3")
    return sym.SoftmaxOutput(data=fc3, name="softmax")


# ---- VGG -----------------------------------------------------------------------------------------------

VGG_SPEC = {11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]),
            13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
            16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]),
            19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512])}


def vgg(num_classes=1000, num_layers=16, batch_norm=False):
    layers, filters = VGG_SPEC[num_layers]
    body = sym.Variable("data")
    for i, num in enumerate(layers):
        for j in range(num):
            body = sym.Convolution(data=body, kernel=(3, 3), pad=(1, 1), num_filter=filters[i],
                                   name="conv%d_%d" % (i + 1, j + 1))
            if batch_norm:
                body = sym.BatchNorm(data=body, name="bn%d_%d" % (i + 1, j + 1))
            body = sym.Activation(data=body, act_type="relu", name="relu%d_%d" % (i + 1, j + 1))
        body = sym.Pooling(data=body, pool_type="max", kernel=(2, 2), stride=(2, 2), name="pool%d" % (i + 1))
    flatten = sym.Flatten(data=body, name="flatten")
    fc6 = sym.FullyConnected(data=flatten, num_hidden=4096, name="fc6")
    relu6 = sym.Activation(data=fc6, act_type="relu", name="relu6")
    drop6 = sym.Dropout(data=relu6, p=0.5, name="drop6")
    fc7 = sym.FullyConnected(data=drop6, num_hidden=4096, name="fc7")
    relu7 = sym.Activation(data=fc7, act_type="relu", name="relu7")
    drop7 = sym.Dropout(data=relu7, p=0.5, name="drop7")
    fc8 = sym.FullyConnected(data=drop7, num_hidden=num_classes, name="fc8")
    return sym.SoftmaxOutput(data=fc8, name="softmax")


def vgg16(num_classes=1000):
    return vgg(num_classes, num_layers=16)


# ---- Inception-BN ----------------------------------------------------------------------------------

_IBN_EPS = 1e-10 + 1e-5
_IBN_MOM = 0.9
_IBN_FIX_GAMMA = False


def _conv_factory(data, num_filter, kernel, stride=(1, 1), pad=(0, 0), name=None, suffix=""):
    conv = sym.Convolution(data=data, num_filter=num_filter, kernel=kernel, stride=stride, pad=pad,
                           name="conv_%s%s" % (name, suffix))
    bn = sym.BatchNorm(data=conv, fix_gamma=_IBN_FIX_GAMMA, eps=_IBN_EPS, momentum=_IBN_MOM,
                       name="bn_%s%s" % (name, suffix))
    return sym.Activation(data=bn, act_type="relu", name="relu_%s%s" % (name, suffix))


def _inception_a(data, num_1x1, num_3x3red, num_3x3, num_d3x3red, num_d3x3, pool, proj, name):
    c1x1 = _conv_factory(data, num_1x1, (1, 1), name="%s_1x1" % name)
    c3x3r = _conv_factory(data, num_3x3red, (1, 1), name="%s_3x3" % name, suffix="_reduce")
    c3x3 = _conv_factory(c3x3r, num_3x3, (3, 3), pad=(1, 1), name="%s_3x3" % name)
    cd3x3r = _conv_factory(data, num_d3x3red, (1, 1), name="%s_double_3x3" % name, suffix="_reduce")
    cd3x3 = _conv_factory(cd3x3r, num_d3x3, (3, 3), pad=(1, 1), name="%s_double_3x3_0" % name)
    cd3x3 = _conv_factory(cd3x3, num_d3x3, (3, 3), pad=(1, 1), name="%s_double_3x3_1" % name)
    pooling = sym.Pooling(data=data, kernel=(3, 3), stride=(1, 1), pad=(1, 1), pool_type=pool,
                          name="%s_pool_%s_pool" % (pool, name))
    cproj = _conv_factory(pooling, proj, (1, 1), name="%s_proj" % name)
    return sym.Concat(c1x1, c3x3, cd3x3, cproj, name="ch_concat_%s_chconcat" % name)


def _inception_b(data, num_3x3red, num_3x3, num_d3x3red, num_d3x3, name):
    c3x3r = _conv_factory(data, num_3x3red, (1, 1), name="%s_3x3" % name, suffix="_reduce")
    c3x3 = _conv_factory(c3x3r, num_3x3, (3, 3), pad=(1, 1), stride=(2, 2), name="%s_3x3" % name)
    cd3x3r = _conv_factory(data, num_d3x3red, (1, 1), name="%s_double_3x3" % name, suffix="_reduce")
    cd3x3 = _conv_factory(cd3x3r, num_d3x3, (3, 3), pad=(1, 1), stride=(1, 1), name="%s_double_3x3_0" % name)
    cd3x3 = _conv_factory(cd3x3, num_d3x3, (3, 3), pad=(1, 1), stride=(2, 2), name="%s_double_3x3_1" % name)
    pooling = sym.Pooling(data=data, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max",
                          name="max_pool_%s_pool" % name)
    return sym.Concat(c3x3, cd3x3, pooling, name="ch_concat_%s_chconcat" % name)


def inception_bn(num_classes=1000):
    """Inception-BN for 224x224 inputs (the 'height > 28' branch of MXNet's builder)."""
    data = sym.Variable("data")
    # stage 1
    conv1 = _conv_factory(data, 64, (7, 7), stride=(2, 2), pad=(3, 3), name="1")
    pool1 = sym.Pooling(data=conv1, kernel=(3, 3), stride=(2, 2), pool_type="max", name="pool_1")
    # stage 2
    conv2red = _conv_factory(pool1, 64, (1, 1), stride=(1, 1), name="2_red")
    conv2 = _conv_factory(conv2red, 192, (3, 3), stride=(1, 1), pad=(1, 1), name="2")
    pool2 = sym.Pooling(data=conv2, kernel=(3, 3), stride=(2, 2), pool_type="max", name="pool_2")
    # stage 3
    in3a = _inception_a(pool2, 64, 64, 64, 64, 96, "avg", 32, "3a")
    in3b = _inception_a(in3a, 64, 64, 96, 64, 96, "avg", 64, "3b")
    in3c = _inception_b(in3b, 128, 160, 64, 96, "3c")
    # stage 4
    in4a = _inception_a(in3c, 224, 64, 96, 96, 128, "avg", 128, "4a")
    in4b = _inception_a(in4a, 192, 96, 128, 96, 128, "avg", 128, "4b")
    in4c = _inception_a(in4b, 160, 128, 160, 128, 160, "avg", 128, "4c")
    in4d = _inception_a(in4c, 96, 128, 192, 160, 192, "avg", 128, "4d")
    in4e = _inception_b(in4d, 128, 192, 192, 256, "4e")
    # stage 5
    in5a = _inception_a(in4e, 352, 192, 320, 160, 224, "avg", 128, "5a")
    in5b = _inception_a(in5a, 352, 192, 320, 192, 224, "max", 128, "5b")
    # global average pooling (7x7 at 224x224 input)
    avg = sym.Pooling(data=in5b, kernel=(7, 7), stride=(1, 1), pool_type="avg", name="global_pool")
    flatten = sym.Flatten(data=avg, name="flatten")
    fc1 = sym.FullyConnected(data=flatten, num_hidden=num_classes, name="fc1")
    return sym.SoftmaxOutput(data=fc1, name="softmax")


# ---- ResNet v2 -------------------------------------------------------------------------------------------

def _residual_unit(data, num_filter, stride, dim_match, name, bottle_neck=True, bn_mom=0.9, workspace=256):
    """Pre-activation unit (BN-ReLU-Conv); bottleneck 1x1 -> 3x3 -> 1x1 with num_filter/4 inside."""
    if bottle_neck:
        bn1 = sym.BatchNorm(data=data, fix_gamma=False, eps=2e-5, momentum=bn_mom, name=name + "_bn1")
        act1 = sym.Activation(data=bn1, act_type="relu", name=name + "_relu1")
        conv1 = sym.Convolution(data=act1, num_filter=int(num_filter * 0.25), kernel=(1, 1), stride=(1, 1),
                                pad=(0, 0), no_bias=True, workspace=workspace, name=name + "_conv1")
        bn2 = sym.BatchNorm(data=conv1, fix_gamma=False, eps=2e-5, momentum=bn_mom, name=name + "_bn2")
        act2 = sym.Activation(data=bn2, act_type="relu", name=name + "_relu2")
        conv2 = sym.Convolution(data=act2, num_filter=int(num_filter * 0.25), kernel=(3, 3), stride=stride,
                                pad=(1, 1), no_bias=True, workspace=workspace, name=name + "_conv2")
        bn3 = sym.BatchNorm(data=conv2, fix_gamma=False, eps=2e-5, momentum=bn_mom, name=name + "_bn3")
        act3 = sym.Activation(data=bn3, act_type="relu", name=name + "_relu3")
        conv3 = sym.Convolution(data=act3, num_filter=num_filter, kernel=(1, 1), stride=(1, 1), pad=(0, 0),
                                no_bias=True, workspace=workspace, name=name + "_conv3")
        out = conv3
    else:
        bn1 = sym.BatchNorm(data=data, fix_gamma=False, momentum=bn_mom, eps=2e-5, name=name + "_bn1")
        act1 = sym.Activation(data=bn1, act_type="relu", name=name + "_relu1")
        conv1 = sym.Convolution(data=act1, num_filter=num_filter, kernel=(3, 3), stride=stride, pad=(1, 1),
                                no_bias=True, workspace=workspace, name=name + "_conv1")
        bn2 = sym.BatchNorm(data=conv1, fix_gamma=False, momentum=bn_mom, eps=2e-5, name=name + "_bn2")
        act2 = sym.Activation(data=bn2, act_type="relu", name=name + "_relu2")
        out = sym.Convolution(data=act2, num_filter=num_filter, kernel=(3, 3), stride=(1, 1), pad=(1, 1),
                              no_bias=True, workspace=workspace, name=name + "_conv2")
    if dim_match:
        shortcut = data
    else:
        shortcut = sym.Convolution(data=act1, num_filter=num_filter, kernel=(1, 1), stride=stride, no_bias=True,
                                   workspace=workspace, name=name + "_sc")
    return out + shortcut


def resnet(units, filter_list, num_classes=1000, bottle_neck=True, bn_mom=0.9, workspace=256):
    """MXNet's resnet.py for ImageNet-sized (height > 32) inputs."""
    data = sym.Variable("data")
    data = sym.identity(data=data, name="id")
    data = sym.BatchNorm(data=data, fix_gamma=True, eps=2e-5, momentum=bn_mom, name="bn_data")
    body = sym.Convolution(data=data, num_filter=filter_list[0], kernel=(7, 7), stride=(2, 2), pad=(3, 3),
                           no_bias=True, workspace=workspace, name="conv0")
    body = sym.BatchNorm(data=body, fix_gamma=False, eps=2e-5, momentum=bn_mom, name="bn0")
    body = sym.Activation(data=body, act_type="relu", name="relu0")
    body = sym.Pooling(data=body, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max", name="pooling0")
    for i, n in enumerate(units):
        s = 1 if i == 0 else 2
        body = _residual_unit(body, filter_list[i + 1], (s, s), False, name="stage%d_unit%d" % (i + 1, 1),
                              bottle_neck=bottle_neck, bn_mom=bn_mom, workspace=workspace)
        for j in range(n - 1):
            body = _residual_unit(body, filter_list[i + 1], (1, 1), True, name="stage%d_unit%d" % (i + 1, j + 2),
                                  bottle_neck=bottle_neck, bn_mom=bn_mom, workspace=workspace)
    bn1 = sym.BatchNorm(data=body, fix_gamma=False, eps=2e-5, momentum=bn_mom, name="bn1")
    relu1 = sym.Activation(data=bn1, act_type="relu", name="relu1")
    # MXNet passes a kernel although global_pool ignores it.
    pool1 = sym.Pooling(data=relu1, global_pool=True, kernel=(7, 7), pool_type="avg", name="pool1")
    flat = sym.Flatten(data=pool1, name="flatten0")
    fc1 = sym.FullyConnected(data=flat, num_hidden=num_classes, name="fc1")
    return sym.SoftmaxOutput(data=fc1, name="softmax")


def resnet50(num_classes=1000):
    return resnet([3, 4, 6, 3], [64, 256, 512, 1024, 2048], num_classes)


# ---- small networks (MNIST-sized) -------------------------------------------------------------------------

def mlp(hidden=(512, 512), num_classes=10):
    """Input (batch, 784)."""
    body = sym.Variable("data")
    for i, h in enumerate(hidden):
        body = sym.FullyConnected(data=body, num_hidden=h, name="fc%d" % (i + 1))
        body = sym.Activation(data=body, act_type="relu", name="relu%d" % (i + 1))
    fc = sym.FullyConnected(data=body, num_hidden=num_classes, name="fc%d" % (len(hidden) + 1))
    return sym.SoftmaxOutput(data=fc, name="softmax")


def small_cnn(num_classes=10):
    """Input (batch, 1, 28, 28): conv32-relu-pool-conv64-relu-pool-fc128-relu-fc."""
    data = sym.Variable("data")
    conv1 = sym.Convolution(data=data, kernel=(3, 3), pad=(1, 1), num_filter=32, name="conv1")
    relu1 = sym.Activation(data=conv1, act_type="relu", name="relu1")
    pool1 = sym.Pooling(data=relu1, pool_type="max", kernel=(2, 2), stride=(2, 2), name="pool1")
    conv2 = sym.Convolution(data=pool1, kernel=(3, 3), pad=(1, 1), num_filter=64, name="conv2")
    relu2 = sym.Activation(data=conv2, act_type="relu", name="relu2")
    pool2 = sym.Pooling(data=relu2, pool_type="max", kernel=(2, 2), stride=(2, 2), name="pool2")
    flatten = sym.Flatten(data=pool2, name="flatten")
    fc1 = sym.FullyConnected(data=flatten, num_hidden=128, name="fc1")
    relu3 = sym.Activation(data=fc1, act_type="relu", name="relu3")
    fc2 = sym.FullyConnected(data=relu3, num_hidden=num_classes, name="fc2")
    return sym.SoftmaxOutput(data=fc2, name="softmax")


NETS = {"alexnet": alexnet, "vgg16": vgg16, "inception-bn": inception_bn, "resnet-50": resnet50}

# Input shape (without the batch axis) of every builder here.
INPUT_SHAPES = {"alexnet": (3, 224, 224), "vgg16": (3, 224, 224), "inception-bn": (3, 224, 224),
                "resnet-50": (3, 224, 224), "mlp": (784,), "small-cnn": (1, 28, 28)}
BUILDERS = dict(NETS, **{"mlp": mlp, "small-cnn": small_cnn})


def main():
    batch = 64
    for name, build in BUILDERS.items():
        net = build()
        arg_shapes, out_shapes, aux_shapes = net.infer_shape(data=(batch,) + INPUT_SHAPES[name])
        params = 0
        for a, s in zip(net.list_arguments(), arg_shapes):
            if a not in ("data", "softmax_label"):
                n = 1
                for d in s:
                    n *= d
                params += n
        print("%-13s args %3d  aux %3d  params %11d  output %s"
              % (name, len(arg_shapes), len(aux_shapes), params, out_shapes[0]))


if __name__ == "__main__":
    main()
