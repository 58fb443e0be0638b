"""The title stage's hand-set constants, in one place: lengths and budgets, the word lists the
rules cut and check phrases with, and the numbers of the learned choice (each says where it was
set). Everything learned from the training corpus is in ``convert/data/`` instead.
"""

from __future__ import annotations

MAX_WORDS = 15
MAX_CHARS = 400  # a description is looked for in this much text after its cue
FALLBACK_TITLE = "Untitled abstract"
ANAPHORA = frozenset("this these those such it its them both their they the-above former latter".split())
# Where a long phrase may be cut: clause starters first, then prepositions.
CUT_CLAUSE = frozenset("that which whose where while whereas by to using via through so thereby".split())
CUT_PREP = frozenset("for with in on of from under over across into without at as between among beyond".split())
CUT_ANY = CUT_CLAUSE | CUT_PREP
FILLER_WORDS = ("simple", "effective", "novel", "new", "general", "generic", "first")  # one is in every _FILLER match
HOW_WORDS = ("how", "whether", "why", "when")
# The gerund a tier-2 title starts with ("We extend X to Y" -> "Extending X to Y").
GERUNDS = {
    "extend": "extending", "generalize": "generalizing", "generalise": "generalising", "adapt": "adapting",
    "apply": "applying", "re-evaluate": "re-evaluating", "reevaluate": "re-evaluating", "evaluate": "evaluating",
    "benchmark": "benchmarking", "collect": "collecting", "compile": "compiling", "audit": "auditing",
    "quantify": "quantifying", "measure": "measuring", "probe": "probing",
}
# Every match of a _VERB_CUE tier starts with one of these (lowercased; see lexicon.finditer_at).
CUE_STARTS = {0: ("we ", "this ", "our ", "by "), 1: ("we ", "this "), 2: ("we ",)}
# Adverbs allowed between "we" and a learned contribution verb ("we thus define ..."), as
# convert/train_contribution_cues.py counted them.
CUE_ADVERBS = ("first", "further", "also", "then", "here", "now", "thus", "therefore", "additionally", "systematically",
               "formally", "carefully", "empirically", "theoretically", "instead")
KINDS = (
    r"benchmark|dataset|data set|corpus|framework|model|method|algorithm|suite|library|toolkit|system"
    r"|architecture|approach|optimi[sz]er|agent|platform|environment|pipeline|family"
)
NOT_CONTENT = frozenset("a an the our two three four five six several some many".split())
KEEP_ACRONYMS = frozenset(
    "AI ML NLP RL LLM LM VLM MLLM CNN GNN RNN GPU QA VQA RAG ICL MoE KL SGD MLP API".split()
)
NOT_GERUND = frozenset("is was has does its this thus plus us".split())
NAMING_VERBS = frozenset("call term name dub".split())  # "we call it X": what follows is a name
STOP_BEFORE_NAME = frozenset(
    "we propose introduce present develop with called termed named dubbed namely this our a an the".split()
) | NAMING_VERBS
#: The verbs of "we <verb> X" that say the authors made X (each pattern adds its own few).
MAKE_VERBS = "propose|introduce|present|develop|design|build|construct|create|devise|craft"
RELATIVE = frozenset("that which where whose who whereby".split())
PRONOUNS = frozenset("it its they them their this these those he she we our".split())
CAUSE_HEADS = frozenset("cause causes mechanism mechanisms source sources origin origins driver drivers".split())
ANALYTIC_HEADS = frozenset(
    """account accounts view views theory theories analysis analyses explanation explanations perspective
    perspectives characterization characterisation understanding investigation examination picture lens""".split()
)
# A part of a method, not what a described kind is for ("a framework for preference adapter")
COMPONENT_HEADS = frozenset(
    """representation representations adapter adapters module modules encoder encoders decoder decoders layer layers
    space spaces context mechanism component components block blocks head heads embedding embeddings loss""".split()
)
NOT_FOR_HEADS = ANALYTIC_HEADS | CAUSE_HEADS  # a phrase with such a head is of something, not for it
MEANS = frozenset("by via through".split())
# Heads of a "for" phrase that a defence is against, not for: "score-based priors for adversarial
# attacks" reads as an attack paper when the abstract defends (DEFENCE_CUE) against them
THREAT_HEADS = frozenset(
    """attack attacks perturbation perturbations threat threats corruption corruptions deepfake deepfakes
    backdoor backdoors poisoning jailbreak jailbreaks adversaries""".split()
)
# said of their own work by the authors of an attack
ATTACK_CUE = (r"\b(?:(?:novel|new|our|proposed|first|stealthy|effective)\s+(?:(?!(?:for|of|to|on|against)\b)[\w-]+\s+){0,3}?"
              r"(?:attacks?|backdoor\w*)|attack (?:performance|success))\b")
