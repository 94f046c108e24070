"""Clarify-Then-Search instance with its static weighted gold nuggets.

Visibility: the clarifier, rewriter and agent see `blurred_query` only; the user answerer sees
`fused_query` (and one question); judges see `gold`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from clarisearch.schema.base import Record

BlurType = Literal["time", "entity", "scope", "definition", "region", "other"]


class Nugget(Record):
    id: str
    text: str = Field(min_length=1)
    weight: int = Field(ge=1, le=3)
    evidence_ids: list[str] = Field(default_factory=list)


class CtsEvidence(Record):
    id: str
    url: str = ""
    title: str = ""
    snippet: str = ""


class CtsGold(Record):
    answer: str = ""
    nuggets: list[Nugget] = Field(min_length=1)
    must_cover: list[str] = Field(default_factory=list)
    missing_evidence: list[str] = Field(default_factory=list)
    unsupported_claims: list[str] = Field(default_factory=list)
    evidence: list[CtsEvidence] = Field(default_factory=list)

    @property
    def total_weight(self) -> int:
        return sum(n.weight for n in self.nuggets)


class CtsInstance(Record):
    id: str
    language: str = "en"
    fused_query: str = Field(min_length=1, description="user answerer and gold construction only")
    blurred_query: str = Field(min_length=1, description="what the clarifier, rewriter and agent see")
    blur_types: list[str] = Field(default_factory=list)
    gold: CtsGold | None = Field(default=None, description="judges only")
