"""WebDancer-style ReAct agent: <think>, <tool_call>, <tool_response>, and <answer> (or <ask>)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal

from clarisearch import prompts
from clarisearch.agents.parsing import ToolCall, extract_answer, extract_tag, final_text, parse_tool_calls
from clarisearch.agents.tools import TOOL_SCHEMAS, ToolBox
from clarisearch.llm.base import LLM, ContextOverflowError, DecodingParams, Message, ToolCallRequest
from clarisearch.schema.results import AgentStep, AgentTrace

FORCE_ANSWER = ("You have reached the limit of {why}. Do not call any more tools. "
                "Give your final answer now inside <answer></answer>.")
TAGGED_PROTOCOL = ("Think inside <think></think>, then call tools by writing one or more\n"
                   '<tool_call>{"name": "search", "arguments": {"queries": ["..."]}}</tool_call>\n'
                   "Tool results come back to you inside <tool_response></tool_response>.")
NATIVE_PROTOCOL = ("Think inside <think></think>, then call tools through the function-calling interface; "
                   "their results come back to you as tool messages.")
NO_TOOLS_PROTOCOL = "In this session the tools are disabled: answer from your own knowledge and the dialogue."


def tool_protocol(native: bool, tools_enabled: bool = True) -> str:
    """The prompt paragraph explaining how to call tools in the chosen format."""
    if not tools_enabled:
        return NO_TOOLS_PROTOCOL
    return NATIVE_PROTOCOL if native else TAGGED_PROTOCOL


def native_tool_call(request: ToolCallRequest) -> ToolCall:
    """A native function call as our ToolCall; bad argument JSON becomes an error fed back to the model."""
    try:
        arguments = json.loads(request.arguments or "{}")
    except json.JSONDecodeError as exc:
        return ToolCall(request.name, {}, f"arguments are not valid JSON: {exc.msg}")
    if not isinstance(arguments, dict):
        return ToolCall(request.name, {}, "arguments must be a JSON object")
    return ToolCall(request.name, arguments)


def evidence_digest(messages: list[Message], max_chars: int) -> str:
    """The most recent tool observations, to carry into a forced answer after a context overflow."""
    observations = [m["content"] for m in messages[2:] if m["role"] in ("tool", "user")]
    return "\n\n".join(observations)[-max_chars:]


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

    def __init__(self, llm: LLM, tools: ToolBox, limits: AgentLimits, native: bool = False, offer_tools: bool = True):
        self.llm = llm
        self.tools = tools
        self.limits = limits
        self.native = native
        self.schemas = TOOL_SCHEMAS if native and offer_tools else None
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
                completion = await self.llm.complete(messages, self.params, self.schemas)
            except ContextOverflowError:
                outcome.termination = "max_context"
                return outcome
            outcome.llm_calls += 1
            text = completion.text
            step = AgentStep(output=text)
            outcome.steps.append(step)
            if self.native and completion.tool_calls:
                messages.append({"role": "assistant", "content": text,
                                 "tool_calls": [c.as_message_part() for c in completion.tool_calls]})
                for request in completion.tool_calls:
                    observation, record = await self.tools.execute(native_tool_call(request))
                    step.tool_calls.append(record)
                    messages.append({"role": "tool", "tool_call_id": request.id, "content": observation})
                continue
            messages.append({"role": "assistant", "content": text})
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

    def __init__(self, llm: LLM, tools: ToolBox, limits: AgentLimits | None = None, extra_instructions: str = "",
                 native: bool = False):
        self.limits = limits or AgentLimits()
        self.loop = ReactLoop(llm, tools, self.limits, native)
        self.tools = tools
        self.extra_instructions = extra_instructions
        self.native = native

    async def run(self, query: str) -> AgentTrace:
        system = prompts.render("deep_search_system", extra_instructions=self.extra_instructions,
                                tool_protocol=tool_protocol(self.native))
        messages: list[Message] = [{"role": "system", "content": system}, {"role": "user", "content": query}]
        outcome = await self.loop.run(messages, allow_ask=False, max_calls=self.limits.max_llm_calls)
        steps, calls, answer = outcome.steps, outcome.llm_calls, outcome.text
        termination = outcome.termination
        if outcome.ending == "none" and termination == "no_action":
            termination = "answered_untagged"
        elif outcome.ending == "none":
            why = "the context window" if termination == "max_context" else "your step budget"
            force = FORCE_ANSWER.format(why=why)
            if termination == "max_context":
                digest = evidence_digest(messages, self.limits.max_context_chars // 2)
                messages[:] = messages[:2]
                force = f"Evidence you gathered (most recent, truncated):\n{digest}\n\n{force}"
            messages.append({"role": "user", "content": force})
            completion = await self.loop.llm.complete(messages, self.loop.params)  # no tools offered: answer now
            calls += 1
            steps.append(AgentStep(output=completion.text))
            answer = final_text(completion.text)
            termination = f"forced_answer_{termination}"
        return AgentTrace(query=query, steps=steps, answer=answer, termination=termination, llm_calls=calls,
                          searches=self.tools.searches, visits=self.tools.visits)
