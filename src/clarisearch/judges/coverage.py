"""Nugget coverage judges: label each gold nugget full / partial / none against an answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from clarisearch import prompts
from clarisearch.judges.matching import numbers_in, term_recall
from clarisearch.llm.base import LLM, DecodingParams
from clarisearch.llm.json_output import complete_json
from clarisearch.schema.results import NuggetVerdict
from clarisearch.schema.views import CoverageView

LABELS = ("full", "partial", "none")


@dataclass
class CoverageOutput:
    verdicts: list[NuggetVerdict] = field(default_factory=list)
    parse_ok: bool = True
    raw: list[str] = field(default_factory=list)
    error: str = ""


class CoverageJudge(Protocol):
    model_id: str

    async def judge(self, view: CoverageView) -> CoverageOutput: ...


def parse_coverage(value: Any, view: CoverageView) -> list[NuggetVerdict]:
    """Validate judge JSON: one valid label for every nugget id (ValueError otherwise)."""
    items = value.get("labels", value.get("nuggets")) if isinstance(value, dict) else value
    if not isinstance(items, list):
        raise ValueError('expected {"labels": [...]}')
    by_id: dict[str, dict[str, Any]] = {}
    for item in items:
        if isinstance(item, dict) and "id" in item:
            by_id[str(item["id"])] = item
    known = {n.id for n in view.nuggets}
    if not known <= by_id.keys() and len(items) == len(view.nuggets) and all(isinstance(i, dict) for i in items):
        by_id = {n.id: item for n, item in zip(view.nuggets, items, strict=True)}  # ids renumbered: use order
    verdicts = []
    for nugget in view.nuggets:
        item = by_id.get(nugget.id)
        if item is None:
            raise ValueError(f"no label for nugget {nugget.id!r}")
        label = str(item.get("label", "")).strip().lower()
        if label not in LABELS:
            raise ValueError(f"nugget {nugget.id!r}: label {label!r} is not full/partial/none")
        verdicts.append(NuggetVerdict(nugget_id=nugget.id, weight=nugget.weight, label=label,  # type: ignore[arg-type]
                                      reason=str(item.get("reason", ""))[:500]))
    return verdicts


class LLMCoverageJudge:
    def __init__(self, llm: LLM, max_reasks: int = 2):
        self.llm = llm
        self.model_id = llm.model_id
        self.max_reasks = max_reasks

    async def judge(self, view: CoverageView) -> CoverageOutput:
        nuggets = "\n".join(f"- id={n.id} (weight {n.weight}): {n.text}" for n in view.nuggets)
        prompt = prompts.render("coverage_judge", question=view.question, answer=view.answer or "(empty)", nuggets=nuggets)
        outcome = await complete_json(self.llm, [{"role": "user", "content": prompt}],
                                      lambda v: parse_coverage(v, view), DecodingParams(temperature=0.0), self.max_reasks)
        return CoverageOutput(outcome.value or [], outcome.parse_ok, outcome.raw_outputs, outcome.error)


class RulesCoverageJudge:
    """Rule-based baseline: content-term recall of the nugget in the answer, numbers must match for full."""

    model_id = "rules"

    def __init__(self, full_at: float = 0.75, partial_at: float = 0.45):
        self.full_at, self.partial_at = full_at, partial_at

    def label(self, nugget_text: str, answer: str) -> tuple[str, str]:
        recall = term_recall(nugget_text, answer)
        wanted = numbers_in(nugget_text)
        have = wanted & numbers_in(answer)
        numbers_ok = have == wanted
        if recall >= self.full_at and numbers_ok:
            return "full", f"term recall {recall:.2f}, numbers ok"
        if recall >= self.partial_at or (wanted and have and recall >= 0.3):
            return "partial", f"term recall {recall:.2f}, numbers {len(have)}/{len(wanted)}"
        return "none", f"term recall {recall:.2f}"

    async def judge(self, view: CoverageView) -> CoverageOutput:
        verdicts = []
        for nugget in view.nuggets:
            label, reason = self.label(nugget.text, view.answer)
            verdicts.append(NuggetVerdict(nugget_id=nugget.id, weight=nugget.weight, label=label, reason=reason))  # type: ignore[arg-type]
        return CoverageOutput(verdicts, True, ["rules"])
