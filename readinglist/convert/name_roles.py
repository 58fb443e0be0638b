"""The role one mention of a candidate name plays in the abstract: features for the name model.

A paper's own name is *defined* ("we propose X", "X, a new ...", "(X), a memory-augmented
transformer", "experiments show that X outperforms ..."); other names are *used*: cited ("X [12]",
"X (Smith et al., 2020)"), compared against ("outperforms X", "compared with X", "than X"), the data
a method is evaluated on ("experiments on X", "on the X dataset", "results on X show"), or a
measure ("the X score", "X metric"). :func:`mention_roles` reads the text right before and right
after one mention and names the roles it sees; :mod:`readinglist.convert.name_model` turns them
into features (``role_*``, and ``role_used_all`` when every mention read is a use), which the
learned models weigh. Pure functions over short windows of text: no scan of the whole abstract.
"""

from __future__ import annotations

import re

# A few list items before the mention: "on CIFAR-10, ImageNet and | X", "than A and | X".
_LIST = r"(?:[\w.+-]+(?:\s*\([^()]{0,30}\))?(?:\s*,\s*|\s+and\s+|\s+or\s+)){0,4}"
_EVAL_BEFORE = re.compile(
    r"\b(?:experiments?|results?|evaluat\w*|tested|tests|benchmark(?:ed|ing|s)?|validat\w*|performance|accuracy"
    r"|achiev\w*|outperform\w*|gains?|improvements?|sota|state-of-the-art|trained|fine-tuned|studies|analys[ie]s)"
    rf"\b[^.;:]{{0,50}}?\b(?:on|across|over)\s+(?:the\s+|several\s+|multiple\s+|four\s+|three\s+|two\s+|five\s+)?"
    rf"(?:(?:challenging|popular|public|standard|widely[- ]used|large-scale|real-world|benchmark|existing)\s+)?{_LIST}$",
    re.IGNORECASE,
)
_DATA_AFTER = re.compile(r"^(?:\s*\([^()]{0,40}\))?(?:\s*(?:-|\s)\s*)(?:data\s?sets?|benchmarks?|corpus|corpora|leaderboard|suite|challenge)\b", re.IGNORECASE)
_USE_PREPOSITION = re.compile(r"\b(?:on|from|using|in|with|of|across|to)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
_COMPARED_BEFORE = re.compile(
    r"\b(?:outperform(?:s|ing|ed)?|surpass(?:es|ing|ed)?|beat(?:s|ing)?|than|compared\s+(?:with|to)|comparison\s+(?:with|to)"
    r"|against|versus|vs\.?|relative\s+to|improv(?:es|ing|ed)\s+(?:up)?on|baselines?(?:\s+(?:such\s+as|including|like))?"
    r"|competitors?(?:\s+such\s+as)?|rivals?)\s+(?:the\s+|prior\s+|existing\s+|previous\s+|strong\s+)?"
    rf"(?:(?:state-of-the-art|sota|popular|competitive|recent)\s+)?(?:(?:methods?|models?|baselines?|approaches)\s+"
    rf"(?:such\s+as|like|including|e\.g\.,?)\s+)?{_LIST}$",
    re.IGNORECASE,
)
_CITED_AFTER = re.compile(
    r"^(?:\s*\[\s*\d[\d,\s\u2013-]*\]|\s*\((?:[^()]{0,60}\bet\s+al\.?,?\s*)?(?:19|20)\d\d[a-z]?\)|\s+et\s+al\b"
    r"|\s*\([A-Z][\w-]+(?:\s+(?:and|&)\s+[A-Z][\w-]+)?,?\s+(?:19|20)\d\d\))"
)
_METRIC_AFTER = re.compile(
    r"^(?:\s*\([^()]{0,40}\))?\s+(?:score|scores|metric|metrics|measure|measures|index|criterion|statistic|distance|divergence)\b",
    re.IGNORECASE,
)
_SHOWS_BEFORE = re.compile(
    r"\b(?:show|shows|showed|shown|demonstrate|demonstrates|demonstrated|confirm|confirms|reveal|reveals|find|verify|verifies|indicate|indicates)"
    r"\s+that\s+(?:the\s+proposed\s+|our\s+|the\s+)?$",
    re.IGNORECASE,
)
# "(MUNKEY), a memory-augmented transformer": the appositive after the parenthesis that holds the name
_PAREN_APPOSITIVE = re.compile(r"^\s*\)\s*(?:,\s*(?:a|an|the|our)\b|\s+is\s+(?:a|an|the)\b|\s*[:\u2014\u2013]\s*(?:a|an|the)\b)")
_CLAUSE_SUBJECT = re.compile(
    r"^(?:\s*\([^()]{1,60}\))?\s+(?:consistently\s+|significantly\s+|also\s+|further\s+)?(?:achieves|attains|outperforms|surpasses|improves"
    r"|reduces|delivers|reaches|yields|matches|enables|provides|sets|establishes|exceeds|beats)\b"
)



def _word_scan(**groups: str) -> re.Pattern:
    """A scan for where a word of one of ``groups`` (each "word|word|...", lowercase, every word
    starting with a letter) starts a word: a named group each; the look-ahead on the first
    letter lets the scan pass over most positions at once."""
    words = "|".join(groups.values()).split("|")
    firsts = "".join(sorted({w[0] for w in words}))
    body = "|".join(f"(?P<{name}>{alternatives})" for name, alternatives in groups.items())
    return re.compile(rf"\b(?=[{firsts}])(?:{body})")


# The lowercase words every match of _EVAL_BEFORE / _COMPARED_BEFORE starts with.
_EVAL_NEEDS = _word_scan(eval="experiment|result|evaluat|test|benchmark|validat|performance|accuracy|achiev|outperform|gain|improvement|sota"
                         "|state-of-the-art|trained|fine-tuned|studies|analys")
_COMPARED_NEEDS = _word_scan(compared="outperform|surpass|beat|than|compar|against|versus|vs|relative|improv|baseline|competitor|rival")
# the prepositions every match of _EVAL_BEFORE holds
_EVAL_PREPOSITIONS = re.compile(r"\b(?=[ao])(?:on|across|over)\s")


def _ends_on(pattern: re.Pattern, tail: str, low: str, starts: re.Pattern) -> bool:
    """``bool(pattern.search(tail))`` for a pattern anchored at the end whose every match starts
    where ``starts`` matches ``low`` (``tail`` lowercased, of the same length): the pattern is
    tried only there, not at every position."""
    if len(low) != len(tail):
        return bool(pattern.search(tail))
    return any(pattern.match(tail, m.start()) for m in starts.finditer(low))


# "area convexity [Smith17]", "[Lee, Kim COLT 19]": a mention inside square brackets is a citation
_OPEN_BRACKET = re.compile(r"\[[^\[\]]{0,60}$")
_CLOSE_BRACKET = re.compile(r"^[^\[\]]{0,30}\]")
# "unlike X", "instead of X", "rather than X", "without X", "the limitations of X": what the paper
# sets itself against (scope of a contrast or negation), never its own contribution
_CONTRAST_BEFORE = re.compile(
    r"\b(?:unlike|instead\s+of|rather\s+than|without|in\s+contrast\s+(?:to|with)|as\s+opposed\s+to|replac(?:e|es|ed|ing)"
    r"|alternatives?\s+to|(?:limitations?|shortcomings?|drawbacks?|weakness(?:es)?|failures?|bottlenecks?)\s+of)"
    rf"\s+(?:the\s+|a\s+|an\s+|existing\s+|prior\s+|previous\s+|standard\s+|conventional\s+)?{_LIST}$",
    re.IGNORECASE,
)
# the words every match of _CONTRAST_BEFORE starts with (after \b); those of the patterns below
_CONTRAST_WORDS = "unlike|instead|rather|without|in\\s+contrast|as\\s+opposed|replac|alternative|limitation|shortcoming|drawback|weakness|failure|bottleneck"
# "the recently proposed X", "employing the pretrained X model", "representations from X", "we
# extend X": a thing someone else made that the paper builds on; the cue ends at most three words
# before the mention, so it is looked for in the last _NEAR characters only
_NEAR = 50
_BUILT_ON_BEFORE = re.compile(
    r"\b(?:(?:recently|previously|originally)\s+(?:proposed|introduced|developed|released)"
    r"|pre-?trained(?:\s+(?:by|with|using))?|off-the-shelf|vanilla|original|well-known|popular|widely[- ]used|open-source|frozen"
    r"|(?:generated|produced|obtained|computed|predicted|annotated|labell?ed|provided|given|trained|made)\s+(?:by|with|using)"
    r"|extend(?:s|ed|ing)?|extension\s+of|variants?\s+of|improvements?\s+(?:of|to|on)|built\s+(?:up)?on|on\s+top\s+of|inspired\s+by"
    r"|derived\s+from|fine-?tun(?:e|es|ed|ing)|employ(?:s|ed|ing)?|adopt(?:s|ed|ing)?"
    r"|(?:data|outputs?|features|embeddings|representations|labels|samples|subsampled|sampled|drawn|collected|extracted|leverag\w*)\s+(?:[\w-]+\s+){0,2}?from)"
    r"\s+(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+){0,2}$",
    re.IGNORECASE,
)
_BUILT_ON_WORDS = (
    r"recently|previously|originally|pre-?trained|off-the|vanilla|original|well-known|popular|widely|open-source|frozen"
    r"|generated|produced|obtained|computed|predicted|annotated|labell?ed|provided|given|trained|made|exten|variant|improvement|built"
    r"|on\s+top|inspired|derived|fine|employ|adopt|data|output|features|embeddings|representations|labels|samples|subsampled|sampled"
    r"|drawn|collected|extracted|leverag"
)
# "Smith et al. (2018) define ... X", "proposed by Lee and Kim as X": credited to other authors
_CREDITED_BEFORE = re.compile(
    r"(?:\b(?:proposed|introduced|developed|released)\s+by\s+[^.;:]{0,40}?|\bet\s+al\.?\s*(?:\(?(?:19|20)\d\d[a-z]?\)?)?[^.;:]{0,30}?)"
    r"\s+(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+){0,2}$",
    re.IGNORECASE,
)
_CREDITED_WORDS = r"proposed|introduced|developed|released|et\s"
# the three patterns' words in one scan of the window, each group one pattern's: no word of one
# starts like a word of another, and no match a pattern can make starts inside a word of this scan
# that is not also made at that word's start ("pre-trained with X" as "trained with X")
_USE_NEEDS = _word_scan(contrast=_CONTRAST_WORDS, built=_BUILT_ON_WORDS, credited=_CREDITED_WORDS)

# "X (XY) was recently proposed as ...", "X has been widely used": someone else's, met earlier
_PRIOR_AFTER = re.compile(
    r"^(?:\s*\([^()]{0,40}\))?,?\s+(?:was|were|has\s+been|have\s+been|is|are)\s+(?:recently\s+|previously\s+|originally\s+|first\s+|widely\s+|commonly\s+)?"
    r"(?:proposed|introduced|developed|released|presented|shown|used|adopted|known|popular|established)\b",
    re.IGNORECASE,
)
# "six methods (A, B, X, C)", "A, X, and C": one item of a list of names, each someone's
# (an item: a whole run of name characters holding a capital, taken at once: no backtracking inside it)
_LIST_BEFORE_ITEMS = re.compile(r"(?:\(|,)\s*(?:(?=[\w.+-]*[A-Z])(?>[\w.+-]+)\s*,\s*)+(?:and\s+|or\s+)?$")
_LIST_AFTER_ITEMS = re.compile(r"^\s*,\s*(?:and\s+|or\s+)?(?=[\w.+-]*[A-Z])(?>[\w.+-]+)\s*(?:,|\)|and\b|or\b)")
# the middle of three ("A, B, and C"): an item and a comma before it, ", and <item>" after it
_LIST_LAST_AFTER = re.compile(r"^\s*,\s*(?:and|or)\s+(?=[\w.+-]*[A-Z])[\w.+-]+")
_ITEM_COMMA_BEFORE = re.compile(r"(?=[\w.+-]*[A-Z])(?>[\w.+-]+)\s*,\s*$")

#: the roles that say the mention is a use of someone else's thing (or a measure), not a definition
USE_ROLES = ("role_eval_object", "role_used_dataset", "role_compared", "role_cited", "role_metric_after",
             "role_bracketed", "role_contrast", "role_built_on", "role_enumerated", "role_prior_after")
#: the roles that say the paper's own thing is meant
OWN_ROLES = ("role_shows_that", "role_paren_appositive", "role_clause_subject")


def mention_roles(before: str, after: str) -> list[str]:
    """The roles of one mention, from the text right ``before`` it (up to 80 characters) and right
    ``after`` it (up to 140): a list of ``role_*`` feature names (see the module docstring)."""
    out = []
    tail = before[-80:]
    low = tail.lower()
    # each pattern that must end where the mention starts is tried only when a word it needs
    # occurs (searching for an end-anchored pattern tries every position of the window)
    if _EVAL_PREPOSITIONS.search(low) and _ends_on(_EVAL_BEFORE, tail, low, _EVAL_NEEDS):
        out.append("role_eval_object")
    if _DATA_AFTER.match(after) and _USE_PREPOSITION.search(tail[-40:]):
        out.append("role_used_dataset")
    if _ends_on(_COMPARED_BEFORE, tail, low, _COMPARED_NEEDS):
        out.append("role_compared")
    if _CITED_AFTER.match(after):
        out.append("role_cited")
    if _METRIC_AFTER.match(after):
        out.append("role_metric_after")
    if "that" in low[-50:] and _SHOWS_BEFORE.search(tail[-50:]):
        out.append("role_shows_that")
    if after[:1] == ")" and _PAREN_APPOSITIVE.match(after):
        out.append("role_paren_appositive")
    if tail.rstrip().endswith(",") and _CLAUSE_SUBJECT.match(after):
        out.append("role_clause_subject")
    if "[" in tail and _OPEN_BRACKET.search(tail) and _CLOSE_BRACKET.match(after):
        out.append("role_bracketed")
    contrast = built_on = False
    if len(low) == len(tail):
        near = len(tail) - _NEAR
        for m in _USE_NEEDS.finditer(low):
            group, at = m.lastgroup, m.start()
            if group == "contrast":
                contrast = contrast or bool(_CONTRAST_BEFORE.match(tail, at))
            elif not built_on:
                # a built-on word ending inside the near window ("pre-trained with" whose "trained
                # with" starts there) is read from the window's start, as a plain search reads it
                built_on = bool((_BUILT_ON_BEFORE.search(tail, max(at, near)) if m.end() > near else None) if group == "built"
                                else _CREDITED_BEFORE.match(tail, at))
    else:
        contrast = bool(_CONTRAST_BEFORE.search(tail))
        built_on = bool(_BUILT_ON_BEFORE.search(tail, max(0, len(tail) - _NEAR)) or _CREDITED_BEFORE.search(tail))
    if contrast:
        out.append("role_contrast")
    if _PRIOR_AFTER.match(after):
        out.append("role_prior_after")
    if built_on:
        out.append("role_built_on")
    if ("," in after[:3] and (_LIST_AFTER_ITEMS.match(after) or (_LIST_LAST_AFTER.match(after) and _ITEM_COMMA_BEFORE.search(tail)))) or (
        "," in tail and tail.rstrip().endswith((",", "and", "or")) and _LIST_BEFORE_ITEMS.search(tail)
    ):
        out.append("role_enumerated")
    return out
