"""WebDancer-style ReAct agent: <think>, <tool_call>, <tool_response>, and <answer> (or <ask>)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from clarisearch import prompts
from clarisearch.agents.parsing import extract_answer, extract_tag, final_text, parse_tool_calls
from clarisearch.agents.tools import ToolBox
from clarisearch.llm.base import LLM, ContextOverflowError, DecodingParams, Message
from clarisearch.schema.results import AgentStep, AgentTrace

FORCE_ANSWER = ("You have reached the limit of {why}. Do not call any more tools. "
                "Give your final answer now inside <answer></answer>.")


@dataclass
class AgentLimits:
    max_llm_calls: int = 40
    max_context_chars: int = 160_000
    max_tokens_per_call: int | None = None
    temperature: float = 0.0


@dataclass
class LoopOutcome:
    ending: Literal["answer", "ask", "none"]
    text: str = ""
    steps: list[AgentStep] = field(default_factory=list)
    termination: str = ""
    llm_calls: int = 0


class ReactLoop:
    """LLM <-> tools iterations over a message list, until the model ends with an allowed tag."""

    def __init__(self, llm: LLM, tools: ToolBox, limits: AgentLimits):
        self.llm = llm
        self.tools = tools
        self.limits = limits
        self.params = DecodingParams(temperature=limits.temperature, max_tokens=limits.max_tokens_per_call)

    def context_chars(self, messages: list[Message]) -> int:
        return sum(len(m["content"]) for m in messages)

    async def run(self, messages: list[Message], allow_ask: bool, max_calls: int) -> LoopOutcome:
        outcome = LoopOutcome(ending="none")
        while outcome.llm_calls < max_calls:
            if self.context_chars(messages) > self.limits.max_context_chars:
                outcome.termination = "max_context"
                return outcome
            try:
                completion = await self.llm.complete(messages, self.params)
            except ContextOverflowError:
                outcome.termination = "max_context"
                return outcome
            outcome.llm_calls += 1
            text = completion.text
            messages.append({"role": "assistant", "content": text})
            step = AgentStep(output=text)
            outcome.steps.append(step)
            calls = parse_tool_calls(text)
            answer = extract_answer(text)
            ask = extract_tag(text, "ask") if allow_ask else None
            if calls and answer is None and ask is None:
                observations = []
                for call in calls:
                    observation, record = await self.tools.execute(call)
                    step.tool_calls.append(record)
                    observations.append(f"<tool_response>\n{observation}\n</tool_response>")
                messages.append({"role": "user", "content": "\n".join(observations)})
                continue
            if answer is not None:
                outcome.ending, outcome.text, outcome.termination = "answer", answer, "answered"
            elif ask is not None:
                outcome.ending, outcome.text, outcome.termination = "ask", ask, "asked"
            else:
                outcome.text, outcome.termination = final_text(text), "no_action"
            return outcome
        outcome.termination = "max_llm_calls"
        return outcome


class ReactSearchAgent:
    """The deep-search agent for a single query (CTS): returns the full trace and the answer."""

    def __init__(self, llm: LLM, tools: ToolBox, limits: AgentLimits | None = None, extra_instructions: str = ""):
        self.limits = limits or AgentLimits()
        self.loop = ReactLoop(llm, tools, self.limits)
        self.tools = tools
        self.extra_instructions = extra_instructions

    async def run(self, query: str) -> AgentTrace:
        system = prompts.render("deep_search_system", extra_instructions=self.extra_instructions)
        messages: list[Message] = [{"role": "system", "content": system}, {"role": "user", "content": query}]
        outcome = await self.loop.run(messages, allow_ask=False, max_calls=self.limits.max_llm_calls)
        steps, calls, answer = outcome.steps, outcome.llm_calls, outcome.text
        termination = outcome.termination
        if outcome.ending == "none" and termination == "no_action":
            termination = "answered_untagged"
        elif outcome.ending == "none":
            why = "the context window" if termination == "max_context" else "your step budget"
            if termination == "max_context":
                messages[:] = messages[:2] + messages[-2:]
            messages.append({"role": "user", "content": FORCE_ANSWER.format(why=why)})
            completion = await self.loop.llm.complete(messages, self.loop.params)
            calls += 1
            steps.append(AgentStep(output=completion.text))
            answer = final_text(completion.text)
            termination = f"forced_answer_{termination}"
        return AgentTrace(query=query, steps=steps, answer=answer, termination=termination, llm_calls=calls,
                          searches=self.tools.searches, visits=self.tools.visits)
