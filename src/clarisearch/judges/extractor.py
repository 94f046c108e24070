"""Gold nugget extraction (CTS stage 2): atomic weighted nuggets traceable to evidence ids."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from clarisearch import prompts
from clarisearch.judges.matching import term_recall
from clarisearch.llm.base import LLM, DecodingParams
from clarisearch.llm.json_output import complete_json
from clarisearch.schema.cts import CtsEvidence, CtsGold, Nugget
from clarisearch.search.text import split_sentences


@dataclass
class ExtractionInput:
    query: str
    answer: str
    evidence: list[CtsEvidence]
    pages: dict[str, str] = field(default_factory=dict)  # evidence id -> page text read by the agent


class NuggetExtractor(Protocol):
    async def extract(self, item: ExtractionInput) -> tuple[CtsGold | None, list[str]]:
        """(gold or None on a parse failure, raw outputs)."""
        ...


def gold_from_json(value: Any, item: ExtractionInput) -> CtsGold:
    """Validate extractor JSON; nuggets citing no known evidence id are moved to unsupported_claims."""
    if not isinstance(value, dict) or not isinstance(value.get("nuggets"), list):
        raise ValueError('expected {"nuggets": [...], ...}')
    known = {e.id for e in item.evidence}
    nuggets: list[Nugget] = []
    unsupported = [str(c) for c in value.get("unsupported_claims", []) if str(c).strip()]
    for raw in value["nuggets"]:
        if not isinstance(raw, dict) or not str(raw.get("text", "")).strip():
            raise ValueError("every nugget needs a text")
        ids = [str(i) for i in raw.get("evidence_ids", []) if str(i) in known]
        if not ids:
            unsupported.append(str(raw["text"]))
            continue
        weight = int(raw.get("weight", 1))
        nuggets.append(Nugget(id=f"n{len(nuggets) + 1}", text=str(raw["text"]).strip(), weight=min(3, max(1, weight)),
                              evidence_ids=ids))
    if not nuggets:
        raise ValueError("no nugget cites a known evidence id")
    cited = {i for n in nuggets for i in n.evidence_ids}
    return CtsGold(answer=item.answer, nuggets=nuggets, must_cover=[str(x) for x in value.get("must_cover", [])],
                   missing_evidence=[str(x) for x in value.get("missing_evidence", [])], unsupported_claims=unsupported,
                   evidence=[e for e in item.evidence if e.id in cited])


class LLMNuggetExtractor:
    def __init__(self, llm: LLM, max_reasks: int = 2):
        self.llm = llm
        self.max_reasks = max_reasks

    async def extract(self, item: ExtractionInput) -> tuple[CtsGold | None, list[str]]:
        evidence = "\n".join(f"[{e.id}] {e.title}: {e.snippet}" for e in item.evidence) or "(none)"
        prompt = prompts.render("nugget_extractor", query=item.query, answer=item.answer or "(empty)", evidence=evidence)
        outcome = await complete_json(self.llm, [{"role": "user", "content": prompt}],
                                      lambda v: gold_from_json(v, item), DecodingParams(temperature=0.0), self.max_reasks)
        return (outcome.value if outcome.parse_ok else None), outcome.raw_outputs


class RulesNuggetExtractor:
    """Rule-based baseline: each answer sentence is a nugget, cited to the pages that support it best."""

    def __init__(self, min_support: float = 0.6):
        self.min_support = min_support

    async def extract(self, item: ExtractionInput) -> tuple[CtsGold | None, list[str]]:
        sentences = split_sentences(item.answer)
        nuggets: list[dict[str, Any]] = []
        unsupported = []
        for index, sentence in enumerate(sentences):
            support = sorted(((term_recall(sentence, text), doc_id) for doc_id, text in item.pages.items()), reverse=True)
            ids = [doc_id for score, doc_id in support[:2] if score >= self.min_support]
            if ids:
                nuggets.append({"text": sentence, "weight": 3 if index == 0 else (2 if index < 3 else 1), "evidence_ids": ids})
            else:
                unsupported.append(sentence)
        value = {"nuggets": nuggets, "must_cover": [item.query], "missing_evidence": [] if nuggets else [item.query],
                 "unsupported_claims": unsupported}
        try:
            return gold_from_json(value, item), ["rules"]
        except ValueError:
            return None, ["rules: no supported sentence"]
