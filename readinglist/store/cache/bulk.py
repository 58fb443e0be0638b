"""The bulk read of paper files (a fresh clone, a deleted cache): read with
:func:`~readinglist.store.paperrow.read_texts` and the compiled TOML reader, straight to rows
(:func:`~readinglist.store.paperfile.parse_row`), in forked workers when there are many and the
caller passed ``processes`` > 1.
"""

from __future__ import annotations


import contextlib
import marshal
import os
from collections.abc import Container, Generator, Iterator
from pathlib import Path

from ...errors import StoreError
from ...forking import fork, fork_writer, workers as usable_workers
from ...gc_pause import gc_paused
from ..paperrow import read_texts

from . import database, files

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    pass


#: From this many files to parse, a compiled TOML reader is worth importing (see
#: :func:`readinglist.store.paperfile.compiled_loads`)...
COMPILED_MIN_FILES = 64
#: ...and from this many (and ``processes`` > 1), forked workers share the parsing (at most
#: MAX_WORKERS of them).
PARALLEL_MIN_FILES = 2000
MAX_WORKERS = 4


def parse_files(
    papers_dir: Path, names: list[str], convert=None, careful: Container[str] = (), *, processes: int = 1
) -> tuple[dict, list[str]]:
    """The papers in ``names`` (files in ``papers_dir``), and the names that were not found.
    ``convert(name, row)``: what to return for each paper instead, from its row
    (:func:`~readinglist.store.paperfile.paper_to_row`; marshal data, so that forked workers
    convert their share themselves). ``careful``: names that are not regular files (see
    :func:`odd`), never opened.

    Many files (a fresh clone, a deleted cache) are parsed with a compiled TOML reader when
    one is installed, and shared among forked workers when the caller passed ``processes`` > 1; the
    result is the same as parsing them one by one here, including which error is raised
    first (the first bad file in ``names``' order). A worker that fails in any other way
    leaves its share to this process.
    """
    from ..paperfile import row_to_paper

    from ..paperfile import compiled_loads

    loads = compiled_loads() if len(names) >= COMPILED_MIN_FILES else None
    workers = usable_workers(processes, MAX_WORKERS) if len(names) >= PARALLEL_MIN_FILES else 1
    if workers < 2:
        return converted(*parse_share(papers_dir, names, loads, careful), convert)
    size = -(-len(names) // workers)
    shares = [names[i : i + size] for i in range(0, len(names), size)]
    children = []
    for share in shares[1:]:
        children.append((share, fork_parse(papers_dir, share, loads, convert, careful)))
    parsed: dict = {}
    vanished: list[str] = []
    error = None
    try:
        parsed, vanished = converted(*parse_share(papers_dir, shares[0], loads, careful), convert)
    except StoreError as exc:  # the first share holds the first bad file: report it...
        error = exc
    for share, child in children:  # ...after collecting every worker
        result = files.collect_marshalled(child)
        if error is not None:
            continue
        if result is None:  # the worker failed: parse its share here
            try:
                more, gone = converted(*parse_share(papers_dir, share, loads, careful), convert)
            except StoreError as exc:
                error = exc
                continue
        elif result[0] == "error":
            error = StoreError(result[1])
            continue
        else:
            _, rows_names, rows, gone = result
            with gc_paused():
                more = dict(zip(rows_names, rows if convert is not None else map(row_to_paper, rows)))
        parsed.update(more)
        vanished += gone
    if error is not None:
        raise error
    return parsed, vanished


def converted(rows: dict[str, tuple], vanished: list[str], convert) -> tuple[dict, list[str]]:
    """Papers (or ``convert(name, row)``) from rows."""
    from ..paperfile import row_to_paper

    with gc_paused():
        if convert is not None:
            return {name: convert(name, row) for name, row in rows.items()}, vanished
        return {name: row_to_paper(row) for name, row in rows.items()}, vanished


def parse_share(papers_dir: Path, names: list[str], loads, careful: Container[str] = ()) -> tuple[dict[str, tuple], list[str]]:
    """The rows of the files ``names`` (see :func:`parse_files`), and those not found."""
    from ..paperfile import parse_row

    parsed: dict[str, tuple] = {}
    vanished: list[str] = []
    base = os.path.join(papers_dir, "")  # error messages name the path as papers_dir / name does
    for name, text in read_texts(papers_dir, names, careful):
        if text is None:
            vanished.append(name)
        else:
            parsed[name] = parse_row(text, base + name, loads=loads)
    return parsed, vanished


def fork_parse(papers_dir: Path, names: list[str], loads, convert=None, careful: Container[str] = ()) -> tuple[int, int] | None:
    """A forked worker parsing ``names``: (pid, read end of its pipe), or None if it cannot
    start. It sends marshal data: ("ok", names, rows, vanished) or ("error", message)."""

    def work() -> bytes:
        try:
            with gc_paused():
                parsed, vanished = parse_share(papers_dir, names, loads, careful)
                rows = list(parsed.values()) if convert is None else [convert(n, r) for n, r in parsed.items()]
            return marshal.dumps(("ok", list(parsed), rows, vanished))
        except StoreError as exc:
            return marshal.dumps(("error", str(exc)))

    return fork(work)



#: What a fresh read costs this process and a worker, in microseconds a paper (measured on
#: 20,000 papers, step by step): parsing one here (read, TOML, row, bundle), parsing one in a
#: worker (and sending it), writing one's rows to the cache, receiving one from a worker; and
#: this process's fixed share (start-up, stat pass, the command's own output), in microseconds.
PARSE_US, WORKER_PARSE_US, WRITE_US, LOAD_US, FIXED_US = 71, 76, 35, 12, 250_000
#: A worker sends its rows this many papers at a time, which this process writes as they come.
STREAM_CHUNK = 1000


def parsed_parts(
    papers_dir: Path, names: list[str], careful: Container[str], broken: dict, processes: int = 1
) -> Generator[Iterator[tuple[dict, list[str]]], None, None]:
    """The files ``names`` parsed, part by part, each part chunk by chunk: ``(bundles, lost)``,
    name -> :func:`bundle_row` and the names that vanished or do not parse (noted in
    ``broken``). One part, or, for many files on a machine with several cores, two: this
    process's share first, which the caller writes while forked workers (``processes`` > 1) parse the rest (the
    second part), whose rows they send a chunk at a time, which the caller writes as they come.
    This process writes every row, so its share is the smaller one: with P, P', W and L the
    times to parse here, to parse in a worker, to write and to receive a paper (and F this
    process's fixed cost), this process takes ``F + N (x (P + W) + (1 - x) (W + L))`` and k
    workers ``N (1 - x) P' / k``; x makes them equal (see PARSE_US)."""
    from ..paperfile import compiled_loads

    loads = compiled_loads() if len(names) >= COMPILED_MIN_FILES else None
    workers = usable_workers(processes, MAX_WORKERS) if len(names) >= PARALLEL_MIN_FILES else 1
    if workers < 2:
        yield iter([bundles(papers_dir, names, loads, careful, broken)])
        return
    k = workers - 1
    per_worker = WORKER_PARSE_US / k
    x = (per_worker - WRITE_US - LOAD_US - FIXED_US / len(names)) / (PARSE_US - LOAD_US + per_worker)
    first = round(len(names) * min(max(x, 0.0), 1.0))
    size = -(-(len(names) - first) // k)
    shares = [names[i : i + size] for i in range(first, len(names), size)]
    children = [(share, fork_stream(papers_dir, share, loads, careful)) for share in shares]
    try:
        yield iter([bundles(papers_dir, names[:first], loads, careful, broken)])

        def rest() -> Iterator[tuple[dict, list[str]]]:
            while children:
                share, child = children.pop(0)
                done = 0  # names of the share received
                stream = received(child)
                try:
                    for chunk in stream:
                        if chunk[0] != "ok":  # a bad file: this process parses the rest of the share
                            break
                        _, rows_names, rows, vanished = chunk
                        done += len(rows_names) + len(vanished)
                        yield dict(zip(rows_names, rows)), vanished
                finally:
                    stream.close()  # (the worker waited for)
                if done < len(share):  # the worker failed, or found a bad file
                    yield bundles(papers_dir, share[done:], loads, careful, broken)

        yield rest()
    finally:
        for _, child in children:  # the caller stopped early: wait for the workers all the same
            for _ in received(child):
                pass


def fork_stream(papers_dir: Path, names: list[str], loads, careful: Container[str]) -> tuple[int, int] | None:
    """A forked worker parsing ``names`` to :func:`bundle_row` STREAM_CHUNK at a time: (pid, read
    end of its pipe), or None if it cannot start. It sends each chunk as soon as it is parsed,
    marshal data after its length: ("ok", names, rows, vanished), and stops at a bad file with
    ("error", message); :func:`_received` reads them."""

    def work(out) -> None:
        with gc_paused():
            for i in range(0, len(names), STREAM_CHUNK):
                bad = None
                try:
                    parsed, vanished = parse_share(papers_dir, names[i : i + STREAM_CHUNK], loads, careful)
                    data = marshal.dumps(("ok", list(parsed), [database.bundle_row(n, r) for n, r in parsed.items()], vanished))
                except StoreError as exc:
                    data = marshal.dumps(("error", bad := str(exc)))
                out.write(len(data).to_bytes(8, "little") + data)
                out.flush()
                if bad is not None:
                    break

    return fork_writer(work)


def received(child: tuple[int, int] | None) -> Generator[tuple, None, None]:
    """The chunks a :func:`_fork_stream` worker sent, as they come; it stops early (and the
    worker is waited for) when the worker failed or its data cannot be read."""
    if child is None:
        return
    pid, read_end = child
    try:
        with os.fdopen(read_end, "rb") as pipe:
            while True:
                head = pipe.read(8)
                if len(head) < 8:
                    break
                size = int.from_bytes(head, "little")
                data = pipe.read(size)
                if len(data) < size:
                    break
                yield marshal.loads(data)
    except (OSError, ValueError, EOFError, TypeError):
        pass
    finally:
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)


def bundles(papers_dir: Path, names: list[str], loads, careful: Container[str], broken: dict) -> tuple[dict, list[str]]:
    """:func:`bundle_row` of each file of ``names`` and the names to drop (vanished, or not
    parsing: one bad file must not hide the others, so then they are parsed one by one)."""
    try:
        return converted(*parse_share(papers_dir, names, loads, careful), database.bundle_row)
    except StoreError:
        pass
    parsed: dict = {}
    lost: list[str] = []
    for name in names:
        try:
            more, vanished = converted(*parse_share(papers_dir, [name], loads, careful), database.bundle_row)
        except StoreError as exc:
            broken[name] = str(exc)
            lost.append(name)
            continue
        parsed.update(more)
        lost += vanished
    return parsed, lost
