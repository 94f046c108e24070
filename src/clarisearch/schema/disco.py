"""DiscoBench sample: a question decomposed into ordered checkpoints.

Field descriptions say which component may see each field (the tau2-bench convention):
the agent sees only `question`; the user simulator sees one checkpoint at a time;
judges see the gold answers.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field, field_validator, model_validator

from clarisearch.schema.base import Record


class AmbiguityType(StrEnum):
    ENTITY = "entity"
    VERSION = "version"
    CRITERIA = "criteria"
    FACTUAL_INACCURACY = "factual_inaccuracy"


class Checkpoint(Record):
    """One retrieval sub-goal. Visible to the user simulator only while it is the current one."""

    id: str
    sub_question: str = Field(description="simulator only")
    type: Literal["unambi", "ambi"] = Field(description="simulator and metrics only")
    ambiguity_type: AmbiguityType | None = None
    answer: str = Field(min_length=1, description="simulator and judge only")
    answer_aliases: list[str] = Field(default_factory=list)
    candidates: list[str] = Field(default_factory=list, description="the confusable options (ambi)")
    ambiguity: str = Field(default="", description="what is ambiguous; used to judge an ASK")
    clue_if_asked: str = Field(default="", description="released by the simulator on a correct ASK")

    @field_validator("type", mode="before")
    @classmethod
    def _type_aliases(cls, value: object) -> object:
        aliases = {"ambiguous": "ambi", "unambiguous": "unambi", "ambig": "ambi", "unambig": "unambi"}
        return aliases.get(value.strip().lower(), value.strip().lower()) if isinstance(value, str) else value

    @field_validator("ambiguity_type", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip().lower().replace(" ", "_").replace("-", "_")
        return None if value in ("", "none", "null") else value

    @model_validator(mode="after")
    def _ambi_needs_clue(self) -> Checkpoint:
        if self.type == "ambi":
            if self.ambiguity_type is None:
                raise ValueError("an ambi checkpoint needs an ambiguity_type")
            if not self.clue_if_asked.strip():
                raise ValueError("an ambi checkpoint needs a clue_if_asked")
        return self

    @property
    def is_ambiguous(self) -> bool:
        return self.type == "ambi"

    def gold_forms(self) -> list[str]:
        return [self.answer, *self.answer_aliases]


class DiscoSample(Record):
    """A DiscoBench question with its hidden checkpoint chain and final answer."""

    id: str
    language: str = "en"
    domain: str = "general"
    question: str = Field(min_length=1, description="the only field the agent sees")
    checkpoints: list[Checkpoint] = Field(min_length=1)
    final_answer: str = Field(min_length=1, description="judge only")
    final_answer_aliases: list[str] = Field(default_factory=list)

    @property
    def n_ambiguous(self) -> int:
        return sum(cp.is_ambiguous for cp in self.checkpoints)

    @property
    def difficulty(self) -> str:
        """easy = 1 ambiguous checkpoint, medium = 2, hard = 3+ (none: "unambiguous")."""
        n = self.n_ambiguous
        if n == 0:
            return "unambiguous"
        return {1: "easy", 2: "medium"}.get(n, "hard")

    def unambiguous_variant(self) -> DiscoSample:
        """The ablation: every clue folded into the question, every checkpoint unambiguous."""
        clues = [cp.clue_if_asked.strip() for cp in self.checkpoints if cp.is_ambiguous]
        sep = "" if self.language.startswith("zh") else " "
        note = ("（补充信息：" + "；".join(clues) + "）") if self.language.startswith("zh") else (
            "(Additional details: " + " ".join(clues) + ")"
        )
        checkpoints = [
            cp.model_copy(update={"type": "unambi", "ambiguity_type": None, "clue_if_asked": ""})
            for cp in self.checkpoints
        ]
        return self.model_copy(
            update={"question": f"{self.question}{sep}{note}" if clues else self.question,
                    "checkpoints": checkpoints}
        )
