"""Generate a readable stand-in title for an abstract that has none.

``make_title(raw, plain, name)`` is a pure function, a pipeline of small stages:

1. **Candidates.** The rule-made title (:mod:`.rules`): with a system name "Name: <what it is>",
   the description taken from the abstract (:mod:`.named`: an appositive such as "CanViT, the
   first task- and policy-agnostic AVFM", a "which ..." clause turned into a gerund, or the
   spelled-out name); without one a noun phrase for the paper's main contribution
   (:mod:`.contribution`: the object of "we propose/introduce/present ..." (tier 0), else "we
   study/formalize/derive ..." (tier 1, or a verb learned to say what a paper does: "we define
   ..."), else "we extend/evaluate/collect ..." as a gerund or an
   artefact), a pointer back to earlier text resolved, a short one joined to the paper's topic
   (:mod:`.topic`) unless the abstract states the reverse relation (:mod:`.relations`, :mod:`.links`); with no
   contribution phrase, the first finding or the first sentence. That title is weighed against
   the abstract's most central noun phrase (:mod:`readinglist.convert.phrases`, a learned score).
   The other candidates (:mod:`.choice`): the abstract's noun phrases alone or joined to the
   topic, and "<phrase> for <phrase of the first two sentences>".
2. **Features** (:mod:`.features`): from the title-word model
   (:mod:`readinglist.convert.title_words`, learned per-word probabilities that the real title
   uses a word), each candidate's expected ROUGE-1 and the probability that it shares no fewer of
   the real title's words than the abstract's first ten words do.
3. **Checks** (:mod:`.checks`): a candidate must be a noun phrase a person would write (no finite
   verb, no This/We/Our start, not the opening words, more than three words, the name neither
   repeated nor called a kind it is not, no verb where a noun belongs).
4. **Choice** (:mod:`.choice`): the passing candidate with the highest probability of not doing
   worse than the opening plus ``CHOICE_WEIGHT`` times its expected ROUGE-1; when the abstract
   says what kind of thing the name is, a pair only when headed by that kind or what it is for
   (:func:`.described.fits_family`); a name titled by the field it works in ("DAVinCI: large
   language models", :func:`.checks.field_for_name`) gets what the abstract says it is instead;
   a phrase said only in the background never replaces what the authors say they propose (the
   rule-made title stays).
5. **Post-edits** (:mod:`.postedits`): a leading verb as -ing, an acronym said once, a relative
   clause as "for" + gerund, a sentence's adverb inside the title dropped ("specifically designed"), Title-Case terms in lowercase, "for <attacks>" as "against <attacks>"
   when the abstract defends against them, a headless opener given its article ("Framework for
   X" -> "A framework for X"; learned: the words real titles start with only after one), a frame
   noun dropped ("Problem of X" -> "X"; learned: the nouns real titles do not start with before
   "of" whose "the <noun> of X" names X), and last
   the authors' sentence words no candidate could replace taken out ("Name: our dataset" -> "Name:
   a dataset", a clause with a finite verb cut when three words are left); every "a" / "an" then
   agrees with the word after it.

The hand-set constants are in :mod:`.constants`, the shared text helpers in :mod:`.text`, sentence
case and acronyms in :mod:`.casing`, the learned title forms in :mod:`.forms`.

Every title: at most :data:`MAX_WORDS` words, clean text (no LaTeX or Markdown), sentence case
after the colon (acronyms and proper words kept), no trailing punctuation, never ends on an
article, preposition or conjunction, never cut inside a word, never empty.
"""

from __future__ import annotations

from .choice import by_expected_rouge
from .constants import MAX_WORDS
from .forms import gerund_starts, not_final, proper_words, words_of_title
from .postedits import (acronym_said_once, against_threat, articles_agree, as_gerund, frame_dropped, headless_opener, relative_as_purpose, sentence_words_out,
                        terms_in_lowercase, without_adverbs)
from .rules import rule_made_title, title_for_tags
from .text import clean, plain_title

__all__ = [
    "make_title", "plain_title", "rule_made_title", "title_for_tags", "MAX_WORDS",
    "words_of_title", "not_final", "proper_words", "gerund_starts",
]


def make_title(raw: str, plain: str, name: str | None) -> str:
    """A readable generated title (see the package docstring for the stages)."""
    text = plain or ""
    if name:
        name = clean(name)
    title = as_gerund(by_expected_rouge(rule_made_title(text, name), text, name), name)
    title = terms_in_lowercase(without_adverbs(relative_as_purpose(acronym_said_once(title, name))), name)
    return articles_agree(sentence_words_out(frame_dropped(headless_opener(against_threat(title, text), name), name), name))
