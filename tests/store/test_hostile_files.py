"""The store's file layer under odd files (issue 14): modes kept, no write through a link or out
of the store, only regular files read (FIFOs, devices, folders refused, size capped), exports
and config that fail with one line, a full disk."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


from helpers import cli
from readinglist.errors import InputError, OutputError, StoreError
from readinglist.record import Record
from readinglist.store import Store
from readinglist.store import paperfile
from readinglist.store.atomic import NotRegularFile, TooLarge, read_bounded, write_output

ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


run = cli  # tests/helpers.py


def cli(*args, timeout=60):
    """The console script in a subprocess, so that a hang fails the test instead of the run."""
    return subprocess.run([sys.executable, "-m", "readinglist", *map(str, args)], capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def lib(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    store = Store.open(tmp_path / "lib")
    store.import_records(
        [Record(key="k1", title="First", abstract="alpha beta gamma delta"), Record(key="k2", title="Second", abstract="one two three four five")]
    )
    return tmp_path / "lib"


# --------------------------------------------------------------------------- modes


def test_a_private_paper_file_stays_private(lib):
    path = lib / "papers" / "k1.toml"
    path.chmod(0o600)
    run("--store", lib, "note", "k1", "-m", "secret")
    run("--store", lib, "mark", "read", "k1")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "secret" in path.read_text()


# --------------------------------------------------------------------------- symbolic links


def test_a_paper_file_that_is_a_link_is_read_but_never_written_through(lib, tmp_path):
    outside = tmp_path / "elsewhere.toml"
    shutil.move(lib / "papers" / "k1.toml", outside)
    (lib / "papers" / "k1.toml").symlink_to(outside)
    before = outside.read_text()
    assert Store.open(lib).get("k1").record.title == "First"  # reading through it is fine
    result = run("--store", lib, "note", "k1", "-m", "x", ok=False)
    assert result.exit_code == 1
    assert "is a symbolic link; readinglist does not write through links" in result.output
    assert outside.read_text() == before and (lib / "papers" / "k1.toml").is_symlink()


def test_a_dangling_gitignore_link_creates_nothing_outside(tmp_path):
    (tmp_path / "lib").mkdir()
    target = tmp_path / "outside" / "ignored"
    (tmp_path / "outside").mkdir()
    (tmp_path / "lib" / ".gitignore").symlink_to(target)
    Store.open(tmp_path / "lib")
    assert not target.exists()


def test_a_cache_link_out_of_the_store_is_neither_written_nor_cleaned(lib, tmp_path):
    outside = tmp_path / "outside-cache"
    outside.mkdir()
    old = outside / f"index-v1-py{sys.version_info[0]}{sys.version_info[1]}.marshal"
    old.write_bytes(b"keep me")
    shutil.rmtree(lib / ".cache", ignore_errors=True)
    (lib / ".cache").symlink_to(outside)
    store = Store.open(lib)
    store.import_records([Record(key=f"n{i}", title=f"T{i}", abstract=f"word{i} other{i} text{i} more{i}") for i in range(80)])
    assert len(store.keys()) == 82
    assert sorted(p.name for p in outside.iterdir()) == [old.name]
    assert old.read_bytes() == b"keep me"


def test_a_papers_folder_leading_out_of_the_store_is_not_written(lib, tmp_path):
    moved = tmp_path / "moved-papers"
    shutil.move(lib / "papers", moved)
    (lib / "papers").symlink_to(moved)
    with pytest.raises(StoreError, match="leads out of the store"):
        Store.open(lib).set_note("k1", "x")


# --------------------------------------------------------------------------- only regular files


def test_a_fifo_named_like_a_paper_file_is_refused_not_read(lib):
    fifo = lib / "papers" / "x.toml"
    os.mkfifo(fifo)
    with pytest.raises(StoreError, match="FIFO"):
        paperfile.read_text(fifo)
    result = cli("--store", lib, "list", timeout=60)  # must not hang
    assert "FIFO" in result.stderr or result.returncode == 0


def test_a_folder_named_like_a_paper_file_is_refused(lib):
    (lib / "papers" / "y.toml").mkdir()
    with pytest.raises(StoreError, match=r"y\.toml: cannot read this paper file: a folder"):
        paperfile.read_text(lib / "papers" / "y.toml")
    result = cli("--store", lib, "list")
    assert "Traceback" not in result.stderr


def test_devices_and_oversized_files_are_refused(tmp_path):
    with pytest.raises(NotRegularFile, match="device"):
        read_bounded("/dev/zero")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 2000)
    with pytest.raises(TooLarge):
        read_bounded(big, limit=1000)
    assert read_bounded(big, limit=2000) == b"x" * 2000
    result = run("--store", tmp_path / "lib", "import", "/dev/zero", "-f", "bibtex", ok=False)
    assert result.exit_code == 1 and "device" in result.output


@pytest.mark.skipif(ROOT_USER, reason="root reads every file")
def test_an_unreadable_paper_file_is_reported(lib):
    path = lib / "papers" / "k1.toml"
    path.chmod(0)
    try:
        with pytest.raises(StoreError, match="permission denied"):
            paperfile.read_text(path)
    finally:
        path.chmod(0o644)


# --------------------------------------------------------------------------- export -o


@pytest.mark.parametrize(
    "target, message",
    [
        ("folder", "is a folder"),
        ("", "empty"),
        ("afile/under.bib", "is a file, not a folder"),
        ("/proc/x.bib", "cannot write"),
    ],
)
def test_export_to_an_impossible_place_is_one_line(lib, tmp_path, target, message):
    (tmp_path / "folder").mkdir()
    (tmp_path / "afile").write_text("x")
    result = run("--store", lib, "export", "-f", "bibtex", "-o", target, ok=False)
    assert result.exit_code == 1, result.output
    assert message in result.output and "Traceback" not in result.output
    assert (tmp_path / "afile").read_text() == "x"


def test_export_through_a_link_writes_the_linked_file(lib, tmp_path):
    real = tmp_path / "real.bib"
    real.write_text("old")
    (tmp_path / "link.bib").symlink_to(real)
    run("--store", lib, "export", "-o", tmp_path / "link.bib")
    assert (tmp_path / "link.bib").is_symlink() and "@" in real.read_text()


def _small_tmpfs(path: Path) -> bool:
    path.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(path)], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def test_a_full_disk_is_one_line_and_leaves_the_old_files(lib, tmp_path):
    disk = tmp_path / "disk"
    if not _small_tmpfs(disk):
        pytest.skip("cannot mount a small tmpfs here")
    try:
        (disk / "out.bib").write_text("old")
        with pytest.raises(OutputError, match="no space left"):
            write_output(disk / "out.bib", "x" * 200_000)
        assert (disk / "out.bib").read_text() == "old"
        assert sorted(p.name for p in disk.iterdir()) == ["out.bib"]  # no temporary file left
        shutil.copytree(lib, disk / "lib")
        store = Store.open(disk / "lib")
        with pytest.raises(StoreError, match="No space left"):
            store.set_note("k1", "y" * 200_000)
        assert Store.open(disk / "lib").get("k1").notes == ""
    finally:
        subprocess.run(["umount", str(disk)], capture_output=True)


# --------------------------------------------------------------------------- config and inputs


def test_config_errors_are_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text('[keys]\npattern = "[bogus]"\n')
    result = run("--config", bad, "--store", tmp_path / "lib", "list", ok=False)
    assert result.exit_code == 1 and "[keys] pattern '[bogus]'" in result.output
    result = run("--config", tmp_path, "--store", tmp_path / "lib", "list", ok=False)
    assert result.exit_code == 1 and "cannot read the config file: a folder" in result.output


def test_an_unreadable_user_config_folder_does_not_break_commands(tmp_path, monkeypatch):
    from readinglist import config

    monkeypatch.chdir(tmp_path)

    def deny(self):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "is_file", deny)
    assert config.find_config() is None


def test_a_failed_import_of_a_missing_file_creates_no_store(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("--store", tmp_path / "lib", "import", tmp_path / "missing.txt", ok=False)
    assert result.exit_code == 1 and "file not found" in result.output
    assert not (tmp_path / "lib").exists()


def test_import_of_an_empty_name_or_a_folder_is_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError):
        from readinglist.convert.reader import read_text

        read_text(tmp_path)


def test_a_lock_file_link_is_refused_and_its_target_untouched(lib, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (lib / ".lock").unlink(missing_ok=True)
    (lib / ".lock").symlink_to(victim)
    with pytest.raises(StoreError, match="is a symbolic link"):
        Store.open(lib).set_note("k1", "x")
    assert victim.read_text() == "precious"


def test_a_fifo_as_the_cache_file_is_ignored(lib):
    from readinglist.store.cache import CACHE_NAME

    shutil.rmtree(lib / ".cache", ignore_errors=True)
    (lib / ".cache").mkdir()
    os.mkfifo(lib / ".cache" / CACHE_NAME)
    result = cli("--store", lib, "list", timeout=60)
    assert result.returncode == 0 and "k1" in result.stdout


def test_keys_differing_only_in_case_by_hand_edit_refuse_to_export(lib):
    path = lib / "papers" / "k2.toml"
    path.write_text(path.read_text().replace('key = "k2"', 'key = "K1"'))
    result = run("--store", lib, "export", "-f", "bibtex", ok=False)
    assert result.exit_code == 1 and "differ only in case" in result.output


def test_deeply_nested_toml_in_a_paper_or_config_file_is_one_line(lib, tmp_path):
    deep = "x = " + "[" * 50_000 + "]" * 50_000 + "\n"
    path = lib / "papers" / "k1.toml"
    path.write_text(path.read_text() + deep)
    with pytest.raises(StoreError, match="nested too deeply"):
        paperfile.parse(path.read_text(), path)
    config = tmp_path / "deep.toml"
    config.write_text(deep)
    result = run("--config", config, "--store", lib, "list", ok=False)
    assert result.exit_code == 1 and "nested too deeply" in result.output


_TOML_PIECES = [
    'key = "k1"\n', "key = 5\n", 'title = "t"\n', "title = 5\n", "year = 1e400\n", "year = 99999999999999999999\n",
    "[state]\n", "[fields]\n", "[generated]\n", "[[authors]]\n", "[[sources]]\n", 'status = "x"\n', "tags = [1]\n",
    "history = [{event = 1}]\n", "notes = '''\x1b'''\n", '"bad name" = "x"\n', "x = 2020-01-01\n", "a = [[1]]\n",
    "rating = 9\n", "priority = -1\n", 'family = "A"\n', "paragraph = \"p\"\n", "=\n", "[\n", '"\\u0000"\n',
]


@given(st.lists(st.sampled_from(_TOML_PIECES) | st.text(max_size=6), max_size=25).map("".join))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_hand_edit_is_a_paper_or_a_one_line_store_error(text):
    try:
        paper = paperfile.parse(text, "x.toml")
    except StoreError as exc:
        assert str(exc).startswith("x.toml") and "\n" not in str(exc)
        return
    assert paper.key
