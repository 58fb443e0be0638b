"""Tests for readinglist.convert.reader: abstract lists as people really get them."""

from __future__ import annotations

import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from readinglist.convert.reader import (
    _NUMBERING,
    AbstractList,
    Paragraph,
    is_prose,
    parse_list,
    read_text,
)
from readinglist.errors import InputError
from readinglist.text import normalize_space

SEEDS = sorted((ROOT / "seeds").glob("*.txt"))

A1 = (
    "We study how large language models forget facts after fine-tuning. We propose a simple "
    "regularizer that keeps the original hidden states close, and show it reduces forgetting."
)
A2 = (
    "Diffusion models generate images by reversing a noising process. We introduce a sampler "
    "that needs ten times fewer steps while matching the quality of the original one."
)
A3 = (
    "Graph neural networks struggle with long-range dependencies. We add virtual nodes learned "
    "end to end and report gains on five molecular benchmarks with no extra cost at inference."
)


def wrap(s: str, width: int = 78) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(s, width, break_on_hyphens=False))


def texts(result: AbstractList) -> list[str]:
    return [p.text for p in result.paragraphs]


# ---------------------------------------------------------------------------------------------
# seeds


@pytest.mark.parametrize("path", SEEDS, ids=lambda p: p.name)
def test_seed_files_parse_into_19_abstracts(path):
    result = parse_list(read_text(path), source=path.name)
    assert (result.venue, result.year) == ("NeurIPS", 2026)
    assert result.header == "NeurIPS 2026 论文列表"
    assert len(result.paragraphs) == 19
    assert result.skipped == ()
    assert [p.number for p in result.paragraphs] == list(range(1, 20))
    lines = path.read_text(encoding="utf-8").splitlines()
    for p in result.paragraphs:
        assert lines[p.line - 1].strip() == p.text  # one abstract per line in the seeds


def test_seed_markup_is_kept():
    result = parse_list(read_text(SEEDS[0]))
    assert "$\\ell_1$" in result.paragraphs[0].text
    assert "__CapTrack__" in result.paragraphs[1].text


# ---------------------------------------------------------------------------------------------
# headers


@pytest.mark.parametrize(
    "header, venue, year",
    [
        ("NeurIPS 2026 论文列表", "NeurIPS", 2026),
        ("ICML 2024 Paper List", "ICML", 2024),
        ("NeurIPS 2023 Accepted Papers", "NeurIPS", 2023),
        ("ICLR 2025 accepted papers (oral)", "ICLR", 2025),
        ("CVPR'24 papers", "CVPR", 2024),
        ("# ACL 2023", "ACL", 2023),
        ("Accepted papers at EMNLP 2022", "EMNLP", 2022),
        ("NeurIPS 论文列表", "NeurIPS", None),
    ],
)
def test_headers(header, venue, year):
    result = parse_list(f"{header}\n\n{A1}\n\n{A2}\n")
    assert (result.venue, result.year, result.header) == (venue, year, header)
    assert texts(result) == [A1, A2]
    assert [p.number for p in result.paragraphs] == [1, 2]


def test_no_header():
    result = parse_list(f"{A1}\n\n{A2}\n")
    assert (result.venue, result.year, result.header) == (None, None, None)
    assert texts(result) == [A1, A2]
    assert [p.line for p in result.paragraphs] == [1, 3]


def test_header_directly_followed_by_an_abstract():
    result = parse_list(f"ICML 2024 Paper List\n{wrap(A1)}\n\n{A2}")
    assert result.venue == "ICML"
    assert texts(result) == [A1, A2]
    assert result.paragraphs[0].line == 2


def test_label_first_line_is_not_a_header():
    result = parse_list(f"Abstract\n\n{A1}\n")
    assert result.header is None
    assert [(s.reason, s.source.line, s.source.paragraph) for s in result.skipped] == [("section label", 1, 1)]
    assert result.paragraphs == (Paragraph(2, 3, A1),)


# ---------------------------------------------------------------------------------------------
# encodings and line endings


def test_bom_crlf_and_lone_cr():
    for newline in ("\r\n", "\r"):
        raw = "\ufeffNeurIPS 2026 论文列表" + newline * 2 + A1 + newline * 2 + wrap(A2).replace("\n", newline) + newline
        result = parse_list(raw)
        assert (result.venue, result.year) == ("NeurIPS", 2026)
        assert texts(result) == [A1, A2]
        assert [p.line for p in result.paragraphs] == [3, 5]


