"""One test case of the operator harness (tests/python/test_op_harness.py).

Every registered operator must have at least one case; the harness runs each
forward against a NumPy reference. Gradient checks join when ops get gradients.
"""
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np


@dataclass
class Case:
    # Input arrays (numpy). A callable gets a numpy Generator and returns the list,
    # so random inputs are reproducible per case.
    inputs: Any
    # Keyword arguments for weft.nd.<op>(*inputs, **attrs) and the reference.
    attrs: Dict[str, Any] = field(default_factory=dict)
    # ref(*numpy_inputs, **attrs) -> array or tuple of arrays (all visible outputs).
    # None: the case checks only `check` (e.g. random ops).
    ref: Optional[Callable] = None
    rtol: float = 1e-5
    atol: float = 1e-6
    # Extra check on the outputs: check(outputs_as_numpy_list, numpy_inputs, attrs).
    check: Optional[Callable] = None
    # Keyword arguments given only to the reference (not to weft).
    ref_kwargs: Dict[str, Any] = field(default_factory=dict)
    # Pass attrs to the reference too (False when the reference takes none).
    ref_takes_attrs: bool = False
    name: str = ""
    # The op writes its inputs in place (reset_arrays, no outputs): compare the
    # inputs as they are after the call, instead of the outputs, with ref.
    compare_inputs: bool = False
    # How to run the op instead of weft.nd.<op>(*inputs, **attrs): call(*nd_inputs,
    # **attrs) -> output or list of outputs. The control-flow ops carry graphs a
    # plain call cannot give (Note [Subgraph operators]); their cases build and
    # bind a symbol.
    call: Optional[Callable] = None

    def make_inputs(self, rng: np.random.Generator) -> List[np.ndarray]:
        xs = self.inputs(rng) if callable(self.inputs) else self.inputs
        return [np.asarray(x) for x in xs]
