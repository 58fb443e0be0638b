"""Learn three habits of real titles' form: ``python -m readinglist.convert.train_title_forms
[TRAIN.jsonl.gz] [--limit N]``.

Over the real titles of the first ``--limit`` training papers (default 40,000: rows 40,000 on
are kept for setting and checking other numbers):

- **words a title does not end on**: a word found in at least ``MIN_TITLES`` titles that ends
  fewer than ``MAX_RATE`` of them (smoothed: (ends + 0.5) / (titles + 2)) is a modifier waiting
  for its head ("large", "semantic", "end-to-end") or a word cut from its clause ("detecting");
- **verbs a title starts with as a gerund**: a verb (one whose -s form the phrase model learned
  as a verb) whose "-ing" form starts a title, or the part after "Name: ", at least
  ``GERUND_RATIO`` times as often as its plain form does (plus ``GERUND_MIN``): "Solving SDPs
  ...", never "Solve SDPs ...";
- **proper words**: a word that the training *abstracts* write inside a sentence (after a
  lowercase word or a comma, or joined by a hyphen or an en dash to such a word: the "Arnold" of
  "the Kolmogorov-Arnold network", the "Markovian" of "non-Markovian") at least ``PROPER_MIN`` times, with a capital at least
  ``PROPER_SHARE`` of those times ("Gaussian", "Bayesian", "Kurdish", "Wasserstein", "Llama"):
  a sentence-case title keeps its capital, as a person would;
- **words that are not what a title is for**: the head of a "for" phrase of a title (its last
  word before the next preposition, comma or colon: "detection" of "... for object detection in
  video") is a task, a domain or a user; a word found in at least ``FOR_MIN_TITLES`` titles that
  heads fewer than ``FOR_MAX_RATE`` of them (smoothed towards the rate of all title words, with
  ``FOR_PRIOR`` pseudo-titles) is a method, a part or a setting ("approach", "layers", "priors",
  "tool"): "<method> for hidden layers" joins two phrases the wrong way;
- **words the abstracts never end a phrase on**: a word used at least ``USE_MIN`` times in the
  training *abstracts* and followed by punctuation (or the end of the text) in fewer than
  ``USE_MAX_FINAL`` of those uses (smoothed as above) always leads on to more words: a modifier
  ("magnetic", "auto-regressive"), a verb waiting for its object ("consists", "motivates",
  "plays", "capable" of ...) or a preposition; too rare in titles for the first list, it ends
  no title either;
- **words a title seldom puts before "for"**: a word found in at least ``FOR_MIN_TITLES`` titles
  that comes right before "for" in fewer than ``SUBJECT_MAX_RATE`` of them (smoothed as above;
  about the rate of all title words) is seldom a means, a method or an artefact ("data",
  "effects", "behavior", "problems"; "framework" and "filter" often are): "<data> for <task>"
  joined by us is likely a glued pair;
- **words a title starts with only after an article**: a word that starts a title or a subtitle
  after "a", "an" or "the" at least ``ARTICLE_RATIO`` times as often as bare (plus
  ``ARTICLE_MIN``), with the article it takes most ("framework": "a", "role": "the"):
  "Framework for X" is a headless opener, "A framework for X" a noun phrase;
- **words a title does not start with**: a word that starts at least ``OPENER_MIN`` sentences
  of the training *abstracts* but starts titles (or subtitles) at a smoothed rate below
  ``OPENER_MAX_RATE`` of that ("despite", "though", "however", "in", "inspired", "existing"):
  a title starting with one is a sentence's opening clause, not a name for the paper;
- **words titles do not hold**: a word (letters only) in at least ``ABSTRACT_MIN`` training
  abstracts found in titles at a smoothed rate (titles with it / abstracts with it) below
  ``ABSTRACT_ONLY_RATE``: the verbs, adverbs and connectives of sentences ("exceeds",
  "specifically", "recently", "leverages", "paper"): a title holding one is a clause;
- **verbs' -s forms**: a word of letters ending in "s" (not "ss"), used at least ``VERB_USE_MIN``
  times in the training *abstracts*, followed right away by an article or a possessive ("the",
  "a", "its", ...) in at least ``VERB_DET_RATE`` of those uses (smoothed; a plural noun almost
  never is) and found in fewer than ``MIN_TITLES`` titles, fewer than ``VERB_TITLE_RATE`` as often as
  in abstracts (smoothed): "inherits", "supplies", "alters", "exceeds": a title holding one
  after its subject is a clause ("Longest chain inherits merits").
- **frame nouns**: a word w of the training *abstracts*' "the w of X" (X two content words or
  more) in at least ``FRAME_MIN`` abstracts, whose real title holds X's words but not w in at
  least ``FRAME_HELD_RATE`` of them, and which starts titles or subtitles as "(the) w of" at a
  smoothed rate below ``FRAME_START_RATE`` of those abstracts ("problem", "task", "field",
  "domain", "context"): "the problem of X" names X, and a title says X ("Problem of private
  isotonic regression" -> "Private isotonic regression").

:mod:`readinglist.convert.titles` rejects a candidate title ending on the first kind, turns a
title starting with the second kind into its gerund, lowercases no word of the third kind and
never joins a phrase after "for" whose head is of the fourth kind, weighs a composed "<a> for <b>"
whose a is headed by a word of the sixth kind lower, and gives a title starting with a word of the seventh kind
its article, and drops a frame noun and its "of" from a title's start. Pure Python (no training extra needed);
writes ``convert/data/title_forms.json``."""

