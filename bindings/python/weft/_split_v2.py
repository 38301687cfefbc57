"""mx.nd.split_v2 / mx.sym.split_v2 and their methods: MXNet 1.9.1's Python
signature (ary, indices_or_sections, axis=0, squeeze_axis=False) over the
registry op ``_split_v2`` (core/op/shape/split_v2.cc), which takes the split
points as ``indices`` (starting at 0) or the part count as ``sections``."""
import numbers


def split_v2_attrs(indices_or_sections):
    """The op's (indices, sections) for MXNet's indices_or_sections: an int is a
    number of equal sections, a tuple the split points after 0."""
    if isinstance(indices_or_sections, numbers.Integral) and not isinstance(indices_or_sections, bool):
        return (), int(indices_or_sections)
    if isinstance(indices_or_sections, (tuple, list)):
        return tuple([0] + [int(i) for i in indices_or_sections]), 0
    raise ValueError("split_v2: indices_or_sections must be an int or a tuple of ints, got %r"
                     % (indices_or_sections,))


def wrap(op_fn, namespace):
    """split_v2 with MXNet's signature, calling the generated _split_v2 function op_fn."""
    def split_v2(ary, indices_or_sections, axis=0, squeeze_axis=False, **kwargs):
        indices, sections = split_v2_attrs(indices_or_sections)
        return op_fn(ary, indices=indices, axis=axis, squeeze_axis=squeeze_axis, sections=sections, **kwargs)
    split_v2.__name__ = "split_v2"
    split_v2.__qualname__ = "split_v2"
    split_v2.__doc__ = ("Splits an array along an axis into equal sections (indices_or_sections an int) or at "
                        "the given split points (a tuple), as %s._split_v2.\n\n%s" % (namespace, op_fn.__doc__ or ""))
    return split_v2
