"""exports/ is what `readinglist build` makes from seeds/ — this test fails when it is stale.

Regenerate with: readinglist build   (with a fresh store: rm -rf library first)
"""

from __future__ import annotations

from helpers import ROOT
from typer.testing import CliRunner

from readinglist.cli import app


def test_exports_are_current(project, monkeypatch):
    monkeypatch.chdir(project)
    result = CliRunner().invoke(app, ["build"])
    assert result.exit_code == 0, result.output
    built = {p.name: p.read_text(encoding="utf-8") for p in sorted((project / "exports").iterdir())}
    committed = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "exports").iterdir())}
    assert sorted(built) == sorted(committed), "exports/ has other files than `readinglist build` makes"
    stale = [name for name in built if built[name] != committed[name]]
    assert not stale, f"exports/ is stale ({', '.join(stale)}): run `rm -rf library && readinglist build` and commit"
