"""Atomic writes: old or new, never torn; usual file mode; no temp files left behind."""

import os
import stat

import pytest
from hypothesis import given
from hypothesis import strategies as st

from readinglist.store import atomic as fileio


def test_write_atomic_creates_folder_and_uses_the_usual_mode(tmp_path):
    target = tmp_path / "exports" / "x.bib"
    fileio.write_atomic(target, "@misc{a,}\n")
    assert target.read_text() == "@misc{a,}\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~_umask()
    assert [p.name for p in target.parent.iterdir()] == ["x.bib"]


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("count", [3, fileio.SYNC_EACH_MAX + 5])
def test_replace_files_writes_and_deletes_a_batch(tmp_path, count):
    (tmp_path / "gone.toml").write_text("old")
    files = {f"p{i}.toml": f"text {i}" for i in range(count)}
    fileio.replace_files(tmp_path, {**files, "gone.toml": None})
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)
    assert all((tmp_path / n).read_text() == t for n, t in files.items())


def test_a_failed_batch_leaves_old_files_and_no_temp_files(tmp_path, monkeypatch):
    (tmp_path / "a.toml").write_text("old a")
    real_replace = os.replace
    calls = []

    def failing_replace(src, dst):
        calls.append(dst)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError):
        fileio.replace_files(tmp_path, {"a.toml": "new a", "b.toml": "new b"})
    monkeypatch.setattr(os, "replace", real_replace)
    assert calls and sorted(p.name for p in tmp_path.iterdir()) == ["a.toml"]
    assert (tmp_path / "a.toml").read_text() == "old a"


@given(st.binary(max_size=200), st.data())
def test_byte_place_is_the_line_and_column_an_editor_shows(data, draw):
    from readinglist.store.atomic import byte_place

    offset = draw.draw(st.integers(min_value=0, max_value=len(data)))
    line, col = byte_place(data, offset)
    before = data[:offset].split(b"\n")
    assert (line, col) == (len(before), len(before[-1]) + 1)