def test_read_text_encodings(tmp_path):
    body = "NeurIPS 2026 论文列表\n\n" + A1 + "\n"
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + body.encode("utf-8"))
    (tmp_path / "u16.txt").write_bytes(body.encode("utf-16"))  # with BOM
    (tmp_path / "u16be.txt").write_bytes(b"\xfe\xff" + body.encode("utf-16-be"))
    for name in ("bom.txt", "u16.txt", "u16be.txt"):
        assert read_text(tmp_path / name) == body, name


def test_read_text_binary_file(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"NeurIPS 2026\n\n\x89PNG\x00\x00\x01\x02")
    with pytest.raises(InputError) as err:
        read_text(path)
    msg = str(err.value)
    assert msg == f"{path}: not a text file (binary data near byte 18)"
    assert "\n" not in msg


def test_read_text_binary_without_nul(tmp_path):
    path = tmp_path / "noise.bin"
    path.write_bytes(bytes([1, 2, 3, 4, 5, 6, 7, 8, 0xFF, 0xFE]) * 50)
    with pytest.raises(InputError, match=r"noise\.bin: not a text file"):
        read_text(path)


def test_read_text_latin1_file(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes("line one\nline two\ncaf\u00e9 au lait\n".encode("latin-1"))
    with pytest.raises(InputError) as err:
        read_text(path)
    assert str(err.value) == f"{path}: not UTF-8 text (invalid byte 0xe9 on line 3)"


def test_read_text_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match=r"nope\.txt: file not found"):
        read_text(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="is a folder"):
        read_text(tmp_path)


# ---------------------------------------------------------------------------------------------
# paragraphs


def test_hard_wrapped_abstracts_are_joined():
    result = parse_list(f"{wrap(A1)}\n\n{wrap(A2, 60)}\n\n\n\n{wrap(A3)}\n")
    assert texts(result) == [A1, A2, A3]
    assert [p.number for p in result.paragraphs] == [1, 2, 3]


def test_line_break_hyphen_is_kept_without_space():
    raw = "We propose a state-of-the-\nart method for long-range graphs. It beats every base-\nline on all five benchmarks we tried."
    (p,) = parse_list(raw).paragraphs
    assert "state-of-the-art method" in p.text
    assert "every base-line on" in p.text  # conservative: the hyphen stays


@pytest.mark.parametrize("mark", ["1. ", "2) ", "[3] ", "(4) ", "12. "])
def test_numbered_paragraphs(mark):
    (p,) = parse_list(f"{mark}{A1}").paragraphs
    assert p.text == A1


def test_number_like_start_of_an_abstract_is_kept():
    s = "3D scenes are hard to reconstruct from few views. " + A1
    assert parse_list(s).paragraphs[0].text == s
    s = "1.5 billion parameters are enough for this task, we argue. " + A1
    assert parse_list(s).paragraphs[0].text == s


def test_stray_lines_are_skipped_with_reasons():
    raw = "\n\n".join(["ICML 2024 Paper List", A1, "Page 2", "- 3 -", "----", "Abstract", "17", "Poster session A", A2, "ICML 2024 Paper List"])
    result = parse_list(raw, source="lists/icml.txt")
    assert texts(result) == [A1, A2]
    got = [(s.reason, s.source.line, s.source.paragraph, s.text) for s in result.skipped]
    assert got == [
        ("page marker", 5, 2, "Page 2"),
        ("page marker", 7, 3, "- 3 -"),
        ("separator line", 9, 4, "----"),
        ("section label", 11, 5, "Abstract"),
        ("lone number", 13, 6, "17"),
        ("too short for an abstract (3 words)", 15, 7, "Poster session A"),
        ("heading", 19, 9, "ICML 2024 Paper List"),
    ]
    assert all(s.source.file == "lists/icml.txt" for s in result.skipped)
    assert [p.number for p in result.paragraphs] == [1, 8]


def test_page_marker_inside_a_wrapped_paragraph():
    lines = wrap(A1).splitlines()
    raw = "\n".join(lines[:1] + ["Page 2"] + lines[1:])
    result = parse_list(raw)
    assert texts(result) == [A1]
    (s,) = result.skipped
    assert (s.reason, s.source.line, s.source.paragraph) == ("page marker inside a paragraph", 2, None)


def test_long_skipped_text_is_cut():
    (s,) = parse_list("Supercalifragilistic " * 6).skipped
    assert s.reason == "too short for an abstract (6 words)"
    assert len(s.text) <= 60 and s.text.endswith("…")


def test_block_of_page_markers_only():
    result = parse_list("Page 2\nPage 3\n\n" + A1)
    assert [(s.reason, s.source.line, s.source.paragraph, s.text) for s in result.skipped] == [
        ("too short for an abstract (4 words)", 1, 1, "Page 2 Page 3")
    ]
    assert result.paragraphs == (Paragraph(2, 4, A1),)


