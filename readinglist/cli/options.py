"""The arguments and options several commands declare (typer objects: imported only by the
modules that declare commands). The filter options are declared once, in :mod:`.filters`:
a command takes them all as one parameter, ``where: Filter = filter_options()``, and
:func:`with_filters` puts their typer options in its place."""

from __future__ import annotations

import typer

from ..constants import STATUSES
from .filters import FILTER_OPTIONS, PREFIX, STATUS_HELP, gathered

__all__ = ["STATUS_HELP", "filter_options", "with_filters"]


def complete_key(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion for citation keys, from the store the command line names."""
    try:
        from ..config import load_config
        from ..store.library import Store

        root = ctx.find_root().params
        config = load_config(root.get("config"), store=root.get("store"))
        return [k for k in Store.open(config.store, config=config, create=False).keys() if k.startswith(incomplete)]
    except Exception:  # completion must never fail loudly
        return []


KEY = typer.Argument(..., help="The paper's citation key.", autocompletion=complete_key)
STATUS_ARG = typer.Argument(..., help=STATUS_HELP, autocompletion=lambda incomplete: [s for s in STATUSES if s.startswith(incomplete)])


class FilterOptions:
    """The default of a command's ``where`` parameter: which filter options it takes (``only``:
    these Filter fields, else all) and any help of its own (``help``: field -> text)."""

    def __init__(self, only: tuple[str, ...] | None, help: dict[str, str]) -> None:
        self.only, self.help = only, help


def filter_options(*, only: tuple[str, ...] | None = None, help: dict[str, str] | None = None):
    """``where: Filter = filter_options()``: the command's filter options (see :func:`with_filters`)."""
    return FilterOptions(only, help or {})


def with_filters(func):
    """``func``, whose ``where`` parameter stands for the filter options, as typer sees a
    command: that parameter replaced, where it stands, by one typer option per filter of
    :data:`.filters.FILTER_OPTIONS` (named ``where_*``), gathered into one Filter when it runs."""
    import functools
    import inspect
    from typing import List, Optional, cast, get_type_hints

    signature = inspect.signature(func)
    hints = get_type_hints(func)
    params = []
    for param in signature.parameters.values():
        chosen = param.default
        if not isinstance(chosen, FilterOptions):
            params.append(param.replace(annotation=hints.get(param.name, param.annotation)))
            continue
        for field, names, kind, text in FILTER_OPTIONS:
            if chosen.only is not None and field not in chosen.only:
                continue
            text = chosen.help.get(field, text)
            annotation: object
            if kind == "texts":
                annotation, option = Optional[List[str]], typer.Option(None, *names, help=text)
            elif kind == "text":
                annotation, option = Optional[str], typer.Option(None, *names, help=text)
            else:
                lowest, highest = cast(tuple, kind)
                annotation, option = Optional[int], typer.Option(None, *names, min=lowest, max=highest, help=text)
            params.append(inspect.Parameter(PREFIX + field, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=option, annotation=annotation))

    @functools.wraps(func)
    def command(**kwargs):
        return func(**gathered(kwargs))

    command.__signature__ = signature.replace(parameters=params, return_annotation=hints.get("return", None))  # type: ignore[attr-defined]
    command.__annotations__ = {**{p.name: p.annotation for p in params}, "return": hints.get("return", None)}
    return command
