"""Abstract lists of any size (issue 29 item 7): read as they come, in bounded memory, in linear
time, with a capped and summarised report of what was skipped, and limits that say what they are.

Inputs are generated here, sized so that each test takes a second or two; memory is measured
with tracemalloc, time by complexity (twice the input costs less than three times the time)."""

from __future__ import annotations

import os
import time
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert import reader, textfile
from readinglist.convert.reader import MAX_ABSTRACT, MAX_LISTED, ListReader, parse_list, read_list
from readinglist.convert.textfile import LongLine, iter_lines
from readinglist.errors import InputError

HEADER = "NeurIPS 2026\n\n"
ABSTRACT = "We propose a method that reads lists of any size in bounded memory and linear time for every user. "


def _write(path, text: str):
    path.write_text(text, encoding="utf-8")
    return path


def _peak(fn) -> tuple[object, int]:
    """(fn(), the peak of memory allocated while it ran, in bytes)."""
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _drain(path):
    listing = read_list(path)
    paragraphs = sum(1 for _ in listing.paragraphs())
    return paragraphs, listing


def test_tiny_paragraphs_are_counted_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(textfile, "CHUNK", 1 << 15)  # (memory is that of a chunk: 32 KB, not 1 MB, here)
    small = _write(tmp_path / "small.txt", HEADER + "abc def\n\n" * 10_000)
    large = _write(tmp_path / "large.txt", HEADER + "abc def\n\n" * 40_000)
    (n_small, small_list), peak_small = _peak(lambda: _drain(small))
    (n_large, large_list), peak_large = _peak(lambda: _drain(large))
    assert n_small == n_large == 0
    assert small_list.skipped_count == 10_000 and large_list.skipped_count == 40_000
    # the first ones listed, then one summary per reason
    listed = [s for s in large_list.skipped if s.count == 1 and s.text]
    summary = [s for s in large_list.skipped if not s.text]
    assert len(listed) == MAX_LISTED
    assert [(s.reason, s.count) for s in summary] == [("too short for an abstract", 40_000 - MAX_LISTED)]
    assert sum(s.count for s in large_list.skipped) == 40_000
    # four times the paragraphs, about the same memory (a list of them would take 4x)
    assert peak_large < peak_small * 1.3, (peak_small, peak_large)


def test_parse_list_summarises_too():
    parsed = parse_list(HEADER + "Page 1\n\n" * 150 + "abc\n\n" * 50, source="x.txt")
    assert sum(s.count for s in parsed.skipped) == 200
    assert {s.reason: s.count for s in parsed.skipped if not s.text} == {"page marker": 50, "too short for an abstract": 50}
    everything = parse_list(HEADER + "abc\n\n" * 150, max_listed=1000)
    assert len(everything.skipped) == 150 and all(s.count == 1 for s in everything.skipped)


