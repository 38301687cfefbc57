"""Image operators: those registered as ``_image_<x>``, exposed as
``weft.nd.image.<x>`` (``to_tensor``, ``normalize``, ``resize`` ...; filled at
import by weft._namespaces, as MXNet's ``mx.nd.image``). Not to be confused
with ``weft.image``, the image loading and augmentation package."""
