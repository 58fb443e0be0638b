"""The arguments and options several commands declare (typer objects: imported only by the
modules that declare commands)."""

from __future__ import annotations

import typer

from ..record import STATUSES

STATUS_HELP = " | ".join(STATUSES)


def _complete_key(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion for citation keys, from the store the command line names."""
    try:
        from ..config import load_config
        from ..store.library import Store

        root = ctx.find_root().params
        config = load_config(root.get("config"), store=root.get("store"))
        return [k for k in Store.open(config.store, config=config, create=False).keys() if k.startswith(incomplete)]
    except Exception:  # completion must never fail loudly
        return []


_KEY = typer.Argument(..., help="The paper's citation key.", autocompletion=_complete_key)
_STATUS_ARG = typer.Argument(..., help=STATUS_HELP, autocompletion=lambda incomplete: [s for s in STATUSES if s.startswith(incomplete)])

_STATUS_OPT = typer.Option(None, "--status", "-s", help=STATUS_HELP + " (repeat: any of them).")
_TAG_OPT = typer.Option(None, "--tag", "-t", help="Only papers with this tag (repeat: all must match).")
_VENUE_OPT = typer.Option(None, "--venue", help="Only this venue (e.g. NeurIPS).")
_YEAR_OPT = typer.Option(None, "--year", min=1000, max=2999, help="Only this year (1000-2999).")
_PRIORITY_OPT = typer.Option(None, "--priority", min=1, max=3, help="Only this priority (1-3).")
_RATING_OPT = typer.Option(None, "--rating", min=1, max=5, help="Only this rating (1-5).")
_SEARCH_OPT = typer.Option(None, "--search", help="Only papers whose title, abstract or notes contain TEXT.")

