"""What kind of thing a name names, read where the abstract introduces it (convert/kinds.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from readinglist.convert.kinds import FAMILIES, KIND_OF, contradicts, name_kind
from readinglist.convert.titles import make_title

KIND_WORDS = sorted(KIND_OF)
NAME = st.from_regex(r"[A-Z][A-Za-z]{1,6}[A-Z0-9][A-Za-z0-9\-]{0,4}", fullmatch=True)


@given(NAME, st.sampled_from(KIND_WORDS))
def test_a_name_spelled_out_before_its_kind_noun_is_of_that_kind(name, kind):
    """"the Linguistically Distinct Sentence Pairs (LDSP-10) dataset": the kind noun after the
    parenthesis is what the name names, as after a bare name ("the VESPER benchmark")."""
    plain = f"Prior work is limited. We introduce the Long Spelled Out ({name}) {kind}, which isolates ten features."
    assert name_kind(plain, name) == KIND_OF[kind]
    bare = f"Prior work is limited. We introduce the {name} {kind}, which isolates ten features."
    assert name_kind(bare, name) == KIND_OF[kind]


@given(NAME, st.sampled_from(KIND_WORDS))
def test_a_spelled_out_name_with_an_appositive_is_of_the_appositive_kind(name, kind):
    """"the Judge of Edit-Level Validity (JELV), an automated framework ...": the appositive after
    the closing parenthesis says what it is."""
    plain = f"We introduce the Judge of Long Names ({name}), an automated {kind} to validate edits."
    assert name_kind(plain, name) == KIND_OF[kind]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_kind_noun_of_another_clause_does_not_define_the_name(family):
    """"Using our proposed dataset as benchmark, JELV offers ...": a kind noun without an article
    before the name is what JELV is used with, not what it is."""
    kind = FAMILIES[family].split()[0]
    plain = f"We study edits. Using our human-annotated data as {kind}, JELV offers two implementations."
    assert name_kind(plain, "JELV") is None
    defined = f"We study edits. We release a new {kind}, JELV, with two implementations."
    assert name_kind(defined, "JELV") == family


def test_a_dataset_is_never_titled_as_models():
    """A name introduced as a dataset ("the ... (LDSP-10) dataset") never leads a title calling
    it models, even when the abstract's central phrase is about models."""
    plain = (
        "Understanding the inner workings of neural embeddings in language models remains a challenge. "
        "We introduce the Linguistically Distinct Sentence Pairs (LDSP-10) dataset, which isolates ten key "
        "linguistic features. Using this dataset, we analyze optimized language models for neural embeddings "
        "and find dimensions that encode each feature in optimized language models."
    )
    from readinglist.convert.titles.text import head_noun

    title = make_title(plain, plain, "LDSP-10")
    assert name_kind(plain, "LDSP-10") == "data"
    assert not contradicts(head_noun(title.split(": ", 1)[1].split()), "data"), title
