"""Each filter option declared once (cli/filters.py): the typer commands that take them, the
typer-free parser's tables (cli/fast.py) and the one value they reach the library as."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from readinglist.cli import fast
from readinglist.cli.filters import FILTER_OPTIONS, PREFIX
from readinglist.cli.root import build_command
from readinglist.exportspec import ExportSpec
from readinglist.selection import FIELDS, Filter

#: command path -> the Filter fields it takes
TAKING = {
    ("list",): FIELDS,
    ("mark",): FIELDS,
    ("tag",): FIELDS,
    ("export",): FIELDS,
    ("lists", "add"): FIELDS,
    ("next",): ("tags", "venue", "year"),
}


def _command(path: tuple[str, ...]):
    command = build_command(path[0])
    for name in path[1:]:
        command = command.commands[name]
    return command


def _kind(param) -> object:
    """An option as fast.py's tables describe it."""
    if param.is_flag:
        return "flag"
    if param.multiple:
        return "texts"
    if hasattr(param.type, "min"):
        return (param.type.min, param.type.max)
    assert param.type.name in ("text", "str"), param  # (typer 0.2x names click.STRING "str")
    return "text"


@pytest.mark.parametrize("path", sorted(TAKING))
def test_every_command_takes_the_filters_of_the_one_declaration(path):
    options = {p.name: p for p in _command(path).params if p.name.startswith(PREFIX)}
    declared = [(field, names, kind) for field, names, kind, _ in FILTER_OPTIONS if field in TAKING[path]]
    assert list(options) == [PREFIX + field for field, _, _ in declared]  # in the declared order
    for field, names, kind in declared:
        param = options[PREFIX + field]
        assert tuple(param.opts + param.secondary_opts) == names and _kind(param) == kind and param.default is None


@pytest.mark.parametrize("name, table", [("list", fast._LIST_OPTIONS), ("next", fast._NEXT_OPTIONS)])
def test_the_fast_parsers_table_is_the_typer_commands(name, table):
    """Every option of the typer command, with its kind and bounds, and nothing else (the fast
    parser hands anything else to typer, so a missing option would only be slower, but a wrong
    kind or bound would accept what typer refuses)."""
    expected = {}
    for param in _command((name,)).params:
        if param.name == "help" or param.param_type_name != "option":
            continue
        for opt in param.opts + param.secondary_opts:
            expected[opt] = (param.name, _kind(param))
    assert table == expected
    defaults = {p.name: p.default for p in _command((name,)).params if not p.name.startswith(PREFIX) and p.name != "help"}
    assert {k: v for k, v in (fast._LIST_DEFAULTS if name == "list" else fast._NEXT_DEFAULTS).items()} == defaults


def test_the_fast_parser_gives_one_filter():
    kwargs = fast._list_options(["--tag", "llm", "-t", "rl", "--year", "2026", "-s", "read", "--sort", "title"])
    assert kwargs == dict(where=Filter(status=("read",), tags=("llm", "rl"), year=2026), sort="title", reverse=False, limit=None, as_json=False)
    assert fast._command("mark", ["read", "k1", "k2"]) == dict(status="read", keys=["k1", "k2"], dry_run=False, where=Filter())


_filters = st.builds(
    Filter,
    status=st.lists(st.sampled_from(["unread", "reading", "read", "skipped"]), max_size=2),
    tags=st.lists(st.text(min_size=1, max_size=5), max_size=2),
    venue=st.none() | st.text(min_size=1, max_size=5),
    year=st.none() | st.integers(1000, 2999),
    priority=st.none() | st.integers(1, 3),
    rating=st.none() | st.integers(1, 5),
    search=st.none() | st.text(min_size=1, max_size=8),
)


@given(_filters)
def test_a_filter_is_a_frozen_value(where):
    assert Filter(**where.as_dict()) == where and hash(Filter(**where.as_dict())) == hash(where)
    assert bool(where) == any(v not in (None, ()) for v in where.as_dict().values()) == bool(where.describe())
    with pytest.raises(AttributeError):
        where.venue = "x"  # type: ignore[misc]
    assert where.replace(year=1999).year == 1999 and where.replace(year=1999).tags == where.tags


@given(_filters, st.sampled_from(["key", "-title"]), st.none() | st.text(min_size=1, max_size=5))
def test_an_auto_export_file_keeps_the_filters_by_name(where, sort, list_name):
    """The auto-export file's fields stay flat (status, tags, ... as before the one value)."""
    spec = ExportSpec(path="out.bib", where=where, sort=sort, list_name=list_name)
    data = spec.as_dict()
    assert "where" not in data and set(data) <= {"path", "sort", "list_name", *FIELDS}
    assert {k: v for k, v in data.items() if k in FIELDS} == {k: list(v) if isinstance(v, tuple) else v for k, v in where.as_dict().items() if v not in (None, ())}
    assert ExportSpec.from_dict(data, "here") == spec
