"""The pipeline's machinery: :class:`Converter` and the generation stages it runs over many
abstracts (in forked workers when asked; one abstract's fields: :mod:`.generation`); the entry
point is :func:`readinglist.convert.convert`."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Callable, Iterator

from ..config import Config, default_config
from .generation import Fields, generate_fields
from .generators import BUILTIN
from ..record import Duplicate, ImportResult, Record, Skipped, Source


@dataclass(frozen=True)
class ConvertResult:
    """Records made from one or more abstract lists, and what was left out."""

    records: tuple[Record, ...]
    skipped: tuple[Skipped, ...] = ()
    duplicates: tuple[Duplicate, ...] = ()
    warnings: tuple[str, ...] = ()  # abstracts whose generation failed (file:line: what happened)

    def as_import_result(self) -> ImportResult:
        return ImportResult(records=self.records, skipped=self.skipped, duplicates=self.duplicates, warnings=self.warnings)


#: ``progress(done, total)``: how many of a batch's items (abstracts) are done.
ItemProgress = Callable[[int, int], None]

#: Below this many new abstracts in one list, generating in one process is quicker than forking.
PARALLEL_MIN = 1000


def title_generator(config: Config):
    """The title generator the config chooses (``[titles] generator``), loaded; None for the
    built-in one (so that nothing is looked up for it)."""
    from .generators import find_generator

    name = config.title_generator
    return None if name == BUILTIN else find_generator(name)


#: The field that keeps a title generator plugin's provenance with each paper it titled.
PROVENANCE_FIELD = "titlegenerator"

_WORKER: dict = {}

# Generated once in a parent before it forks workers: generation's first abstract imports what
# it needs on first use (pylatexenc and its converter, the naming rules) and fills the caches of
# words seen; done in the parent, no worker does it again (the result is thrown away).
_WARM_UP = (
    r"We propose \textbf{WarmNet}, a graph neural network (GNN) for $\alpha$-sparse link prediction. "
    r"WarmNet improves accuracy by 5\% on three benchmarks."
)


def _ready_to_fork(tagger, max_tags: int, generator=None) -> None:
    """Everything generation reads or builds once, made in this process before it forks workers
    (which then share it): the learned models, and one abstract generated."""
    from .models import load_all

    _WORKER.update(tagger=tagger, max_tags=max_tags, generator=generator)
    load_all()  # the learned models read once here, not once in every worker
    generate_fields(_WARM_UP, tagger, max_tags, generator)


def _generate_chunk(abstracts: list[str]) -> list[Fields]:
    tagger, max_tags, generator = _WORKER["tagger"], _WORKER["max_tags"], _WORKER.get("generator")
    return [generate_fields(a, tagger, max_tags, generator) for a in abstracts]


def generate_all(
    abstracts: list[str], tagger, max_tags: int, *, processes: int = 1, progress: ItemProgress | None = None, generator=None
) -> list[Fields]:
    """:func:`~.generation.generate` for many abstracts, in order. Pure functions, so with ``processes`` > 1
    a large batch is shared among forked workers (which inherit the compiled tagger); the result
    is the same as in one process. The library default is one process: forking from a threaded
    host is unsafe, so only a caller that owns its process (the CLI) asks for more.
    ``progress(done, total)`` is called as abstracts are generated (every 25, and at the end)."""
    return list(generate_iter(abstracts, tagger, max_tags, processes=processes, progress=progress, generator=generator))


class Workers:
    """Forked generation workers shared by every list of an import: forked once, at the start,
    while this process is small (a worker's memory starts as a copy of it), with the tagger and
    the learned models they need. A converter given them generates with their tagger. Close
    them (``with Workers(...) as workers:``) when done."""

    def __init__(self, config: Config, processes: int) -> None:
        from ..forking import pool
        from .tagging import tagger_for

        self.config = config
        self.tagger = tagger_for(config)
        self.generator = title_generator(config)
        _ready_to_fork(self.tagger, config.max_tags, self.generator)
        self.pool = pool(processes)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


#: Abstracts per task handed to a worker: small enough that at the end of an import the last
#: tasks leave no worker idle for long, large enough that the
#: hand-over costs nothing next to the generation.
CHUNK = 100


def _chunks(abstracts: list[str]) -> list[list[str]]:
    return [abstracts[i : i + CHUNK] for i in range(0, len(abstracts), CHUNK)]


def generate_iter(
    abstracts: list[str], tagger, max_tags: int, *, processes: int = 1, progress: ItemProgress | None = None, workers: Workers | None = None,
    generator=None,
) -> Iterator[Fields]:
    """:func:`generate_all`'s results one by one, as they are ready (the workers run ahead of
    the caller, who may meanwhile store what came). ``workers``: a pool forked already (whose
    tagger must be ``tagger``), used instead of forking one for these abstracts; they are handed
    to it at once, behind any list it is still generating, so that it goes on to them without
    waiting for the caller to read the results before."""
    total = len(abstracts)
    if workers is not None and total >= PARALLEL_MIN:
        assert workers.tagger is tagger and _WORKER.get("tagger") is tagger and workers.generator is generator
        return _in_order(workers.pool.imap(_generate_chunk, _chunks(abstracts)), total, progress)
    return _generate_here(abstracts, tagger, max_tags, processes=processes, progress=progress, generator=generator)


def _in_order(chunks: Iterator[list], total: int, progress: ItemProgress | None) -> Iterator[Fields]:
    done = 0
    for chunk in chunks:  # in order, as each chunk is ready
        done += len(chunk)
        if progress:
            progress(done, total)
        yield from chunk


def _generate_here(
    abstracts: list[str], tagger, max_tags: int, *, processes: int = 1, progress: ItemProgress | None = None, generator=None
) -> Iterator[Fields]:
    """:func:`generate_iter` without a pool forked already: in this process, or in a pool forked
    for these abstracts when there are many."""
    from ..forking import workers as usable_workers

    total = len(abstracts)
    if total < PARALLEL_MIN or usable_workers(processes) < 2:
        for n, a in enumerate(abstracts, 1):
            fields = generate_fields(a, tagger, max_tags, generator)
            if progress and (n % 25 == 0 or n == total):
                progress(n, total)
            yield fields
        return
    from ..forking import pool

    _ready_to_fork(tagger, max_tags, generator)
    with pool(processes) as workers:  # (terminated however the caller ends)
        yield from _in_order(workers.imap(_generate_chunk, _chunks(abstracts)), total, progress)


def _remembered(abstracts: list[str], known: dict[int, tuple], generated: Iterator[tuple], memo) -> Iterator[tuple]:
    """The fields of every abstract in order: ``known``'s where it has them, else the next
    ``generated`` ones, which ``memo`` is given as they come."""
    for i, abstract in enumerate(abstracts):
        fields = known.get(i)
        if fields is None:
            fields = next(generated)
            memo.add(abstract, fields)
        yield fields


@dataclass
class _Pending:
    """A new abstract waiting for its generated fields and key."""

    abstract: str
    venue: str | None
    year: int | None
    sources: list[Source]


@dataclass
class Converter:
    """Converts several lists into one set of records, merging duplicates across them.

    ``taken`` holds keys that new records must not get (e.g. those already in a store).
    Stages: each list is read and its paragraphs checked against the abstracts seen so far
    (exact fingerprint, then near-duplicate index); only new abstracts are generated (name,
    title, tags), and then keyed in input order, so keys do not depend on how work was shared.
    """

    config: Config = field(default_factory=default_config)
    taken: set[str] = field(default_factory=set)
    #: worker processes for generating large batches (see :func:`generate_all`); 1 = no fork
    processes: int = 1
    #: called as ``progress(done, total)`` while a list's new abstracts are generated
    progress: ItemProgress | None = None
    #: a pool forked already for large lists (see :class:`Workers`), instead of one per list
    workers: Workers | None = None
    #: fields generated before, by abstract (:class:`readinglist.store.genmemo.GenerationMemo`:
    #: ``lookup(abstracts) -> {position: fields}``, ``add(abstract, fields)``): only the abstracts
    #: it does not know are generated (and counted by :attr:`progress`), and then given to it
    memo: object | None = None

    def __post_init__(self) -> None:
        from .matching import NearIndex
        from .tagging import tagger_for

        if self.workers is not None:
            self._tagger, self._generator = self.workers.tagger, self.workers.generator
        else:
            self._tagger = tagger_for(self.config)
            self._generator = title_generator(self.config)
        self._near = NearIndex()
        self._by_fingerprint: dict[str, int] = {}
        self._records: list[Record] = []
        self._skipped: list[Skipped] = []
        self._duplicates: list[tuple[Source, int, float]] = []  # (where, record index, score)
        self._warnings: list[str] = []
        self.to_generate = 0  # abstracts the last generate_matched hands to the generator

    def add_text(self, text: str, *, source: str = "<string>", venue: str | None = None, year: int | None = None) -> None:
        """Convert one list. ``venue``/``year`` override what its header says."""
        for _ in self.iter_text(text, source=source, venue=venue, year=year):
            pass

    def iter_text(
        self, text: str, *, source: str = "<string>", venue: str | None = None, year: int | None = None, batch: int = 250
    ) -> Iterator[list[Record]]:
        """:meth:`add_text`, giving the list's new records in order, ``batch`` at a time, as
        they are generated (its duplicates were all found before the first one is made)."""
        yield from self.generate_matched(self.match_text(text, source=source, venue=venue, year=year), batch=batch)

    def match_text(self, text: str, *, source: str = "<string>", venue: str | None = None, year: int | None = None) -> list[_Pending]:
        """The first half of :meth:`iter_text`: the list read and its abstracts matched against
        those seen so far; the new ones, for :meth:`generate_matched` (called before the next
        list is matched)."""
        from .reader import ListReader, text_lines

        return self.match_list(ListReader(text_lines(text), source=source), venue=venue, year=year)

    def match_list(self, parsed, *, venue: str | None = None, year: int | None = None) -> list[_Pending]:
        """:meth:`match_text` of a list read as it comes (a :class:`~readinglist.convert.reader.ListReader`,
        e.g. :func:`~readinglist.convert.reader.read_list` of a file): its paragraphs are
        matched one by one, never all held."""
        from .matching import fingerprint

        source = parsed.source
        venue = venue or parsed.venue
        year = year or parsed.year
        pending: list[_Pending] = []
        first_new = len(self._records)
        for para in parsed.paragraphs():
            src = Source(file=source, paragraph=para.number, line=para.line)
            fp = fingerprint(para.text)
            index = self._by_fingerprint.get(fp)
            score = 100.0
            if index is None:
                hit = self._near.best(para.text, self.config.duplicate_threshold)
                if hit is not None:
                    index, score = int(hit[0]), hit[1]
            if index is not None:
                if index >= first_new:
                    pending[index - first_new].sources.append(src)
                else:
                    kept = self._records[index]
                    self._records[index] = kept.evolve(sources=kept.sources + (src,))
                self._duplicates.append((src, index, round(score, 1)))
                continue
            index = first_new + len(pending)
            self._by_fingerprint[fp] = index
            self._near.add(str(index), para.text)
            pending.append(_Pending(para.text, venue, year, [src]))
        self._skipped.extend(parsed.skipped)
        return pending

    def forget_seen(self) -> None:
        """Drop what was kept to match later lists against (a converter of one list, once it
        was matched: its memory goes before the abstracts are generated)."""
        from .matching import NearIndex

        self._near = NearIndex()
        self._by_fingerprint = {}

    def generate_matched(self, pending: list[_Pending], *, batch: int = 250) -> Iterator[list[Record]]:
        """The second half of :meth:`iter_text`: the new abstracts' records, ``batch`` at a time
        (given :attr:`workers`, the abstracts are handed to them now, see :func:`generate_iter`)."""
        abstracts = [p.abstract for p in pending]
        memo = self.memo if self._generator is None else None  # the memo knows the built-in generator only
        known: dict[int, tuple] = memo.lookup(abstracts) if memo is not None else {}  # type: ignore[attr-defined]
        todo = [a for i, a in enumerate(abstracts) if i not in known] if known else abstracts
        self.to_generate = len(todo)
        fields = generate_iter(todo, self._tagger, self.config.max_tags, processes=self.processes, progress=self.progress, workers=self.workers,
            generator=self._generator,
        )
        if memo is not None:
            fields = _remembered(abstracts, known, fields, memo)
        return self._keyed(pending, fields, batch)

    def _keyed(self, pending: list[_Pending], fields: Iterator, batch: int) -> Iterator[list[Record]]:
        """The records of ``pending`` from their generated ``fields``, keyed in order, ``batch`` at a time."""
        done: list[Record] = []
        for p, (name, title, tags, error, provenance) in zip(pending, fields):
            if error:
                src = p.sources[0]
                self._warnings.append(
                    f"{src.file}:{src.line}: could not generate a name and title ({error[:200]}); "
                    f"used the abstract's first words"
                )
            record = self._record(p, name, title, tags, None if error else provenance)
            self._records.append(record)
            done.append(record)
            if len(done) >= batch:
                yield done
                done = []
        if done:
            yield done

    def _record(self, p: _Pending, name: str | None, title: str, tags: tuple[str, ...], provenance: str | None = None) -> Record:
        from .keys import KeyParts, make_key, unique_key

        key = unique_key(make_key(self.config.key_pattern, KeyParts(name=name, title=title, venue=p.venue, year=p.year)), self.taken)
        self.taken.add(key)
        generated = {"key", "title", "tags"} | ({"shorttitle"} if name else set())
        return Record(
            key=key,
            title=title,
            abstract=p.abstract,
            venue=p.venue,
            year=p.year,
            shorttitle=name,
            tags=tags,
            generated=frozenset(generated),
            sources=tuple(p.sources),
            # a plugin's provenance is kept with the paper (the built-in's is the README's account)
            fields=((PROVENANCE_FIELD, provenance),) if provenance and provenance != BUILTIN else (),
        )

    def result(self) -> ConvertResult:
        duplicates = tuple(
            Duplicate(source=src, key=self._records[i].key, similarity=score, exact=score >= 100.0)
            for src, i, score in self._duplicates
        )
        return ConvertResult(tuple(self._records), tuple(self._skipped), duplicates, tuple(self._warnings))
