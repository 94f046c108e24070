"""The bundled demo sets meet what the protocols need from them."""

from __future__ import annotations

from collections import Counter

from clarisearch.schema.cts import CtsInstance
from clarisearch.schema.disco import DiscoSample
from clarisearch.schema.loader import load_records
from clarisearch.search.corpus import load_corpus
from clarisearch.search.factory import demo_path, open_search


def test_demo_corpus_is_a_few_hundred_documents() -> None:
    docs = load_corpus(demo_path("corpus"))
    assert len(docs) >= 200 and all(d.text and d.title for d in docs)


def test_disco_demo_covers_types_and_difficulties_with_findable_candidates() -> None:
    samples = load_records(demo_path("disco.jsonl"), DiscoSample)
    titles = {d.title for d in load_corpus(demo_path("corpus"))}
    assert len(samples) >= 20
    assert set(Counter(s.difficulty for s in samples)) == {"easy", "medium", "hard"}
    types = Counter(cp.ambiguity_type for s in samples for cp in s.checkpoints if cp.is_ambiguous)
    assert set(types) == {"entity", "version", "criteria", "factual_inaccuracy"}
    search = open_search("demo")
    for sample in samples:
        for cp in sample.checkpoints:
            if cp.is_ambiguous:
                assert cp.answer in cp.candidates and set(cp.candidates) <= titles, (sample.id, cp.id)
                assert cp.answer.lower() not in cp.clue_if_asked.lower()
                for candidate in cp.candidates:  # every candidate can be found by searching its name
                    assert candidate in [h.title for h in search.search_one(candidate, 10)], candidate


def test_cts_demo_has_balanced_blurs_and_traceable_gold() -> None:
    instances = load_records(demo_path("cts.jsonl"), CtsInstance)
    ids = {d.id for d in load_corpus(demo_path("corpus"))}
    assert len(instances) >= 30
    blur = Counter(t for i in instances for t in i.blur_types)
    assert all(blur[t] >= 5 for t in ("time", "entity", "scope", "definition"))
    assert blur["region"] <= 0.25 * len(instances)
    for inst in instances:
        assert inst.gold is not None and inst.fused_query != inst.blurred_query
        for nugget in inst.gold.nuggets:
            assert nugget.evidence_ids and set(nugget.evidence_ids) <= ids, (inst.id, nugget.id)
