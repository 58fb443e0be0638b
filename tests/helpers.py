"""Helpers shared by test modules (imported as ``helpers``: tests/ is on sys.path under pytest)."""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import pty
import random
import re
import select
import shutil
import struct
import subprocess
import sys
from html.parser import HTMLParser
import termios
import time
from pathlib import Path

from readinglist.config import default_config
from readinglist.formats.registry import ExportOptions, ImportOptions
from readinglist.record import Person, Record, Source
from readinglist.text import normalize_space

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SEED_FILES = sorted((ROOT / "seeds").glob("*.txt"))
CONFIG = default_config()


def console_script() -> str:
    """The installed ``readinglist`` script of the Python running the tests (next to
    ``sys.executable``, so an un-activated venv works), else the one on PATH."""
    beside = Path(sys.executable).with_name("readinglist")
    if beside.is_file():
        return str(beside)
    found = shutil.which("readinglist")
    assert found, "the readinglist console script is not installed (pip install -e .)"
    return found


# -- the seed abstracts, and what a copy of one goes through in the wild -----------------------




def titled(abstract: str) -> str:
    """The generated title of one abstract, made as an import makes it (its name detected first)."""
    from readinglist.convert.generation import generation_text
    from readinglist.convert.naming import detect_name
    from readinglist.convert.titles import make_title

    plain = generation_text(abstract)
    return make_title(abstract, plain, detect_name(abstract, plain))


def seed_abstracts() -> list[str]:
    out = []
    for path in SEED_FILES:
        paragraphs = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
        out += [p.strip() for p in paragraphs[1:] if p.strip()]  # paragraph 0 is the header
    return out


ABSTRACTS = seed_abstracts()


# -- perturbations a copy of an abstract goes through in the wild ----------------------------


def reflow(text: str, width: int = 60) -> str:
    import textwrap

    return textwrap.fill(text, width)


def crlf(text: str) -> str:
    return reflow(text, 72).replace("\n", "\r\n") + "\r\n"


def extra_spaces(text: str) -> str:
    return "  " + text.replace(" ", "   ").replace(". ", ".\n\n\t") + " \n"


def latex_cleaned(text: str) -> str:
    """What a LaTeX-to-Unicode converter (pylatexenc, as Zotero or a publisher does) makes."""
    from pylatexenc.latex2text import LatexNodes2Text

    # the lists write a percent sign as plain text ("30%"); to LaTeX it starts a comment
    return LatexNodes2Text(math_mode="text").latex_to_text(re.sub(r"(?<!\\)%", r"\\%", text))


def emph_removed(text: str) -> str:
    return re.sub(r"\\(?:emph|textbf|textit)\{([^}]*)\}", r"\1", text)


def typos(text: str, n: int, seed: int) -> str:
    """``n`` words misspelt (two letters swapped, or one dropped)."""
    rng = random.Random(seed)
    words = text.split(" ")
    long_words = [i for i, w in enumerate(words) if len(w) >= 6 and w.isalpha()]
    for i in rng.sample(long_words, n):
        w = words[i]
        j = rng.choice([k for k in range(1, len(w) - 1) if w[k] != w[k + 1]])
        words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :] if rng.random() < 0.5 else w[:j] + w[j + 1 :]
    return " ".join(words)


def word_edits(text: str, n: int, seed: int) -> str:
    """``n`` words replaced by other words (an author's late edits)."""
    rng = random.Random(seed)
    words = text.split(" ")
    for i in rng.sample(range(len(words)), n):
        words[i] = rng.choice(["novel", "robust", "several", "improved", "simple"])
    return " ".join(words)


PERTURBATIONS = {
    "reflow": reflow,
    "crlf": crlf,
    "extra_spaces": extra_spaces,
    "latex_cleaned": latex_cleaned,
    "emph_removed": emph_removed,
    "one_typo": lambda t: typos(t, 1, 1),
    "three_typos": lambda t: typos(t, 3, 2),
    "three_words_edited": lambda t: word_edits(t, 3, 3),
    "reflowed_typos_crlf": lambda t: crlf(typos(latex_cleaned(t), 2, 4)),
}


# -- abstracts with hand-written name/title/tag expectations (tests/data) ---------------------




def unrelated_records(n: int, start: int = 0, year: int | None = None) -> list[Record]:
    """``n`` records whose abstracts share no word (no two are near-duplicates): keys p0000..."""

    def word(k: int) -> str:
        letters = ""
        while True:
            k, r = divmod(k, 26)
            letters += "abcdefghijklmnopqrstuvwxyz"[r]
            if not k:
                return letters + "on"

    return [
        Record(key=f"p{i:04d}", title=f"Paper {i}", abstract=" ".join(word(30 * i + j) for j in range(30)), year=year)
        for i in range(start, start + n)
    ]