def test_whitespace_nbsp_tabs_and_curly_quotes():
    raw = "\t1.\u00a0We study the ‘forgetting’ of “facts”\u00a0 in\tlarge  models.   It matters a lot for everyone who fine-tunes.  \n\u00a0\n" + A2 + "   "
    result = parse_list(raw)
    assert texts(result) == ["We study the ‘forgetting’ of “facts” in large models. It matters a lot for everyone who fine-tunes.", A2]
    assert [p.line for p in result.paragraphs] == [1, 3]


def test_single_newline_separated_abstracts_are_split():
    long1, long2, long3 = (a + " " + a for a in (A1, A2, A3))  # > 200 characters each
    raw = "NeurIPS 2023 Accepted Papers\n" + "\n".join([long1, long2, long3]) + "\n"
    result = parse_list(raw)
    assert texts(result) == [long1, long2, long3]
    assert [(p.number, p.line) for p in result.paragraphs] == [(1, 2), (2, 3), (3, 4)]


def test_single_newline_file_with_a_stray_line():
    long1, long2 = (a + " " + a for a in (A1, A2))
    result = parse_list("\n".join([long1, "Page 2", long2]))
    assert texts(result) == [long1, long2]
    assert [(s.reason, s.source.line) for s in result.skipped] == [("page marker", 2)]


def test_is_prose_rule():
    assert is_prose(A1)
    assert not is_prose("A short line.")
    assert not is_prose("Twelve words but no sentence end here at all in this one line")
    assert is_prose("word " * 40)
    assert is_prose("Twelve words and a sentence end here, at last, in this line.")


def test_empty_and_blank_input():
    for raw in ("", "\n\n", " \t\u00a0\n", "\ufeff"):
        result = parse_list(raw)
        assert result == AbstractList(None, None, None, (), ())


# ---------------------------------------------------------------------------------------------
# properties

_LINES = st.sampled_from(
    [A1, A2, "Page 2", "- 3 -", "----", "Abstract", "17", "", "", " ", "\t", "ICML 2024 Paper List",
     "1. " + A3, "state-of-the-", "art results.", A1 + " " + A2, "论文", "$x$ and \\emph{y}"]
)
listish = st.lists(st.one_of(_LINES, st.text(max_size=80)), max_size=25).map("\n".join)


@given(st.one_of(st.text(), listish))
@settings(max_examples=300)
def test_parse_list_never_raises_and_loses_nothing(raw):
    result = parse_list(raw, source="x.txt")
    lines = raw.lstrip("\ufeff").splitlines()
    items = [(p.line, p.number, p.text) for p in result.paragraphs]
    items += [(s.source.line, s.source.paragraph, s.text) for s in result.skipped]
    # every item points at a non-blank line of the input, and no line is claimed twice
    starts = [line for line, _, _ in items]
    assert len(starts) == len(set(starts))
    for line, _, _ in items:
        assert 1 <= line <= len(lines)
        assert normalize_space(lines[line - 1])
    # every blank-line separated block (header line excluded) starts an item
    header_line = None
    if result.header is not None:
        header_line = next(i + 1 for i, line in enumerate(lines) if normalize_space(line))
    block_starts = []
    previous_blank = True
    for i, line in enumerate(lines):
        blank = not normalize_space(line)
        if not blank and previous_blank and i + 1 != header_line:
            block_starts.append(i + 1)
        previous_blank = blank or i + 1 == header_line
    assert set(block_starts) <= set(starts)
    # block numbers count up without gaps
    numbers = sorted({n for _, n, _ in items if n is not None})
    assert numbers == list(range(1, len(numbers) + 1))
    # paragraphs are whitespace-normalised text that starts with their first line
    for p in result.paragraphs:
        assert p.text == normalize_space(p.text) and p.text
        first = normalize_space(lines[p.line - 1])
        first = first[m.end():] if (m := _NUMBERING.match(first)) else first
        assert p.text.startswith(first)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["word", "a-b", "it's", "x.y", "3.5", "end.", "!", "—", " ", "é"]), max_size=70))
def test_is_prose_counts_words_only_as_far_as_it_needs(pieces: list[str]) -> None:
    """Counting at most 40 words decides as counting them all would."""
    from readinglist.convert import reader

    s = " ".join(pieces)
    n = reader._words(s)
    assert is_prose(s) == (n >= reader._MANY_WORDS or (n >= reader._MIN_WORDS and reader._SENTENCE_END.search(s) is not None))
