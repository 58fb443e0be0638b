"""The README as a newcomer meets it: the two commands at the top, and the runnable tour."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess

from helpers import ROOT, console_script

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"(<!-- runnable[^>]*-->\n)?```sh\n(.*?)```", re.S)


def blocks():
    return [(bool(m.group(1)), m.group(2)) for m in BLOCK.finditer(README)]


def test_the_first_two_blocks_are_build_and_tests():
    (_, build), (_, tests) = blocks()[:2]
    assert build.strip().endswith("readinglist build") and "pip install" in build
    assert "pip install" in tests and "pytest" in tests and "[test]" in tests


def test_ci_runs_the_readme_test_command():
    tests = blocks()[1][1].strip()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    marker = ci.index("# README-TEST-COMMAND")
    assert ci[marker + 1].strip() == tests


def test_runnable_blocks_run(tmp_path):
    shutil.copytree(ROOT / "seeds", tmp_path / "seeds")
    exe = console_script()
    runnable = [text for marked, text in blocks() if marked]
    assert runnable, "no README block is marked runnable"
    env = {**os.environ, "NO_COLOR": "1", "READINGLIST_CONFIG": "", "READINGLIST_STORE": ""}
    for text in runnable:
        for line in text.strip().splitlines():
            argv = shlex.split(line)
            assert argv[0] == "readinglist", line
            out = subprocess.run([exe, *argv[1:]], cwd=tmp_path, capture_output=True, text=True, env=env)
            assert out.returncode == 0, f"{line}\n{out.stderr}"
    assert (tmp_path / "to-read.md").is_file() and (tmp_path / "neurips.bib").is_file()


def test_library_api_example_runs(tmp_path, monkeypatch):
    """The README's library example (the block that imports from readinglist) works as shown."""
    shutil.copytree(ROOT / "seeds", tmp_path / "seeds")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("READINGLIST_CONFIG", raising=False)
    monkeypatch.delenv("READINGLIST_STORE", raising=False)
    (example,) = [b for b in re.findall(r"```python\n(.*?)```", README, re.S) if b.startswith("from readinglist import")]
    namespace: dict = {}
    exec(compile(example, "README.md", "exec"), namespace)
    assert namespace["store"].get("canvit2026").status == "read"
    assert namespace["unread_llm"] and all(p.status == "unread" and "llm" in p.tags for p in namespace["unread_llm"])


def _commands(group, path=()):
    """(command path, click command) for every command below ``group``, depth first (through
    click's interface: the root builds its commands only when asked for them)."""
    if not hasattr(group, "list_commands"):
        return
    import typer

    ctx = typer.Context(group)
    for name in sorted(group.list_commands(ctx)):
        command = group.get_command(ctx, name)
        yield (*path, name), command
        yield from _commands(command, (*path, name))


def test_every_command_and_option_is_documented():
    """Each CLI command is named in the README (`readinglist CMD` or `CMD ...` in code), and each
    long option of each command, and each global option, appears there (as sqlite-utils checks)."""
    import typer.main

    from readinglist.cli import app

    group = typer.main.get_command(app)

    def mentioned(option: str) -> bool:
        return re.search(re.escape(option) + r"(?![\w-])", README) is not None

    missing = [f"global option {o}" for p in group.params for o in p.opts + p.secondary_opts if o.startswith("--") and o != "--help" and not mentioned(o)]
    commands = list(_commands(group))
    assert len(commands) >= 10
    for path, command in commands:
        name = " ".join(path)
        if not re.search(r"(?:`|^)(?:readinglist (?:--\S+ \S+ )*)?" + re.escape(name) + r"(?![\w-])", README, re.M):
            missing.append(f"command {name}")
        for param in command.params:
            for option in param.opts + param.secondary_opts:
                if option.startswith("--") and option != "--help" and not mentioned(option):
                    missing.append(f"{name} {option}")
    assert not missing, "not documented in README.md: " + ", ".join(missing)
