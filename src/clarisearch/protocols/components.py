"""Build each role's component from its binding: an LLM-prompted one, or the rule-based reference."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from clarisearch.agents.clarifier import (
    AskGate,
    Clarifier,
    LLMAskGate,
    LLMClarifier,
    RulesAskGate,
    RulesClarifier,
)
from clarisearch.agents.react import AgentLimits, ReactSearchAgent
from clarisearch.agents.readers import ExtractiveReader, SummaryReader
from clarisearch.agents.rewriter import LLMRewriter, Rewriter, RulesRewriter
from clarisearch.agents.rules_agent import RulesSearchAgent
from clarisearch.agents.tools import PageReader, ToolBox, ToolLimits
from clarisearch.judges.coverage import CoverageJudge, LLMCoverageJudge, RulesCoverageJudge
from clarisearch.judges.equivalence import EquivalenceJudge, LLMEquivalenceJudge, RulesEquivalenceJudge
from clarisearch.llm.base import LLM
from clarisearch.llm.registry import LLMFactory, parse_spec
from clarisearch.schema.results import AgentTrace
from clarisearch.search.base import SearchBackend
from clarisearch.users.answerer import LLMUserAnswerer, RulesUserAnswerer, UserAnswerer


class SearchAgent(Protocol):
    async def run(self, query: str) -> AgentTrace: ...


@dataclass
class Roles:
    """The role bindings of a run and the factory that turns them into components."""

    bindings: dict[str, str]
    factory: LLMFactory

    def rules(self, role: str) -> bool:
        return self.factory.is_rules(role, self.bindings[role])

    def label(self, role: str) -> str:
        return "scripted" if role in self.factory.overrides else parse_spec(self.bindings[role]).label

    def llm(self, role: str) -> LLM:
        return self.factory.build(role, self.bindings[role])

    def reader(self) -> PageReader:
        return ExtractiveReader() if self.rules("summarizer") else SummaryReader(self.llm("summarizer"))

    def clarifier(self, prompt: str = "paper") -> Clarifier:
        """`prompt`: "paper" (the seed's clarifier) or "reference" (our stronger reference prompt)."""
        if self.rules("clarifier"):
            return RulesClarifier()
        return LLMClarifier(self.llm("clarifier"), template="clarifier" if prompt == "paper" else "clarifier_reference")

    def ask_gate(self) -> AskGate:
        """The ask-or-not policy, played by the clarifier role."""
        return RulesAskGate() if self.rules("clarifier") else LLMAskGate(self.llm("clarifier"))

    def answerer(self) -> UserAnswerer:
        return RulesUserAnswerer() if self.rules("user") else LLMUserAnswerer(self.llm("user"))

    def rewriter(self) -> Rewriter:
        return RulesRewriter() if self.rules("rewriter") else LLMRewriter(self.llm("rewriter"))

    def coverage_judge(self) -> CoverageJudge:
        return RulesCoverageJudge() if self.rules("judge") else LLMCoverageJudge(self.llm("judge"))

    def equivalence_judge(self) -> EquivalenceJudge:
        return RulesEquivalenceJudge() if self.rules("judge") else LLMEquivalenceJudge(self.llm("judge"))

    def search_agent_factory(self, search: SearchBackend, agent_limits: AgentLimits, tool_limits: ToolLimits,
                             native: bool = False, extra_instructions: str = "") -> Callable[[], SearchAgent]:
        """A fresh agent (with its own tool budget) per episode; `native` uses function calling."""
        reader = self.reader()
        if self.rules("agent"):
            return lambda: RulesSearchAgent(ToolBox(search, reader, tool_limits))
        llm = self.llm("agent")
        return lambda: ReactSearchAgent(llm, ToolBox(search, reader, tool_limits), agent_limits, extra_instructions,
                                        native)