def load_abstracts(path: Path) -> list[str]:
    """Abstract paragraphs of a list file (the first paragraph is the header)."""
    paras = [normalize_space(p) for p in path.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    return paras[1:]


def by_prefix(abstracts: list[str], prefix: str) -> str:
    hits = [a for a in abstracts if a.startswith(prefix)]
    assert len(hits) == 1, f"{prefix!r} matches {len(hits)} abstracts"
    return hits[0]


SEEDS = [a for f in sorted((ROOT / "seeds").glob("*.txt")) for a in load_abstracts(f)]
_HELDOUT_ALL = load_abstracts(DATA / "heldout_abstracts.txt")
_MORE_AT = next(i for i, p in enumerate(_HELDOUT_ALL) if p.startswith("== More held-out abstracts"))
HELDOUT = _HELDOUT_ALL[:_MORE_AT]  # with name, title and tag expectations
HELDOUT_MORE = _HELDOUT_ALL[_MORE_AT + 1 :]  # added for the title rules: name and title expectations
# Written blind (expectations fixed before the converter was run on them), to measure how the
# rules generalise; see BLIND_NAMES in test_naming, BLIND_TAGS in test_tagging, BLIND_EXACT in test_titles.
BLIND = load_abstracts(DATA / "blind_abstracts.txt")


# -- round trip through readinglist's own export ---------------------------------------------


def library_records() -> tuple[list[Record], dict[str, dict]]:
    """Generated records for the seed abstracts (as the converter makes them) plus records
    with real metadata, and varied reader state."""
    records = []
    states: dict[str, dict] = {}
    statuses = ["unread", "reading", "read", "skipped"]
    for i, abstract in enumerate(ABSTRACTS):
        key = f"seed{i:02d}2026"
        records.append(
            Record(
                key=key,
                title=f"Generated Title {i}: On {abstract.split()[0]} {abstract.split()[1]}",
                abstract=abstract,
                venue="NeurIPS",
                year=2026,
                shorttitle=f"Sys{i}" if i % 3 == 0 else None,
                tags=("llm", "evaluation") if i % 2 else ("vision",),
                generated=frozenset({"key", "title", "tags"} | ({"shorttitle"} if i % 3 == 0 else set())),
                sources=(Source(f"seeds/list{i % 2}.txt", paragraph=i + 2, line=3 + 2 * i),),
            )
        )
        state: dict = {"status": statuses[i % 4]}
        if i % 5 == 0:
            state["priority"] = 1 + i % 3
        if i % 7 == 0:
            state["rating"] = 1 + i % 5
        if i % 4 == 1:
            state["notes"] = f"Re-read section {i}; 30% better?"
        if i % 6 == 0:
            state["tags"] = ["to-discuss"]
        states[key] = state
    records.append(
        Record(
            key="schrodinger2024",
            title="Schrödinger's Cats: A Study of Superposition – Part 2",
            abstract=r"We study $\ell_1$ cats in 30\% of boxes.",
            venue="ICML",
            year=2024,
            authors=(Person("Schrödinger", "Erwin"), Person("van der Berg", "Anna"), Person(literal="Google DeepMind")),
            doi="10.1234/cats.2024",
            url="https://example.org/cats",
            pages="100--110",
            tags=("physics",),
            fields=(("publisher", "Curran Associates"),),
            sources=(Source("zotero.bib", line=1),),
        )
    )
    states["schrodinger2024"] = {"status": "read", "rating": 5, "notes": "Classic."}
    return records, states


FIXED_TIME = "2026-11-30T06:15:00Z"


def round_trip(tmp_path: Path, exporter_name: str, importer_obj, suffix: str):
    """Import the library records into a store, export them, import the export into a second
    store and export again: returns both stores and both texts."""
    from readinglist.formats.registry import find_exporter
    from readinglist.store.library import Store

    records, states = library_records()
    first = Store.open(tmp_path / "first", config=CONFIG, clock=lambda: FIXED_TIME)
    first.import_records(records, states=states)
    options = ExportOptions(CONFIG, with_status=True, with_notes=True)
    exporter = find_exporter(exporter_name)
    text1 = exporter.export(list(first), options)
    result = importer_obj.parse(text1, source=f"export{suffix}", options=ImportOptions(CONFIG))
    assert not result.warnings and not result.skipped
    second = Store.open(tmp_path / "second", config=CONFIG, clock=lambda: FIXED_TIME)
    summary = second.import_records(result.records, states=result.states)
    assert len(summary.added) == len(records) and not summary.renamed
    text2 = exporter.export(list(second), options)
    return first, second, text1, text2


# -- the CLI in process ---------------------------------------------------------------------------


def cli(*args, ok: bool = True, input: str | None = None, env: dict | None = None):
    """Run ``readinglist ARGS`` in process (typer's CliRunner). ``ok``: it must succeed (else
    it must fail); the result's ``output`` and ``exit_code`` are there to check further."""
    from typer.testing import CliRunner

    from readinglist.cli import app

    result = CliRunner().invoke(app, [*map(str, args)], input=input, env=env)
    if ok:
        assert result.exit_code == 0, (result.output, result.exception)
    else:
        assert result.exit_code != 0, result.output
    return result


def cli_in(store, *args, **kwargs):
    """:func:`cli` on the store at ``store`` (``--store STORE ARGS``)."""
    return cli("--store", store, *args, **kwargs)


# -- Markdown that must be inert ---------------------------------------------------------------


class StartTags(HTMLParser):
    """Every element and attribute the rendered HTML holds."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


ALLOWED = {"p", "ul", "ol", "li", "strong", "em", "code", "pre", "blockquote", "details", "summary",
           "h1", "h2", "h3", "h4", "h5", "h6", "a", "img", "br", "input", "span", "hr", "div", "section", "del", "sup", "sub"}


def assert_inert(html: str) -> None:
    parser = StartTags()
    parser.feed(html)
    for tag, attrs in parser.found:
        assert tag in ALLOWED, (tag, attrs, html)
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, attrs)
            if name in ("href", "src", "action"):
                target = re.sub(r"[\s\x00-\x1f]", "", value or "").lower()
                # http(s), mailto, a fragment or a relative target (no scheme before any / ? #):
                # nothing a browser runs (the notes keep the reader's relative links, by design)
                scheme = re.match(r"^([a-z][a-z0-9+.\-]*):", target)
                assert scheme is None or re.match(r"^(https?|mailto)$", scheme.group(1)), (tag, attrs)


def render_markdown_it(text: str) -> str:
    from markdown_it import MarkdownIt

    # html enabled, link validation off: the export itself must be safe, not the renderer
    md = MarkdownIt("commonmark", {"html": True})
    md.validateLink = lambda url: True
    return md.render(text)


# -- the CLI on a terminal ------------------------------------------------------------------------


def in_pty(args, *, cols: int, rows: int = 200, env=None, cwd=None, stdin_data: bytes | None = None) -> tuple[int, str]:
    """Run the readinglist script with stdin/stdout/stderr on a pty of ``cols`` x ``rows``;
    returns (exit status, everything written to the terminal, \\r\\n made \\n)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    full_env = {**os.environ, "TERM": "xterm-256color", "PAGER": "cat", "READINGLIST_CONFIG": "", **(env or {})}
    full_env.pop("COLUMNS", None)
    full_env.pop("LINES", None)
    proc = subprocess.Popen([console_script(), *map(str, args)], stdin=slave, stdout=slave, stderr=slave, env=full_env, cwd=cwd, close_fds=True)
    os.close(slave)
    if stdin_data:
        os.write(master, stdin_data)
    chunks = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(master)
    code = proc.wait(timeout=10)
    return code, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def generated_records(n: int, *, words: int = 40) -> list[Record]:
    """``n`` small records with generated key, title and tags, each from its own line of one
    abstract list (what the git tests share and merge)."""
    return [
        Record(
            key=f"paper{i}",
            title=f"Generated title {i}",
            abstract=f"Abstract {i}: " + " ".join(f"term{i}_{j}" for j in range(words)),
            venue="NeurIPS",
            year=2026,
            tags=("llm",),
            generated=frozenset({"key", "title", "tags"}),
            sources=(Source("seeds/list.txt", i + 1, 3 + 2 * i),),
        )
        for i in range(n)
    ]


def training_corpus(folder: Path, rows: list[dict]) -> Path:
    """A training corpus written for a test (``train.jsonl.gz`` in ``folder``): each row (its
    "title" and "abstract") with an id and a source, as the training scripts read them."""
    path = folder / "train.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for i, row in enumerate(rows):
            f.write(json.dumps({"id": str(i), "source": "test", **row}) + "\n")
    return path