from __future__ import annotations

import re
import sys
from collections import Counter

from .lexicon import DANGLING
from .models import DATA
from .training import command_line, counting_args, read_rows, write_model

OUT = DATA / "title_forms.json"
MIN_TITLES = 20
MAX_RATE = 0.008
GERUND_RATIO = 2
GERUND_MIN = 3
PROPER_MIN = 20
PROPER_SHARE = 0.9
FOR_MIN_TITLES = 8
FOR_MAX_RATE = 0.01
FOR_PRIOR = 5.0
USE_MIN = 50
USE_MAX_FINAL = 0.01
SUBJECT_MAX_RATE = 0.05
ARTICLE_RATIO = 2
ARTICLE_MIN = 3
OPENER_MIN = 30
OPENER_MAX_RATE = 0.02
ABSTRACT_MIN = 30
ABSTRACT_ONLY_RATE = 0.005
VERB_USE_MIN = 20
VERB_DET_RATE = 0.2
VERB_TITLE_RATE = 0.05
FRAME_MIN = 60
FRAME_HELD_RATE = 0.23
FRAME_START_RATE = 0.01
# what follows a verb's -s form, and almost never a plural noun
_DETERMINERS = frozenset("a an the its their this these our his her each every such".split())
# where a "for" phrase of a title stops: its head is the word before
_FOR_STOP = frozenset("with via using in on from by through under and or of to across at without for as into over beyond towards toward against is are when where how that which vs versus".split())
_FOR_PHRASE = re.compile(r"\bfor\s+([^:;,()?]+)")
_ARTICLES = frozenset("a an the".split())
# the first word of an abstract's sentence (after the text's start or a full stop)
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)([A-Z][A-Za-z'\-]*)")
# a Capitalised or lowercase word after a lowercase word or a comma: inside a sentence; with
# the parts a hyphen or an en dash joins to it ("the Kolmogorov-Arnold network", "a
# German–Bulgarian corpus", "non-Markovian"), each of which counts as such a word
_INSIDE = re.compile(r"(?<=[a-z,] )([A-Za-z][a-z]+(?:[-–][A-Za-z][a-z]+)*)\b")
_JOINS = re.compile(r"[-–]")
# a word of an abstract (as a title's words are read: lowercase, hyphenated words whole) and
# whether punctuation or the end of the text follows it
_USE = re.compile(r"([a-z0-9][a-z0-9'\-]*)(\s*(?:[.,;:)!?\]]|$))?")
# "the problem of private isotonic regression": a noun, and the two words after its "of"
_THE_W_OF = re.compile(r"\bthe ([a-z]+) of ([a-z][\w-]* [a-z][\w-]*)")
# a title or subtitle that starts "(On) (the) <w> of"
_W_OF_START = re.compile(r"(?:on |towards? )?(?:the |a |an )?([a-z]+) of\b")


def main(argv: list[str] | None = None) -> int:
    from .phrases import learned_verbs
    from .titles import words_of_title
    from .titles.text import gerund_of

    a, path, sha = counting_args(__doc__, OUT, argv)
    ends: Counter = Counter()
    titles: Counter = Counter()
    starts: Counter = Counter()
    capital: Counter = Counter()
    lower: Counter = Counter()
    for_heads: Counter = Counter()
    uses: Counter = Counter()
    final_uses: Counter = Counter()
    before_for: Counter = Counter()
    bare_starts: Counter = Counter()
    article_starts: dict[str, Counter] = {}
    sentence_starts: Counter = Counter()
    in_abstracts: Counter = Counter()
    determined: Counter = Counter()
    frame_uses: Counter = Counter()
    frame_held: Counter = Counter()
    frame_starts: Counter = Counter()
    papers = 0
    for row in read_rows(path, a.limit):
        before = None  # the word before, when no punctuation came between
        for m in _USE.finditer((row.get("abstract") or "").lower()):
            uses[m[1]] += 1
            if m[2] is not None:
                final_uses[m[1]] += 1
            if before and m[1] in _DETERMINERS:
                determined[before] += 1
            before = m[1] if m[2] is None else None
        sentence_starts.update(m[1].lower() for m in _SENTENCE_START.finditer(row.get("abstract") or ""))
        in_abstracts.update({w for w in words_of_title(row.get("abstract") or "") if w.isalpha()})
        for joined in _INSIDE.findall(row.get("abstract") or ""):
            for word in _JOINS.split(joined):
                if word[0].isupper():
                    capital[word.lower()] += 1
                else:
                    lower[word] += 1
        words = words_of_title(row["title"])
        if not words:
            continue
        papers += 1
        _count_frames(row, words, frame_uses, frame_held, frame_starts)
        ends[words[-1]] += 1
        titles.update(set(words))
        for_heads.update(_for_heads(row["title"]))
        starts[words[0]] += 1
        _name, colon, subtitle = row["title"].partition(": ")
        after = words_of_title(subtitle) if colon else []
        if after:
            starts[after[0]] += 1
        before_for.update({w for w, nxt in zip(words, words[1:]) if nxt == "for"})
        for part in (words, after):
            if len(part) > 1 and part[0] in _ARTICLES:
                article_starts.setdefault(part[1], Counter())["the" if part[0] == "the" else "a"] += 1
            elif part:
                bare_starts[part[0]] += 1
    never = sorted(w for w, n in titles.items() if n >= MIN_TITLES and (ends[w] + 0.5) / (n + 2) < MAX_RATE)
    gerunds = {}
    for verb in sorted(learned_verbs()):
        plain = verb[:-2] if verb.endswith(("sses", "shes", "ches", "xes")) else verb[:-1]  # "analyzes": "analyze"
        ing = gerund_of(verb)
        if ing and starts[ing] >= GERUND_RATIO * starts[plain] + GERUND_MIN:
            gerunds[plain] = ing
    proper = sorted(w for w, n in capital.items() if n + lower[w] >= PROPER_MIN and n / (n + lower[w]) >= PROPER_SHARE)
    prior = sum(for_heads.values()) / max(1, sum(titles.values()))
    not_for = sorted(w for w, n in titles.items() if n >= FOR_MIN_TITLES
                     and (for_heads[w] + FOR_PRIOR * prior) / (n + FOR_PRIOR) < FOR_MAX_RATE)
    subject_prior = sum(before_for.values()) / max(1, sum(titles.values()))
    not_subject = sorted(w for w, n in titles.items() if n >= FOR_MIN_TITLES
                         and (before_for[w] + FOR_PRIOR * subject_prior) / (n + FOR_PRIOR) < SUBJECT_MAX_RATE)
    article = {w: c.most_common(1)[0][0] for w, c in sorted(article_starts.items())
               if c.total() >= ARTICLE_RATIO * bare_starts[w] + ARTICLE_MIN}
    not_initial = sorted(w for w, n in sentence_starts.items() if n >= OPENER_MIN
                         and (starts[w] + 0.5) / (n + 2) < OPENER_MAX_RATE)
    abstract_only = sorted(w for w, n in in_abstracts.items() if n >= ABSTRACT_MIN
                           and (titles[w] + 0.5) / (n + 2) < ABSTRACT_ONLY_RATE)
    verb_forms = sorted(w for w, n in uses.items() if n >= VERB_USE_MIN and w.isalpha() and w.endswith("s")
                        and not w.endswith("ss") and (determined[w] + 0.5) / (n + 2) >= VERB_DET_RATE
                        and titles[w] < MIN_TITLES and (titles[w] + 0.5) / (in_abstracts[w] + 2) < VERB_TITLE_RATE)
    lead_on = sorted(w for w, n in uses.items() if n >= USE_MIN and (final_uses[w] + 0.5) / (n + 2) < USE_MAX_FINAL)
    frames = sorted(w for w, n in frame_uses.items() if n >= FRAME_MIN and frame_held[w] / n >= FRAME_HELD_RATE
                    and (frame_starts[w] + 0.5) / (n + 2) < FRAME_START_RATE)
    print(f"{papers} titles; {len(frames)} frame nouns: {', '.join(frames)}", file=sys.stderr)
    print(f"{papers} titles; {len(not_for)} words seldom head a 'for' phrase; {len(lead_on)} words seldom end an abstract's phrase",
          file=sys.stderr)
    print(f"{papers} titles; {len(not_subject)} words seldom come before 'for'; {len(article)} words start titles after an article",
          file=sys.stderr)
    print(f"{papers} titles; {len(never)} words end fewer than {MAX_RATE:.1%} of the titles they are in; "
          f"{len(gerunds)} verbs start titles as gerunds; "
          f"{len(proper)} proper words; {len(not_initial)} sentence openers titles do not start with; "
          f"{len(abstract_only)} words titles do not hold; {len(verb_forms)} verbs' -s forms", file=sys.stderr)
    model = {
        "about": "readinglist: habits of real titles' form. not_final: words found in >= "
        f"{MIN_TITLES} titles, ending < {MAX_RATE} of them (smoothed); gerund_start: plain verb -> its -ing "
        f"form, which starts titles (or subtitles) >= {GERUND_RATIO}x as often + {GERUND_MIN}; proper: words "
        f"the abstracts write inside a sentence >= {PROPER_MIN} times, capitalised >= {PROPER_SHARE} of them; "
        f"not_for_object: words in >= {FOR_MIN_TITLES} titles heading a 'for' phrase in < {FOR_MAX_RATE} of them "
        f"(smoothed to the rate of all title words with {FOR_PRIOR} pseudo-titles); not_phrase_final: words used >= "
        f"{USE_MIN} times in the abstracts, followed by punctuation in < {USE_MAX_FINAL} of those uses (smoothed); "
        f"not_for_subject: words in >= {FOR_MIN_TITLES} titles right before 'for' in < {SUBJECT_MAX_RATE} of them "
        f"(smoothed as not_for_object); article_start: word -> the article ('a' or 'the') it starts a title or "
        f"subtitle after >= {ARTICLE_RATIO}x as often as bare + {ARTICLE_MIN}; not_initial: words starting >= "
        f"{OPENER_MIN} abstract sentences, starting titles or subtitles < {OPENER_MAX_RATE} as often (smoothed); "
        f"abstract_only: words in >= {ABSTRACT_MIN} abstracts, in titles < {ABSTRACT_ONLY_RATE} as often (smoothed); "
        f"verb_form: -s words used >= {VERB_USE_MIN} times in the abstracts, before an article or a possessive in >= "
        f"{VERB_DET_RATE} of them (smoothed), in < {MIN_TITLES} titles and < {VERB_TITLE_RATE} as often as in abstracts; "
        f"frame: words w of the abstracts' 'the w of X' (X >= 2 content words) in >= {FRAME_MIN} abstracts, whose "
        f"title holds X but not w in >= {FRAME_HELD_RATE} of them, starting titles or subtitles as '(the) w of' in "
        f"< {FRAME_START_RATE} of them (smoothed)",
        "command": command_line("train_title_forms", a),
        "corpus": path.name,
        "corpus_sha256": sha,
        "papers": papers,
        "not_final": never,
        "gerund_start": gerunds,
        "proper": proper,
        "not_for_object": not_for,
        "not_phrase_final": lead_on,
        "not_for_subject": not_subject,
        "article_start": article,
        "not_initial": not_initial,
        "abstract_only": abstract_only,
        "verb_form": verb_forms,
        "frame": frames,
    }
    write_model(a.out, model)
    return 0


def _count_frames(row: dict, words: list[str], uses: Counter, held: Counter, starts: Counter) -> None:
    """Count, for each noun w of the abstract's "the w of X", whether the title holds X's content
    words but not w, and whether the title or its subtitle starts "(the) w of" (see the module
    docstring)."""
    title = row["title"].lower()
    for part in {title, title.split(": ", 1)[-1]}:
        m = _W_OF_START.match(part)
        if m:
            starts[m.group(1)] += 1
    seen = set()
    held_words = set(words)
    for w, x in _THE_W_OF.findall((row.get("abstract") or "").lower()):
        content = [y for y in x.split() if y not in DANGLING]
        if w in seen or len(content) < 2:
            continue
        seen.add(w)
        uses[w] += 1
        if w not in held_words and all(y in held_words for y in content):
            held[w] += 1


def _for_heads(title: str) -> list[str]:
    """The head of each "for" phrase of a title (see the module docstring)."""
    from .titles import words_of_title

    heads = []
    for m in _FOR_PHRASE.finditer(title.lower()):
        head = ""
        for w in words_of_title(m.group(1)):
            if w in _FOR_STOP and head:
                break
            if w not in _FOR_STOP and w not in _ARTICLES:
                head = w
        if head:
            heads.append(head)
    return heads


if __name__ == "__main__":
    raise SystemExit(main())
