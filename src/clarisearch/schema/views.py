"""What each component is allowed to see. Components take these views, never whole samples.

This is where the information partitioning of SPEC section 2 is enforced by types: a view
carries no field the component must not read, so hidden text cannot reach its prompt.
"""

from __future__ import annotations

from dataclasses import dataclass

from clarisearch.schema.cts import Nugget
from clarisearch.schema.disco import Checkpoint


@dataclass(frozen=True)
class ClarifierView:
    """Clarifier: the blurred query (and, adaptively, the dialogue so far)."""

    blurred_query: str
    language: str = "en"


@dataclass(frozen=True)
class AnswererView:
    """CTS user answerer: the intent query and ONE clarification question."""

    intent: str
    question: str
    language: str = "en"


@dataclass(frozen=True)
class RewriterView:
    """Rewriter: the blurred query and the (question, answer) pairs; never the intent."""

    blurred_query: str
    qa_pairs: tuple[tuple[str, str], ...]
    language: str = "en"


@dataclass(frozen=True)
class CoverageView:
    """Coverage judge: the gold nuggets, the candidate answer and the intent (for context)."""

    question: str
    answer: str
    nuggets: tuple[Nugget, ...]
    language: str = "en"


@dataclass(frozen=True)
class AgentView:
    """Disco agent: the question only."""

    question: str
    language: str = "en"


@dataclass(frozen=True)
class CheckpointView:
    """Disco user simulator: the CURRENT checkpoint only, plus dialogue facts about it."""

    checkpoint: Checkpoint
    is_last: bool
    asked_before: bool
    language: str = "en"


@dataclass(frozen=True)
class EquivalenceView:
    """Equivalence judge: the question, the gold answer forms and the candidate."""

    question: str
    gold: str
    aliases: tuple[str, ...]
    candidate: str
    language: str = "en"

