"""What holds the memory of an import into a large store, by line (tracemalloc).

Runs ``readinglist --store STORE import FILES...`` in this process under tracemalloc and prints
the largest allocations still held at three moments of the import (the importer opened, before
its commit, inside the commit's writing of the cache's signatures) and the traced peak. Import
into a copy of the store (it is changed). Usage::

    python bench/import_memory_profile.py STORE FILE... [--top 15]
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc


def show(label: str, top: int) -> None:
    snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    current, peak = tracemalloc.get_traced_memory()
    print(f"\n== {label}: {current / 2**20:.1f} MB held, peak so far {peak / 2**20:.1f} MB", flush=True)
    for stat in snap.statistics("lineno")[:top]:
        frame = stat.traceback[0]
        print(f"{stat.size / 2**20:8.1f} MB {stat.count:9,} blocks  {frame.filename.split('readinglist/')[-1]}:{frame.lineno}")


def rss_peak(args) -> int:
    """Run the import while a thread samples the resident size; the main thread's stack at the
    largest sample (RSS counts what tracemalloc does not see: SQLite's pages, freed arenas)."""
    import os
    import threading
    import time
    import traceback

    page = os.sysconf("SC_PAGE_SIZE")
    main_id = threading.get_ident()
    best = [0, ""]
    done = threading.Event()

    def sample() -> None:
        with open("/proc/self/statm") as f:
            while not done.is_set():
                f.seek(0)
                rss = int(f.read().split()[1]) * page
                if rss > best[0]:
                    frame = sys._current_frames().get(main_id)
                    best[:] = [rss, "".join(traceback.format_stack(frame)[-12:]) if frame else ""]
                time.sleep(0.002)

    def leave(code: int) -> None:
        raise SystemExit(code)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    sys.argv = ["readinglist", "--store", args.store, "import", *args.files]
    os._exit = leave  # type: ignore[assignment]  # (the CLI ends its process with it)
    from readinglist.cli import main as cli

    try:
        cli()
    except SystemExit:
        pass
    done.set()
    thread.join()
    print(f"peak RSS {best[0] / 2**20:.1f} MB at:\n{best[1]}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--rss", action="store_true", help="instead: sample the RSS every 2 ms, print the stack at its peak")
    args = ap.parse_args()
    if args.rss:
        return rss_peak(args)
    from readinglist.store import cache, importer

    opened = importer.Importer.__init__
    committing = importer.Importer.commit
    put_sigs = cache.put_sigs

    def init(self, store) -> None:
        opened(self, store)
        show("importer opened", args.top)

    def commit(self) -> None:
        show("before commit", args.top)
        committing(self)

    def sigs(db, table) -> None:
        show("commit, writing the signatures", args.top)
        put_sigs(db, table)

    importer.Importer.__init__ = init  # type: ignore[method-assign]
    importer.Importer.commit = commit  # type: ignore[method-assign]
    cache.put_sigs = sigs
    from readinglist.cli import main as cli

    import os

    def leave(code: int) -> None:
        raise SystemExit(code)

    sys.argv = ["readinglist", "--store", args.store, "import", *args.files]
    os._exit = leave  # type: ignore[assignment]  # (the CLI ends its process with it)
    tracemalloc.start()
    try:
        cli()
    except SystemExit:
        pass
    print(f"\ntraced peak {tracemalloc.get_traced_memory()[1] / 2**20:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
