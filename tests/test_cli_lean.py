"""The console script builds only the command it runs (start-up time): every invocation must
behave as the full app does, help, errors and suggestions included."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from readinglist.cli import _command_app, app

runner = CliRunner()


@pytest.fixture(scope="module")
def store(tmp_path_factory, seed_paths):
    path = tmp_path_factory.mktemp("lean") / "library"
    result = runner.invoke(app, ["--store", str(path), "import", str(seed_paths[0])])
    assert result.exit_code == 0, result.output
    return str(path)


def _args(store):
    return [
        [],
        ["--help"],
        ["--version"],
        ["--store", store, "show", "canvit2026"],
        [f"--store={store}", "show", "canvit2026", "--json"],
        ["--store", store, "show", "canvit2025"],  # unknown key: suggestions
        ["--store", store, "show"],  # missing argument
        ["--store", store, "show", "-h"],
        ["--store", store, "shw", "canvit2026"],  # unknown command: "did you mean"
        ["--store", store, "mark", "done", "canvit2026"],
        ["--store", store, "rate", "canvit2026", "9"],
        ["--store", store, "list", "--tag", "llm", "--bogus"],
        ["--store", store, "--config", "/nonexistent/config.toml", "list"],
        ["--store", store, "stats"],
        ["--store", store, "formats"],
        ["--store", store, "lists"],
    ]


def test_the_lean_app_behaves_as_the_full_one(store):
    for args in _args(store):
        lean = _command_app(args)
        full = runner.invoke(app, args)
        got = runner.invoke(lean, args)
        assert (got.exit_code, got.output) == (full.exit_code, full.output), args
        if args[-2:] == ["show", "canvit2026"]:
            assert lean is not app and [c.callback.__name__ for c in lean.registered_commands] == ["show"]


def test_completion_and_root_options_get_the_full_app(store, monkeypatch):
    assert _command_app(["--help", "show"]) is app
    assert _command_app(["--install-completion"]) is app
    monkeypatch.setenv("_READINGLIST_COMPLETE", "complete_bash")
    assert _command_app(["--store", store, "show", "c"]) is app
