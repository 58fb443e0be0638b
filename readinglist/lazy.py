"""Names a package gives on first use (PEP 562), so that importing the package stays cheap."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (typing is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def lazy_attributes(package: str, where: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: a name listed in ``where`` (name -> submodule)
    is imported from that submodule when first asked for, and kept in the package's namespace
    (later look-ups never come back here); any other name is an AttributeError."""

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        from importlib import import_module

        value = getattr(import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
