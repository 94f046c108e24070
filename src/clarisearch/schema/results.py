"""Per-episode results written to results.jsonl: everything a report or the viewer needs."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from clarisearch.schema.base import StrictRecord


class ToolCallRecord(StrictRecord):
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    hits: list[list[dict[str, Any]]] | None = None
    page: dict[str, Any] | None = None
    error: str | None = None


class AgentStep(StrictRecord):
    """One agent LLM call (or rule-based step) and the tool calls it made."""

    output: str = ""
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)


class AgentTrace(StrictRecord):
    query: str = ""
    steps: list[AgentStep] = Field(default_factory=list)
    answer: str = ""
    termination: str = ""
    llm_calls: int = 0
    searches: int = 0
    visits: int = 0


class EpisodeBase(StrictRecord):
    key: str
    protocol: str
    instance_id: str
    status: Literal["ok", "error"] = "ok"
    error_kind: str | None = None
    error: str | None = None
    usage: dict[str, dict[str, float]] = Field(default_factory=dict)
    llm_calls: int = 0
    cache_hits: int = 0
    cost_usd: float = 0.0
    seconds: float = 0.0
    attempt: int = 1


class NuggetVerdict(StrictRecord):
    nugget_id: str
    weight: int
    label: Literal["full", "partial", "none"]
    reason: str = ""


class CtsEpisode(EpisodeBase):
    protocol: str = "cts"
    system: Literal["orig", "gold", "clarify"]
    k: int = 0
    mode: Literal["batch", "adaptive"] = "batch"
    clarifier: str = ""
    language: str = "en"
    asked: bool = True
    gate_reason: str = ""
    gate_raw: list[str] = Field(default_factory=list)
    questions: list[str] = Field(default_factory=list)
    answers: list[str] = Field(default_factory=list)
    question_types: list[list[str]] = Field(default_factory=list)
    clarifier_parse_ok: bool = True
    clarifier_raw: list[str] = Field(default_factory=list)
    rewrite: str | None = None
    rewriter_raw: str = ""
    agent: AgentTrace = Field(default_factory=AgentTrace)
    coverage: list[NuggetVerdict] = Field(default_factory=list)
    judge_parse_ok: bool = True
    judge_raw: list[str] = Field(default_factory=list)
    judge_model: str = ""
    restore_score_100: float | None = None


class DiscoTurn(StrictRecord):
    index: int
    checkpoint_index: int
    checkpoint_id: str
    action: Literal["ask", "answer", "search_only"]
    text: str = ""
    steps: list[AgentStep] = Field(default_factory=list)
    searches: int = 0
    visits: int = 0
    outcome: str = ""
    user_reply: str = ""
    simulator_raw: str = ""
    simulator_parse_ok: bool = True


class CheckpointOutcome(StrictRecord):
    id: str
    type: Literal["ambi", "unambi"]
    ambiguity_type: str | None = None
    reached: bool = False
    advanced: bool = False
    first_decision: Literal["ask", "answer"] | None = None
    searches_before_decision: int = 0
    asks: int = 0
    right_asks: int = 0
    profile: str | None = None


class DiscoEpisode(EpisodeBase):
    protocol: str = "disco"
    setting: str = "neutral"
    ablation: str = "none"
    mode: str = "interactive"
    difficulty: str = ""
    domain: str = ""
    language: str = "en"
    n_checkpoints: int = 0
    turns: list[DiscoTurn] = Field(default_factory=list)
    checkpoints: list[CheckpointOutcome] = Field(default_factory=list)
    final_response: str = ""
    e2e_correct: bool | None = None
    judge_raw: str = ""
    judge_parse_ok: bool = True
    termination: str = ""
    searches: int = 0
    visits: int = 0
    asks: int = 0