def _long_line_list(tmp_path, n: int):
    text = HEADER + ABSTRACT + "\n\n" + "word " * (n * MAX_ABSTRACT // 5) + "\n\n" + ABSTRACT.replace("method", "way") + "\n"
    return _write(tmp_path / f"long{n}.txt", text)


def _wrapped_list(tmp_path, n: int):
    lines = "a b c d e f g h i j k l m n o p q r s t u v w x y z\n" * (n * MAX_ABSTRACT // 52)
    return _write(tmp_path / f"wrapped{n}.txt", HEADER + lines + "\n" + ABSTRACT + "\n")


def test_a_line_longer_than_an_abstract_is_skipped_without_being_held(tmp_path):
    small, large = _long_line_list(tmp_path, 3), _long_line_list(tmp_path, 9)
    (n, listing), peak_small = _peak(lambda: _drain(small))
    assert n == 2
    (skip,) = listing.skipped
    assert skip.reason.startswith("too long for an abstract (") and f"the limit is {MAX_ABSTRACT:,}" in skip.reason
    assert skip.source.line == 5 and skip.text.startswith("word word")
    _, peak_large = _peak(lambda: _drain(large))
    assert peak_large < peak_small * 1.3, (peak_small, peak_large)  # three times the line, the same memory


def test_a_hard_wrapped_block_longer_than_an_abstract_is_one_skip(tmp_path):
    small, large = _wrapped_list(tmp_path, 2), _wrapped_list(tmp_path, 4)
    (n, listing), peak_small = _peak(lambda: _drain(small))
    assert n == 1 and listing.skipped_count == 1
    assert listing.skipped[0].reason.startswith("too long for an abstract")
    _, peak_large = _peak(lambda: _drain(large))
    assert peak_large < peak_small * 1.3, (peak_small, peak_large)


def test_one_abstract_per_line_without_blank_lines_streams(tmp_path):
    """A file of one abstract per line and no blank line is a block of long lines: each line is
    an abstract (not one block too long to be one)."""
    line = ABSTRACT * 3  # (over 200 characters: too long to be hard-wrapped)
    count = 2 * MAX_ABSTRACT // len(line) + 10
    text = HEADER + "".join(line.replace("method", f"method {i}", 1) + "\n" for i in range(count))
    listing = ListReader(reader.text_lines(text))
    paragraphs = list(listing.paragraphs())
    assert len(paragraphs) == count and listing.skipped_count == 0
    assert [p.line for p in paragraphs[:2]] == [3, 4]


def test_reading_is_linear(tmp_path):
    def cost(n: int) -> float:
        path = _write(tmp_path / f"l{n}.txt", HEADER + "".join(f"stray line {i}\n\n{ABSTRACT}\n\n" for i in range(n)))
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            _drain(path)
            best = min(best, time.process_time() - start)
        return best

    small, large = cost(10_000), cost(20_000)
    assert large < 3 * small, (small, large)


def test_bad_bytes_past_the_first_chunk_are_named(tmp_path, monkeypatch):
    monkeypatch.setattr(textfile, "CHUNK", 64)
    path = tmp_path / "bad.txt"
    path.write_bytes((HEADER + ABSTRACT + "\n\n").encode() * 3 + b"caf\xe9 au lait\n")
    with pytest.raises(InputError, match=r"bad.txt: not UTF-8 text \(invalid byte 0xe9 on line 13\)") as streamed:
        _drain(path)
    with pytest.raises(InputError) as whole:
        textfile.read_text(path)
    assert str(streamed.value) == str(whole.value)  # the same error, read whole or as it comes
    path.write_bytes((HEADER + ABSTRACT).encode() * 3 + b"\x00\x01\x02")
    with pytest.raises(InputError, match=r"bad.txt: not a text file \(binary data near byte \d+\)"):
        _drain(path)


#: the streamed reader's fuzz target: raise HYPOTHESIS_FUZZ_EXAMPLES to fuzz longer by hand
EXAMPLES = int(os.environ.get("HYPOTHESIS_FUZZ_EXAMPLES", "300"))


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("ab \r\n\u2028\x85\v\ufeffé"), max_size=80),
    chunk=st.integers(1, 9),
    max_line=st.integers(1, 12),
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]),
)
def test_streamed_lines_are_str_splitlines(tmp_path_factory, text, chunk, max_line, encoding):
    """Whatever the chunk boundaries, the lines are those of str.splitlines, a line over
    max_line as a LongLine of the right length."""
    path = tmp_path_factory.mktemp("lines") / "x.txt"
    path.write_bytes(text.encode(encoding))
    old = textfile.CHUNK
    textfile.CHUNK = chunk
    try:
        got = list(iter_lines(path, max_line=max_line))
    finally:
        textfile.CHUNK = old
    if encoding == "utf-8" and text.startswith("\ufeff"):
        text = text[1:]  # (a UTF-8 BOM is read as one)
    want = text.splitlines()
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if len(w) > max_line:
            assert isinstance(g, LongLine) and g.length == len(w) and str(g) == w[:200]
        else:
            assert not isinstance(g, LongLine) and g == w
