"""Collects CASES from every module in this package: {op_name: [Case, ...]}."""
import importlib
import pkgutil

CASES = {}
for _m in pkgutil.iter_modules(__path__):
    if _m.name == "case":
        continue
    _mod = importlib.import_module(f"{__name__}.{_m.name}")
    for _op, _cases in getattr(_mod, "CASES", {}).items():
        assert _op not in CASES, f"operator {_op} has cases in two modules"
        CASES[_op] = list(_cases)
