"""Answer-equivalence judges (DiscoBench E2E accuracy): same answer, surface form ignored."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from clarisearch import prompts
from clarisearch.judges.matching import answer_matches
from clarisearch.llm.base import LLM, DecodingParams
from clarisearch.llm.json_output import complete_json
from clarisearch.schema.views import EquivalenceView


@dataclass
class EquivalenceOutput:
    equivalent: bool | None
    parse_ok: bool
    raw: str


class EquivalenceJudge(Protocol):
    async def judge(self, view: EquivalenceView) -> EquivalenceOutput: ...


def parse_equivalence(value: Any) -> bool:
    if not isinstance(value, dict) or "equivalent" not in value:
        raise ValueError('expected {"equivalent": true|false}')
    verdict = value["equivalent"]
    if isinstance(verdict, str) and verdict.strip().lower() in ("true", "false", "yes", "no"):
        return verdict.strip().lower() in ("true", "yes")
    if not isinstance(verdict, bool):
        raise ValueError("equivalent must be true or false")
    return verdict


class LLMEquivalenceJudge:
    def __init__(self, llm: LLM, max_reasks: int = 2):
        self.llm = llm
        self.max_reasks = max_reasks

    async def judge(self, view: EquivalenceView) -> EquivalenceOutput:
        prompt = prompts.render("equivalence_judge", question=view.question, gold=view.gold,
                                aliases=", ".join(view.aliases) or "(none)", candidate=view.candidate or "(no answer)")
        outcome = await complete_json(self.llm, [{"role": "user", "content": prompt}], parse_equivalence,
                                      DecodingParams(temperature=0.0), self.max_reasks)
        return EquivalenceOutput(outcome.value if outcome.parse_ok else None, outcome.parse_ok,
                                 "\n---\n".join(outcome.raw_outputs))


class RulesEquivalenceJudge:
    """Rule-based baseline: normalized match or containment of a gold form (numbers compared as values)."""

    async def judge(self, view: EquivalenceView) -> EquivalenceOutput:
        ok = answer_matches(view.candidate, [view.gold, *view.aliases])
        return EquivalenceOutput(ok, True, f"rules: {'match' if ok else 'no match'}")
