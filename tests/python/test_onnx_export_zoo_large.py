"""The model-zoo nets with the most parameters (VGG with and without BatchNorm,
ResNet-101/152, AlexNet) exported to ONNX, run in ONNX Runtime equal to Weft and
imported back equal again (issue 40), apart from test_onnx_export_zoo.py for
their time: about 7 of its 9 minutes on a loaded 2-core machine."""
import pytest

from onnx_check import check_zoo_net
from test_onnx_export_zoo import LARGE


@pytest.mark.parametrize("name", LARGE)
def test_large_zoo_net_exports_and_imports_back_equal(name, tmp_path):
    check_zoo_net(name, tmp_path)
