"""The process environment (issue 29, item 5): a reader that leaves the pipe, a closed stdout,
an ASCII locale, arguments that are not UTF-8, a CSL-JSON file with lone surrogates, a store
folder that may not be read. Each ends in at most one line, a non-zero exit where the command
cannot do its work, and nothing written half. The CLI runs as a real process (pipes, closed
descriptors and locales are the process's)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from helpers import console_script, unrelated_records
from readinglist.store import Store

TITLE = "Café crème: résumé of naïve “quotes” — ☕"


@pytest.fixture
def lib(tmp_path):
    root = tmp_path / "lib"
    store = Store.open(root)
    records = [r.evolve(key=f"k{i}", title=f"{TITLE} {i}", abstract="alpha délta " + r.abstract, venue="NeurIPS") for i, r in enumerate(unrelated_records(300, year=2020))]
    store.import_records(records)
    return root


def run(args, *, env=None, **kwargs):
    full = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LANG", "LC_ALL", "LC_CTYPE")}
    full.update(env or {})
    return subprocess.run([console_script(), *args], env=full, capture_output=kwargs.pop("capture_output", True), timeout=60, **kwargs)


def one_line_at_most(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text and len(text.strip().splitlines()) <= 1, text
    return text


@pytest.mark.parametrize(
    "args",
    [["list", "--json"], ["list"], ["search", "alpha", "--json", "-n", "300"], ["show", "k1"], ["export", "-f", "csljson"], ["export", "-f", "markdown"], ["stats"]],
    ids=" ".join,
)
def test_a_reader_that_left_the_pipe_ends_the_command_quietly(lib, args):
    read, write = os.pipe()
    os.close(read)  # `| head -1` that has read its line already
    try:
        proc = run(["--store", str(lib), *args], stdout=write, stderr=subprocess.PIPE, capture_output=False)
    finally:
        os.close(write)
    one_line_at_most(proc.stderr)
    assert proc.returncode != 0


@pytest.mark.parametrize("args", [["list"], ["show", "k1"], ["search", "alpha"], ["mark", "read", "k1"], ["list", "--json"]], ids=" ".join)
def test_a_closed_stdout_is_one_line_and_nothing_is_done(lib, args):
    before = (lib / "papers" / "k1.toml").read_bytes()
    proc = run(["--store", str(lib), *args], preexec_fn=lambda: os.close(1), stdout=None, stderr=subprocess.PIPE, capture_output=False)
    text = one_line_at_most(proc.stderr)
    assert proc.returncode == 1 and "standard output is closed" in text
    assert (lib / "papers" / "k1.toml").read_bytes() == before


C_LOCALE = {"LC_ALL": "C", "PYTHONUTF8": "0"}


@pytest.mark.parametrize(
    "args",
    [["list"], ["show", "k1"], ["search", "alpha"], ["next"], ["stats"], ["export", "-f", "csljson"], ["export", "-f", "markdown"], ["export", "-f", "bibtex"], ["export", "-f", "zotero"]],
    ids=" ".join,
)
def test_an_ascii_locale_prints_without_encoding_errors(lib, args):
    proc = run(["--store", str(lib), *args], env=C_LOCALE)
    one_line_at_most(proc.stderr)
    assert proc.returncode == 0
    if args[0] in ("list", "show", "search", "next"):
        assert "Café crème" in proc.stdout.decode("utf-8")


def test_an_ascii_locale_keeps_json_exact_and_text_typed_there(lib):
    proc = run(["--store", str(lib), "show", "k1", "--json"], env=C_LOCALE)
    assert proc.returncode == 0 and json.loads(proc.stdout)["title"] == f"{TITLE} 1"
    proc = run(["--store", str(lib), "note", "k1", "-m", "très bien"], env=C_LOCALE)
    assert proc.returncode == 0, proc.stderr
    assert Store.open(lib).get("k1").notes == "très bien"
    proc = run(["--store", str(lib), "lists", "new", "week", "--title", "Semaine d’été"], env=C_LOCALE)
    assert proc.returncode == 0, proc.stderr
    from readinglist.store import lists

    assert lists.load(Store.open(lib), "week").title == "Semaine d’été"


@pytest.mark.parametrize(
    "args,path",
    [
        ([b"note", b"k1", b"-m", b"bad \xff byte"], "papers/k1.toml"),
        ([b"lists", b"new", b"wk", b"--title", b"bad \xff"], "lists/wk.toml"),
        ([b"tag", b"k1", b"t\xe9"], "papers/k1.toml"),
        ([b"export", b"-f", b"zotero", b"--title", b"bad \xff", b"-o", b"OUT"], "OUT"),
    ],
    ids=lambda a: b" ".join(a).decode("ascii", "replace") if isinstance(a, list) else a,
)
def test_an_argument_that_is_not_utf8_is_refused_before_anything_is_written(lib, args, path):
    target = lib / path if path != "OUT" else lib.parent / "out.rdf"
    args = [a if a != b"OUT" else os.fsencode(target) for a in args]
    before = target.read_bytes() if target.exists() else None
    proc = subprocess.run([console_script(), "--store", str(lib), *args], capture_output=True, timeout=60)
    text = one_line_at_most(proc.stderr)
    assert proc.returncode == 2 and "not UTF-8" in text and "\\xff" in text or "\\xe9" in text
    assert (target.read_bytes() if target.exists() else None) == before


def test_lone_surrogates_in_csl_json_are_one_line_naming_the_item(tmp_path):
    src = tmp_path / "in.json"
    src.write_text('[{"id": "a1", "type": "article", "title": "ok"}, {"id": "b2", "type": "article", "title": "bad \\ud800 one"}]', encoding="utf-8")
    proc = run(["--store", str(tmp_path / "lib"), "import", str(src)])
    text = one_line_at_most(proc.stderr)
    assert proc.returncode == 1 and "in.json" in text and "b2" in text
    assert not list((tmp_path / "lib" / "papers").glob("*.toml")) if (tmp_path / "lib" / "papers").exists() else True


def _without_file_permission_override() -> list[str] | None:
    """A prefix that runs a command with file permissions enforced: nothing for a user that is
    not root; for root, setpriv dropping CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    caps = "-dac_override,-dac_read_search"
    probe = subprocess.run([setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}", sys.executable, "-c", "pass"], capture_output=True)
    return [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}"] if probe.returncode == 0 else None


@pytest.mark.parametrize("folder", ["papers", "."])
@pytest.mark.parametrize("args", [["list"], ["search", "alpha"], ["export", "-f", "bibtex"], ["lists"], ["mark", "read", "k1"]], ids=" ".join)
def test_an_unreadable_store_folder_is_one_line(lib, folder, args):
    prefix = _without_file_permission_override()
    if prefix is None:
        pytest.skip("root reads every folder and setpriv cannot drop that here")
    where = lib / folder
    where.chmod(0)
    try:
        proc = subprocess.run([*prefix, console_script(), "--store", str(lib), *args], capture_output=True, timeout=60)
    finally:
        where.chmod(0o755)
    text = one_line_at_most(proc.stderr)
    if args == ["lists"] and folder == "papers":  # no list: the papers are not needed
        assert proc.returncode == 0, text
        return
    assert proc.returncode == 1 and "permission denied" in text, text
