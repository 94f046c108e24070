"""Clarifiers: k questions from the blurred query (batch), or one at a time seeing answers (adaptive)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from clarisearch import prompts
from clarisearch.llm.base import LLM, DecodingParams
from clarisearch.llm.json_output import complete_json
from clarisearch.metrics.question_types import question_types
from clarisearch.schema.views import ClarifierView
from clarisearch.search.text import has_cjk, tokenize


@dataclass
class ClarifyOutput:
    questions: list[str] = field(default_factory=list)
    parse_ok: bool = True
    raw: list[str] = field(default_factory=list)
    error: str = ""


class Clarifier(Protocol):
    async def ask(self, view: ClarifierView, k: int) -> ClarifyOutput: ...

    async def ask_next(self, view: ClarifierView, history: list[tuple[str, str]]) -> ClarifyOutput: ...


def parse_question_list(value: Any, k: int) -> list[str]:
    """A JSON array of >= k non-empty strings (extra ones are dropped); else ValueError."""
    if isinstance(value, dict):
        value = next((v for v in value.values() if isinstance(v, list)), value)
    if not isinstance(value, list) or not all(isinstance(q, str) and q.strip() for q in value):
        raise ValueError("expected a JSON array of non-empty strings")
    if len(value) < k:
        raise ValueError(f"expected {k} question(s), got {len(value)}")
    return [q.strip() for q in value[:k]]


class LLMClarifier:
    def __init__(self, llm: LLM, max_reasks: int = 2, template: str = "clarifier"):
        self.llm = llm
        self.max_reasks = max_reasks
        self.template = template

    async def _ask(self, prompt: str, k: int) -> ClarifyOutput:
        outcome = await complete_json(self.llm, [{"role": "user", "content": prompt}],
                                      lambda v: parse_question_list(v, k), DecodingParams(temperature=0.0),
                                      self.max_reasks)
        return ClarifyOutput(outcome.value or [], outcome.parse_ok, outcome.raw_outputs, outcome.error)

    async def ask(self, view: ClarifierView, k: int) -> ClarifyOutput:
        return await self._ask(prompts.render(self.template, k=k, query=view.blurred_query), k)

    async def ask_next(self, view: ClarifierView, history: list[tuple[str, str]]) -> ClarifyOutput:
        lines = "\n".join(f"Q{i}: {q}\nA{i}: {a}" for i, (q, a) in enumerate(history, 1)) or "(none yet)"
        return await self._ask(prompts.render("clarifier_adaptive", query=view.blurred_query, history=lines), 1)


_SUPERLATIVE = re.compile(r"\b(largest|biggest|best|top|most|highest|lowest|smallest|first|leading|greatest|richest|"
                          r"oldest|fastest|major|main)\b|最大|最高|最多|最好|第一|最早|最快|最强|排名|前几|领先|最",
                          re.IGNORECASE)
_HAS_TIME = re.compile(r"\b(1[5-9]\d{2}|20\d{2})\b|\d{4}年|第.+届")
_HAS_CRITERION = re.compile(r"\b(by|in terms of|measured by)\s+\w+|按|以.+计", re.IGNORECASE)

_TEMPLATES = {
    "definition": ("By which measure or definition do you mean it (for example by population, size, revenue or count)?",
                   "您说的是按什么标准或口径来衡量（例如按人口、面积、收入或数量）？"),
    "time": ("Which year or time period are you asking about?", "您问的是哪一年或哪个时间段？"),
    "entity": ("Which specific one do you mean (its full name)?", "您具体指的是哪一个（全称）？"),
    "scope": ("Which aspect or scope should the answer cover?", "您希望答案涵盖哪个方面或范围？"),
    "region": ("Which country or region are you asking about?", "您问的是哪个国家或地区？"),
}


class RulesClarifier:
    """Rule-based baseline: asks about the dimensions the query visibly leaves open, region last."""

    def plan(self, query: str) -> list[str]:
        applicable = []
        if _SUPERLATIVE.search(query) and not _HAS_CRITERION.search(query):
            applicable.append("definition")
        if not _HAS_TIME.search(query):
            applicable.append("time")
        applicable += ["entity", "scope", "region"]
        rest = [t for t in _TEMPLATES if t not in applicable]
        return list(dict.fromkeys(applicable + rest))

    def _text(self, qtype: str, query: str) -> str:
        english, chinese = _TEMPLATES[qtype]
        return chinese if has_cjk(query) else english

    async def ask(self, view: ClarifierView, k: int) -> ClarifyOutput:
        plan = self.plan(view.blurred_query)[:k]
        questions = [self._text(t, view.blurred_query) for t in plan]
        return ClarifyOutput(questions, True, [f"rules: {plan}"])

    async def ask_next(self, view: ClarifierView, history: list[tuple[str, str]]) -> ClarifyOutput:
        asked = {t for q, _ in history for t in question_types(q)}
        plan = [t for t in self.plan(view.blurred_query) if t not in asked] or self.plan(view.blurred_query)
        return ClarifyOutput([self._text(plan[0], view.blurred_query)], True, [f"rules: next={plan[0]}"])


@dataclass
class GateDecision:
    ask: bool
    reason: str = ""
    parse_ok: bool = True
    raw: list[str] = field(default_factory=list)


class AskGate(Protocol):
    """Ask-or-not policy: should the pipeline spend clarification turns on this query at all?"""

    async def decide(self, view: ClarifierView) -> GateDecision: ...


def parse_gate(value: Any) -> tuple[bool, str]:
    if not isinstance(value, dict) or not isinstance(value.get("ask"), bool):
        raise ValueError('expected {"ask": true|false, "reason": "..."}')
    return value["ask"], str(value.get("reason", ""))


class LLMAskGate:
    def __init__(self, llm: LLM, max_reasks: int = 2):
        self.llm = llm
        self.max_reasks = max_reasks

    async def decide(self, view: ClarifierView) -> GateDecision:
        outcome = await complete_json(self.llm, [{"role": "user", "content": prompts.render("ask_gate", query=view.blurred_query)}],
                                      parse_gate, DecodingParams(temperature=0.0), self.max_reasks)
        if not outcome.parse_ok:  # an unreadable gate falls back to asking (the paper's protocol)
            return GateDecision(True, f"gate output unreadable: {outcome.error}", False, outcome.raw_outputs)
        ask, reason = outcome.value
        return GateDecision(ask, reason, True, outcome.raw_outputs)


_TIME_SENSITIVE = re.compile(r"\b(current|currently|latest|recent|now|today|winner|won|champion|president|prime minister|"
                             r"population|gdp|price|record|ranking|ranked|rate|budget|revenue)\b|现任|最新|目前|冠军|人口|总统|价格|排名",
                             re.IGNORECASE)


class RulesAskGate:
    """Rule-based ask-or-not baseline: ask when a superlative lacks its criterion, when a time-sensitive fact
    lacks a time, or when the query is very short; otherwise search directly."""

    async def decide(self, view: ClarifierView) -> GateDecision:
        query = view.blurred_query
        if _SUPERLATIVE.search(query) and not _HAS_CRITERION.search(query):
            return GateDecision(True, "superlative without a criterion")
        if _TIME_SENSITIVE.search(query) and not _HAS_TIME.search(query):
            return GateDecision(True, "time-sensitive fact without a time")
        if len(tokenize(query)) <= 3:
            return GateDecision(True, "very short query")
        return GateDecision(False, "no open dimension detected")
