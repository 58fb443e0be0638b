"""Speed of readinglist.text over seed-like abstracts (prints figures; no assertions).

Builds N abstracts by cycling the seed paragraphs with a unique suffix (so whole-abstract caching
cannot help, while repeated spans like ``$\\ell_1$`` recur as in real lists), then times each
rendering (CPU time of this process, so other jobs on a shared machine count less) cold (first call: pylatexenc import and empty span caches) and warm.

    python bench/text_bench.py [N_plain=5000] [N_export=20000]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from readinglist import text  # noqa: E402
from readinglist.convert import reader  # noqa: E402


def corpus(n: int) -> list[str]:
    paragraphs = []
    for path in sorted((ROOT / "seeds").glob("*.txt")):
        paragraphs += [p.text for p in reader.parse_list(path.read_text(encoding="utf-8")).paragraphs]
    return [f"{paragraphs[i % len(paragraphs)]} (variant {i})" for i in range(n)]


def timed(fn, items, repeat: int = 1) -> float:
    """Best of ``repeat`` runs (the machine may be shared)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for s in items:
            fn(s)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    n_plain = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    n_export = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    small, big = corpus(n_plain), corpus(n_export)
    chars = sum(map(len, big)) / len(big)
    print(f"abstracts: {n_plain} / {n_export}, mean {chars:.0f} characters")
    cold = timed(text.to_plain, small)
    warm = timed(text.to_plain, small, 3)
    print(f"to_plain     {n_plain:6d}: cold {cold:6.3f} s   warm {warm:6.3f} s   ({warm / n_plain * 1e6:5.1f} us each)  budget 0.5 s")
    for name in ("to_bibtex", "to_markdown"):
        fn = getattr(text, name)
        cold = timed(fn, big)
        warm = timed(fn, big, 3)
        print(f"{name:12s} {n_export:6d}: cold {cold:6.3f} s   warm {warm:6.3f} s   ({warm / n_export * 1e6:5.1f} us each)  budget ~1 s")
    for name in ("ascii_fold", "normalize_space"):
        fn = getattr(text, name)
        print(f"{name:12s} {n_export:6d}: {timed(fn, big):6.3f} s")
    # the reference point: pylatexenc on whole abstracts (what to_plain avoids)
    from pylatexenc.latex2text import LatexNodes2Text

    conv = LatexNodes2Text(math_mode="text")
    sample = small[:100]
    whole = timed(conv.latex_to_text, sample)
    ours = timed(text.to_plain, sample)
    print(f"pylatexenc on whole abstracts: {whole / len(sample) * 1e3:.2f} ms each vs to_plain {ours / len(sample) * 1e3:.3f} ms (x{whole / ours:.0f})")
    raw = "\n\n".join(["NeurIPS 2026 论文列表"] + big)
    start = time.perf_counter()
    parsed = reader.parse_list(raw)
    print(f"parse_list   {len(parsed.paragraphs):6d} paragraphs: {time.perf_counter() - start:6.3f} s")


if __name__ == "__main__":
    main()
