"""Writes where they should not go (issue 29, item 3): one name rule for every file the store
creates (keyform.is_valid_name: paper files through file_stem, curated lists), whatever it
accepts written and read back, no two accepted names one file on a case-insensitive system;
and no file the store did not create is ever truncated or written (a ``.lock`` or a cache file
that is a hard link to a file out of the store)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from readinglist.errors import ListError, ValidationError
from readinglist.keyform import RESERVED_NAMES, file_stem, is_valid_key, is_valid_name
from readinglist.record import Record
from readinglist.store import Store, lists
from readinglist.store.cache import CACHE_NAME

#: names a user may well type, and the hostile ones
NAMES = st.one_of(
    st.sampled_from(["week", "Week", "WEEK", "con", "PRN", "aux", "nul.x", "com1", "LPT9.toml", "a.", "a..b", "x\n", "x\x00y", "a/b", "..", ".hidden", "ok-", "ok+", "é", "a" * 121]),
    st.text(st.characters(codec="utf-8"), max_size=12),
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,10}", fullmatch=True),
)
TEXT = st.text(st.characters(codec="utf-8"), max_size=40)


@pytest.fixture(scope="module")
def shared_store(tmp_path_factory):
    store = Store.open(tmp_path_factory.mktemp("names") / "lib")
    store.import_records([Record(key="k1", title="One", abstract="alpha beta gamma delta epsilon")])
    return store


@given(st.lists(st.tuples(NAMES, TEXT, TEXT, TEXT), min_size=1, max_size=6))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_accepted_list_name_is_written_and_read_back_and_none_collide_in_case(shared_store, tmp_path_factory, made):
    store = Store.open(tmp_path_factory.mktemp("lists") / "lib")
    accepted: dict[str, tuple[str, str, str]] = {}
    for name, title, intro, comment in made:
        try:
            lists.create(store, name, title=title, introduction=intro)
        except ValidationError:
            assert not is_valid_name(name)
            continue
        except ListError:
            assert name.casefold() in {n.casefold() for n in accepted}
            continue
        assert is_valid_name(name) and name.casefold() not in {n.casefold() for n in accepted}
        lists.save(store, lists.ReadingList(name, title or name, intro, (lists.Section("S " + comment, (lists.Entry("k1", comment),)),)))
        accepted[name] = (title or name, intro, comment)
    on_disk = sorted(p.name for p in (store.root / "lists").glob("*")) if (store.root / "lists").exists() else []
    assert on_disk == sorted(f"{n}.toml" for n in accepted)
    assert len({n.casefold() for n in accepted}) == len(accepted)
    assert lists.names(store) == sorted(accepted)
    for name, (title, intro, comment) in accepted.items():
        back = lists.load(store, name)
        assert back.title == title and back.sections[0].entries[0].comment == comment
        assert back.introduction.rstrip("\n") == (intro.rstrip("\n") if intro.strip() else "")


@given(st.text(max_size=130))
@settings(max_examples=2000, deadline=None)
def test_a_paper_file_name_follows_the_same_rule(text):
    stem = file_stem(text)
    assert is_valid_name(stem)
    if is_valid_key(text):
        assert stem == text or text.split(".")[0].lower() in RESERVED_NAMES


@pytest.mark.parametrize("name", ["con", "PRN", "Aux", "nul.txt", "com1", "lpt9", "week\n", "week.", "a\x1bb", "a b", "..x"])
def test_names_no_system_can_hold_are_refused(shared_store, name):
    with pytest.raises(ValidationError):
        lists.create(shared_store, name)


def test_two_lists_differing_only_in_case_are_refused(tmp_path):
    store = Store.open(tmp_path / "lib")
    lists.create(store, "Week-12")
    with pytest.raises(ListError, match="differ only in case"):
        lists.create(store, "week-12")
    assert lists.names(store) == ["Week-12"]


def test_control_characters_in_a_list_are_read_back(tmp_path):
    store = Store.open(tmp_path / "lib")
    odd = "DEL \x7f NUL \x00 ESC \x1b C1 \x85\x9b CR \r tab \t end"
    lists.create(store, "odd", title=odd, introduction=odd)
    back = lists.load(store, "odd")
    assert back.title == odd and back.introduction.rstrip("\n") == odd


OUTSIDE = b"precious data that is not the store's\n"


def _store_with_links(tmp_path, names):
    store = Store.open(tmp_path / "lib")
    store.import_records([Record(key="k1", title="One", abstract="alpha beta gamma delta epsilon")])
    list(store)  # the cache exists
    outside = {}
    for name in names:
        target = tmp_path / f"outside-{name.strip('.').replace('/', '_')}"
        target.write_bytes(OUTSIDE)
        path = tmp_path / "lib" / name
        if path.exists():
            path.unlink()
        os.link(target, path)
        outside[name] = target
    return store, outside


def test_a_lock_file_hard_linked_out_of_the_store_is_never_truncated(tmp_path):
    store, outside = _store_with_links(tmp_path, [".lock"])
    store.set_status("k1", "read")
    subprocess.run([sys.executable, "-m", "readinglist", "--store", str(tmp_path / "lib"), "mark", "reading", "k1"], check=True, capture_output=True, timeout=60)
    assert outside[".lock"].read_bytes() == OUTSIDE
    assert Store.open(tmp_path / "lib").get("k1").status == "reading"


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm", "-journal"])
def test_a_cache_file_hard_linked_out_of_the_store_is_never_written(tmp_path, suffix):
    name = f".cache/{CACHE_NAME}{suffix}"
    store, outside = _store_with_links(tmp_path, [name])
    proc = subprocess.run([sys.executable, "-m", "readinglist", "--store", str(tmp_path / "lib"), "mark", "read", "k1"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "readinglist", "--store", str(tmp_path / "lib"), "list"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("k1\tread"), proc.stderr
    assert outside[name].read_bytes() == OUTSIDE


def test_a_lock_that_is_a_fifo_does_not_hang_a_writer(tmp_path):
    store = Store.open(tmp_path / "lib")
    store.import_records([Record(key="k1", title="One", abstract="alpha beta gamma delta epsilon")])
    lock = tmp_path / "lib" / ".lock"
    lock.unlink()
    os.mkfifo(lock)
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "readinglist", "--store", str(tmp_path / "lib"), "mark", "read", "k1"], capture_output=True, timeout=30)
    assert time.monotonic() - start < 20