DEFENCE_CUE = r"\b(?:defen[cs]es?|defend\w*|robust\w*|resist\w*|mitigat\w*|protect\w*|safeguard\w*|immuni[sz]\w*|counter\w*|purif\w*)\b"
NOT_TOPIC_START = frozenset(
    """we our it its this these there here however in to for since while although despite when as because
    which that with given most many some several recent existing current prior such each their they one
    unlike though whereas""".split()
)
NOT_IN_TOPIC = frozenset("that which who is are was were be has have can will not but we our it".split())
SUBORDINATE = frozenset("since while although though as because despite given with when whereas unlike".split())
#: A word at least this many training abstracts use (the title-word model's document counts)
#: is a common word: a run of such words is a term, written in lowercase in a sentence-case title.
COMMON_DF = 50
# A finite verb makes a title a clause ("X is crucial for ..."); as the evaluator counts them.
FINITE = frozenset("is are was were can has have does do will may might could should would".split())
# Verbs of abstracts' sentences that make a phrase a clause when it runs on into them
# ("theories of double descent explain"); a question clause ("How X shapes Y") may have them.
CLAUSE_VERBS = frozenset(
    """remains remain depends depend explains explain involves involve enables enable relies rely arises
    arise requires require suffers suffer shows aims promises offers leads yields""".split()
)
QUESTION_WORDS = frozenset("how why whether what which when".split())
# Words that start a phrase only where a clause was cut before them, what they said of left
# behind ("SDS: given incomplete point cloud", "for dubbed contrastive learning"): dropped
CUT_STARTS = frozenset("given called named termed dubbed".split())
RULE_MARGIN = 0.1  # a rule-made title keeps its place unless a phrase scores clearly better
# A contribution kept against a background phrase (:func:`.rules._contribution_kept`) of at most
# this many words: longer ones ran on into their clause ("... unifying 466,525 Reddit posts, ...").
# Set by eye on the stop-43 dev changes; read blind in pairs: gen false 26.2% -> 4.9%.
KEPT_MAX_WORDS = 10
#: A word of "<purpose>" in fewer than this many of the 30,000 training abstracts (the title-word
#: model's document counts) shows that the abstract says "<purpose> ... for <made>": "model",
#: "learning", "data" (in 10,000-20,000 of them) precede any "for".
REVERSE_MAX_DF = 3000
TOPIC_JOIN_MAX = 11
# The choice by expected ROUGE (see _by_expected_rouge); the numbers were set on train rows
# 50,000-51,499 (not used to learn any weight), then checked on dev.jsonl.
CHOICE_PHRASES = 5  # the abstract's phrases (by expected ROUGE alone) weighed alone and joined to the topic
PAIR_PHRASES = 8  # the best phrases, and the best of the opening sentences, weighed as "<phrase> for <opening phrase>"
OPENING_SENTENCES = 2  # where the task or domain is said
PAIR_MAX = 13  # words of such a pair at most
# The choice weighs the probability that a title does no worse than the abstract's opening words
# (as a summary of the paper: the real title's words) plus CHOICE_WEIGHT times its expected
# ROUGE-1; 2.0 was set on train rows 40,000-42,999 (not used to learn any weight); 1.0 since the
# pairs' first phrase comes from the authors' own sentences (candidates.py): on train rows
# 50,000-52,999 R1 0.436 and 11.5% worse than LEAD (1.25: 0.436, 11.8%; 2.0 and pairs from any
# sentence: 0.440, 11.6%), on dev.jsonl 0.421, 11.5% (2.0 with the own-sentence pairs: 0.424, 12.3%)
# 0.75 since pairs never put a word real titles seldom head a "for" phrase with after "for" and the
# stated margin below (dev.jsonl: 1.0 gives R1 0.4193 and 12.2% worse than LEAD, 0.75 0.4186 and 11.9%,
# 0.9 0.4190 and 12.0%; with CROSS_PENALTY 0.02: 0.75 0.4185 and 11.8%, 0.9 0.4197 and 12.2%)
CHOICE_WEIGHT = 0.75
# taken from the expected ROUGE-1 of a composed "<a> for <b>" (a and b from different sentences,
# joined by us): the readers' commonest false title, so it must beat a phrase or a pair the abstract
# says itself ("<a> designed for <b>") clearly. dev.jsonl: 0 R1 0.4190, 11.8% worse than LEAD;
# 0.02 0.4185, 11.8% (187 titles change: 15 of 30 read were false before, 7 after); 0.04 0.4177, 12.1%.
# Raised to 0.08, and taken from a phrase joined to the topic as well, by paired blind reading: of
# the composed titles readers saw, 23% were judged false against 4% of "<a> for <b>" the abstract says
# itself; the 237 dev titles 0.02 -> 0.08 changes (64 read by 4 readers, old and new against the real
# one): gen false 16.0% -> 9.8% (each reader lower), gen>=real 7.8% -> 5.9%; held-out train rows
# 50,000-52,999 (251 change; two draws of 64, 4 new readers each): false 12.5% -> 12.9% and
# 24.2% -> 16.4%, gen>=real 13.7% -> 10.9% and 10.9% -> 14.1%; all three pooled: false 17.6% ->
# 13.0%, gen>=real 10.8% -> 10.3%; a third held-out draw (74 of the titles the final stop-41 code
# changes there, 4 more readers) false 12.8% -> 9.8%, gen>=real 12.8% -> 6.8%: fewer false titles,
# at some cost in preference. Dev R1 0.408 -> 0.407, worse than LEAD 17.1% -> 17.5%; held-out
# R1 0.420 -> 0.417, 16.2% -> 17.0%. 0.15 changes 114 more (R1 0.403, 18.0%), by eye mostly lost tails.
CROSS_PENALTY = 0.08
# taken from the expected ROUGE-1 of a named candidate whose head noun is neither the one of what
# the abstract says the name is nor of its kind family ("AGD, an optimizer that ..." and "AGD:
# stochastic gradient descent"; "transformer" and "model" are one family): of the named titles
# readers saw, 12.0% of those headed otherwise were judged false and 10.7% preferred, against 7.4%
# and 19.1% of those headed as said. Paired blind reading (4 readers each), stop 42, 90 changed
# titles per draw (dev and held-out train rows 50,000-52,999): this form, false 7.5% -> 5.3%,
# gen>=real 13.6% -> 12.2%; a first form without the family match, two draws: false 9.2% -> 5.6%
# and 9.4% -> 7.8%, gen>=real 14.7% -> 12.5% and 11.1% -> 16.4%. Taking it also from the title made
# so far read worse (80 titles: false 13.8% -> 15.9%).
HEAD_PENALTY = 0.08
# taken as well from a composed pair whose first head real titles seldom put before "for"
# (:func:`.relations.means_for`: "higher-quality labels for <task>"). dev.jsonl rows 1,500-2,999
# (worse than LEAD by the first ten words): 0 R1 0.4187, 11.3%; skipping such pairs 0.4134, 13.4%;
# 0.03 0.4182, 11.3%; 0.06 0.4185, 11.4% (148 titles change, with the fragment checks)
NOT_MEANS_PENALTY = 0.06
# added to what a name of three or more capitals stands for ("Scalable Vector Network" of SaVeNet),
# alone or for the topic: the authors' own words for what they made. dev.jsonl: 0 R1 0.4183,
# 0.03 0.4186 (8 titles change, e.g. "CoreFed: agents with data of high quality for federated
# learning" -> "CoreFed: core-stable fairness for federated learning"), 0.06 0.4184, 0.1 0.4185.
# Raised to 0.2 by paired blind reading (4 readers; the 27 dev titles 0.03 -> 0.2 changes, old and new
# against the real one): false 20.4% -> 3.7%, gen>=real 25.0% -> 25.9% ("VICE: variational
# interpretable concept embeddings", "SMMD: smooth maximum mean discrepancy for large language
# models" for "SMMD: numeric tokens for ..."); dev R1 0.4075 -> 0.4087, worse than LEAD 17.1% -> 17.0%
SPELLED_MARGIN = 0.2
# added to the title made so far: its words are a feature of the word model, which estimates
# that title a little high (a phrase scoring up to 0.02 below it still replaces it)
CHOICE_MARGIN = -0.02
# added to a title made so far whose description the abstract says word for word of the name
# ("X, a <description>"): a composed "<a> for <b>" must beat it clearly. Set on dev.jsonl: 0.03
# keeps R1 (0.4182 -> 0.4183, worse than LEAD 12.3% -> 12.5%); 0.06: 0.4178, 12.6%; 0.1: 0.4160, 13.0%
STATED_MARGIN = 0.03
# added to a title made so far in the authors' own words -- what the abstract says the name is,
# its appositive or the phrase naming it ("CONE, a hybrid transformer encoder pre-trained model ...",
# :func:`.described.said_of_name`), or without a name the object of their "we propose ..."
# (:func:`.described.proposed_as_said`) -- and to each candidate saying more of it ("... for
# <task>"): any other candidate must beat both (honest before clever). Set by paired blind reading
# on dev.jsonl (4 readers, the changed titles old and new against the real one): 0 -> 0.1 for names
# (104 titles change) false 17.8% -> 8.2%; without a name 0 -> 0.1 (57 change) 23.1% -> 0.0%, 0.1 ->
# 0.4 (37) 20.3% -> 8.1%; names 0.1 -> 0.4 (43) 12.8% -> 4.7%. dev R1 0.4095 -> 0.4070, worse
# than LEAD 16.1% -> 16.9%; 1.0 changes 23 more, 0.4062, 17.3%, mixed by eye
OWN_MARGIN = 0.4
# a composed "<a> for <b>" (or a topic join) whose order in one sentence of the abstract has a
# learned share (:mod:`.links`) below this runs the other way round. With the prior share of 0.71
# (P named first), "b ... a" needs a word between that leans further. dev.jsonl: 0.15 R1 0.4097,
# 15.93% worse than LEAD (31 titles change from titles8's 0.4097, 15.77%); 0.2 0.4097, 15.90%;
# 0.25 0.4095, 16.03% (43 change; the 12 more read in rows >= 1500 mostly drop a reversed pair);
# 0.3 0.4095, 16.07% (drops on the order alone). Heads at most links.WINDOW = 16 tokens apart
# (retrained): 0.4093, 16.07% (10: 0.4094, 16.07%; 16 catches "b ... are indispensable to a")
REVERSED_BELOW = 0.25
# a modifier and the stem of its opposite: a candidate saying "exact inference" of an abstract that
# says "approximate" more often than "exact" claims what the paper does not (:func:`.relations.opposite_said`)
OPPOSITE_MODIFIERS = {"exact": "approximat", "approximate": "exact", "shorter": "longer", "longer": "shorter"}
BOUND_MARGIN = 1e-7  # far above the rounding of either sum: the bound never drops a candidate that could win
#: Where a comma joins two modifiers of one head ("a massively multilingual, rubric-agnostic
#: model", :func:`.text.clause`): a word ending so is a modifier when the learned lists do not
#: know it ("streamable"; stop 43 added "ical", "-level", "-scale", "-bias", "-all": "a practical,
#: one-size-fits-all method", "a street-level, language-guided framework" had lost their heads);
#: a word of these after the comma starts a clause or a list instead.
MODIFIER_ENDINGS = ("able", "ible", "ive", "ous", "ical", "-driven", "-based", "-aware", "-agnostic", "-free", "-level", "-scale", "-bias", "-all")
#: Endings of nouns that are never verbs ("making model quantization a natural direction": no verb
#: before the article; :func:`.checks.ends_on_a_verb`).
NOUN_ONLY_ENDINGS = ("ization", "isation", "ness", "ity")
NOT_GOING_ON = frozenset("which who whose where when while and or but that including such e.g. i.e. as".split())
#: Participles that show the word after their "to" is a verb ("designed to resist", "able to
#: learn"): a purpose, said in a title as "for" + gerund.
PURPOSE_PARTICIPLES = ("designed", "trained", "used", "able", "built", "developed")
