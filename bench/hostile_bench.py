"""Hostile-input budget: every importer, and the renderings every command uses, are linear in
their input, whatever it is (issue 14).

For each adversarial input (unclosed and deeply nested braces, ``\\emph{`` runs, emphasis and
math openers without closers, quotes, ``@string`` chains, deep JSON) at 10k, 100k and 1M
characters, it times: the importer's parse (abstract list, .bib or CSL-JSON) and, for text,
``to_plain``, ``to_bibtex`` and ``to_markdown``. It prints seconds per size and the ratios
100k/10k and 1M/100k side by side: linear time gives ratios near 10 (quadratic: 100).
Inputs that are refused (InputError, e.g. a .bib whose macros expand too far) count as done.

Run: python bench/hostile_bench.py [--max 1000000] [--only NAME]
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from readinglist.config import default_config  # noqa: E402
from readinglist.errors import InputError  # noqa: E402
from readinglist.formats.registry import ImportOptions, find_importer  # noqa: E402
from readinglist.text import to_bibtex, to_markdown, to_plain  # noqa: E402

HEADER = "NeurIPS 2026\n\n"
#: A real first sentence, so that the list reader takes the paragraph for an abstract.
LEAD = "We propose HostileNet, a method for robust parsing of large language model outputs. "


def fill(unit: str, n: int) -> str:
    return unit * max(1, n // len(unit))


#: name -> (function of the size giving one abstract's text)
TEXTS = {
    "open-braces": lambda n: fill("{", n),
    "close-braces": lambda n: fill("}", n),
    "nested-braces": lambda n: fill("{", n // 2) + fill("}", n // 2),
    "emph-open": lambda n: fill("\\emph{", n),
    "emph-nested": lambda n: fill("\\emph{a ", n // 2) + fill("}", n // 2),
    "strong-open": lambda n: fill("**a ", n),
    "under-open": lambda n: fill("__a ", n),
    "math-open": lambda n: fill("\\( x ", n),
    "dollars": lambda n: fill("$a $", n),
    "backticks": lambda n: fill("`a", n),
    "quotes": lambda n: "`" + fill("a' ", n),
    "accents": lambda n: fill("\\'{", n),
    "macro-args": lambda n: "\\foo" + fill("{a}", n),
    "words": lambda n: fill("Large language models learn to reason. ", n),
}


def bib_strings(n: int) -> str:
    """A chain of @string macros, each doubling the last one, then a title using the last."""
    count = max(1, n // 40)
    lines = ['@string{s0 = "ab"}'] + [f"@string{{s{i} = s{i - 1} # s{i - 1}}}" for i in range(1, count)]
    return "\n".join(lines) + f"\n@article{{k, title = s{count - 1}, year = 2020}}\n"


def bib_braces(n: int) -> str:
    return "@article{k, title = {" + fill("{", n) + "}, year = 2020}\n"


def bib_nested(n: int) -> str:
    return "@article{k, title = {" + fill("{", n // 2) + "x" + fill("}", n // 2) + "}, year = 2020}\n"


def json_deep(n: int) -> str:
    return fill("[", n)


def json_number(n: int) -> str:
    return '[{"id": "a", "title": "t", "issued": {"date-parts": [[' + "9" * n + "]]}}]"


INPUTS = {
    "bib-strings": ("bibtex", bib_strings),
    "bib-braces": ("bibtex", bib_braces),
    "bib-nested": ("bibtex", bib_nested),
    "json-deep": ("csljson", json_deep),
    "json-number": ("csljson", json_number),
}


def timed(fn, arg) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        fn(arg)
        outcome = "ok"
    except InputError:
        outcome = "refused"
    return time.perf_counter() - start, outcome


def import_list(text: str):
    options = ImportOptions(default_config())
    return find_importer("abstracts", None).parse(HEADER + LEAD + text + "\n", source="bench.txt", options=options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=1_000_000, help="largest input size (characters)")
    parser.add_argument("--only", help="run only the inputs whose name contains this")
    args = parser.parse_args()
    sizes = [n for n in (10_000, 100_000, 1_000_000) if n <= args.max]
    options = ImportOptions(default_config())
    head = "".join(f"{n:>12,}" for n in sizes)
    print(f"{'input/step':28}{head}   ratios (10 = linear)", flush=True)
    worst = [0.0]

    def show(name, results):
        secs = "".join(f"{t:11.3f}s" for t, _ in results)
        ratios = [results[i + 1][0] / max(results[i][0], 1e-3) for i in range(len(results) - 1)]
        worst[0] = max([worst[0], *ratios])
        outcome = ",".join(sorted({o for _, o in results}))
        print(f"{name:28}{secs}   {' '.join(f'{r:6.1f}' for r in ratios)}  {outcome}", flush=True)

    for name, make in TEXTS.items():
        if args.only and args.only not in name:
            continue
        for label, fn in (
            ("import", import_list),
            ("plain", to_plain),
            ("bibtex", to_bibtex),
            ("markdown", to_markdown),
        ):
            show(f"{name}/{label}", [timed(fn, make(n)) for n in sizes])
    for name, (fmt, make) in INPUTS.items():
        if args.only and args.only not in name:
            continue
        importer = find_importer(fmt, None)
        show(name, [timed(partial(importer.parse, source="bench", options=options), make(n)) for n in sizes])
    print(f"worst ratio: {worst[0]:.1f}")


if __name__ == "__main__":
    main()
