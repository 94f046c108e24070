"""Disco agents: each turn makes tool calls and ends with ask(question), answer(text) or neither.

The LLM agent reuses the ReAct loop of the deep-search agent (adding the <ask> ending); the
rule-based reference agent searches, asks when two close candidates compete, and answers
with the best hit otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from clarisearch import prompts
from clarisearch.agents.parsing import ToolCall
from clarisearch.agents.react import AgentLimits, ReactLoop, tool_protocol
from clarisearch.agents.rules_agent import rank_sentences
from clarisearch.agents.tools import ToolBox
from clarisearch.llm.base import LLM, Message
from clarisearch.schema.results import AgentStep
from clarisearch.schema.views import AgentView
from clarisearch.search.text import has_cjk, tokenize

Action = Literal["ask", "answer", "search_only"]


@dataclass
class AgentTurn:
    action: Action
    text: str = ""
    steps: list[AgentStep] = field(default_factory=list)
    searches: int = 0
    visits: int = 0


class DiscoAgent(Protocol):
    async def start(self, view: AgentView) -> None: ...

    async def turn(self, user_message: str | None) -> AgentTurn: ...


class ReactDiscoAgent:
    """LLM agent: one persistent conversation; each turn runs the ReAct loop until <ask> or <answer>."""

    def __init__(self, llm: LLM, tools: ToolBox, setting: str = "neutral", tools_enabled: bool = True,
                 limits: AgentLimits | None = None, max_calls_per_turn: int = 15, native: bool = False):
        self.tools = tools
        self.limits = limits or AgentLimits()
        self.native = native
        self.loop = ReactLoop(llm, tools, self.limits, native, offer_tools=tools_enabled)
        self.setting = setting
        self.tools_enabled = tools_enabled
        self.max_calls_per_turn = max_calls_per_turn
        self.messages: list[Message] = []
        self.calls_used = 0

    async def start(self, view: AgentView) -> None:
        system = prompts.render(f"disco_agent_{self.setting}", tool_protocol=tool_protocol(self.native, self.tools_enabled))
        self.messages = [{"role": "system", "content": system}, {"role": "user", "content": view.question}]

    async def turn(self, user_message: str | None) -> AgentTurn:
        if user_message is not None:
            self.messages.append({"role": "user", "content": user_message})
        searches, visits = self.tools.searches, self.tools.visits
        budget = max(1, min(self.max_calls_per_turn, self.limits.max_llm_calls - self.calls_used))
        outcome = await self.loop.run(self.messages, allow_ask=True, max_calls=budget)
        self.calls_used += outcome.llm_calls
        action: Action = "search_only" if outcome.ending == "none" else outcome.ending
        return AgentTurn(action, outcome.text, outcome.steps, self.tools.searches - searches, self.tools.visits - visits)


_AFFIRM = re.compile(r"\b(correct|right|yes|exactly|confirmed)\b|正确|对的|没错|是的", re.IGNORECASE)
_DENY = re.compile(r"\b(not|isn't|wrong|no|incorrect)\b|不是|不对|错", re.IGNORECASE)
_NON_INFO = re.compile(r"\b(not sure|don't know|does not matter|doesn't matter|please continue|go ahead)\b|不清楚|不确定|继续",
                       re.IGNORECASE)


class RulesDiscoAgent:
    """Rule-based baseline. Asks "A or B?" when the top two hits are close (neutral: and share a name);
    otherwise answers with the best not-yet-rejected sentence from the top pages and the pages it has
    already had confirmed, prefixed by its page title."""

    def __init__(self, tools: ToolBox, tools_enabled: bool = True, setting: str = "neutral"):
        self.tools = tools
        self.tools_enabled = tools_enabled
        self.guided = setting == "guided"
        self.close_ratio = 0.7 if self.guided else 0.85
        self.question = ""
        self.clues: list[str] = []
        self.confirmed: list[tuple[str, str]] = []  # (page url, answer text) the user confirmed
        self.rejected: set[str] = set()
        self.rejected_pages: set[str] = set()  # pages wrong for the current step (reset when one is confirmed)
        self.asked_this_step = False
        self.last: tuple[Action, str, str] | None = None  # (action, page url, answer text)

    async def start(self, view: AgentView) -> None:
        self.question = view.question

    @property
    def confirmed_urls(self) -> set[str]:
        return {url for url, _ in self.confirmed}

    def _absorb(self, message: str) -> None:
        if self.last is None:
            return
        action, url, text = self.last
        if action == "answer":
            if _AFFIRM.search(message) and not _DENY.search(message):
                self.confirmed.append((url, text))
                self.clues, self.asked_this_step = [], False
                self.rejected_pages.clear()
            else:
                self.rejected.add(text)
                if url not in self.confirmed_urls:
                    self.rejected_pages.add(url)
        elif action == "ask" and not _NON_INFO.search(message):
            self.clues.append(message)

    def _should_ask(self, hits: list[dict[str, Any]]) -> bool:
        if self.asked_this_step or len(hits) < 2 or hits[1]["score"] < self.close_ratio * hits[0]["score"]:
            return False
        return self.guided or bool(set(tokenize(hits[0]["title"])[:1]) & set(tokenize(hits[1]["title"])))

    async def turn(self, user_message: str | None) -> AgentTurn:
        if user_message is not None:
            self._absorb(user_message)
        if not self.tools_enabled:
            self.last = ("answer", "", "")
            return AgentTurn("answer", "I cannot look this up without search.", [AgentStep(output="rules: no tools")])
        known = [text for _, text in self.confirmed[-1:]]
        query = " ".join([self.question, *self.clues[-2:], *known])
        searches, visits = self.tools.searches, self.tools.visits
        _, record = await self.tools.execute(ToolCall("search", {"queries": [query]}))
        steps = [AgentStep(output="<think>rules: search question + clues + confirmed facts</think>", tool_calls=[record])]
        skip = self.confirmed_urls | self.rejected_pages
        hits = [h for h in (record.hits or [[]])[0] if h["url"] not in skip]
        if self._should_ask(hits):
            self.asked_this_step = True
            self.last = ("ask", "", "")
            first, second = hits[0]["title"], hits[1]["title"]
            text = (f"您指的是{first}还是{second}？" if has_cjk(self.question)
                    else f"Which one do you mean: {first} or {second}?")
            return AgentTurn("ask", text, steps, self.tools.searches - searches)
        urls = [h["url"] for h in hits[:2]] + [url for url, _ in self.confirmed[-1:]]
        if not urls:
            self.last = ("answer", "", "")
            return AgentTurn("answer", "I could not find it.", steps, self.tools.searches - searches)
        _, visit = await self.tools.execute(ToolCall("visit", {"urls": urls, "goal": query}))
        steps.append(AgentStep(output="<think>rules: read the best pages</think>", tool_calls=[visit]))
        pages = (visit.page or {}).get("pages", [])
        ranked = rank_sentences(" ".join([self.question, *self.clues[-2:]]), [(i, p["content"]) for i, p in enumerate(pages)],
                                per_page=4)
        for _, page_index, _, sentence in ranked:
            page = pages[page_index]
            answer = f"{page['title']}: {sentence}"
            if answer not in self.rejected and all(answer != text for _, text in self.confirmed):
                self.last = ("answer", page["url"], answer)
                return AgentTurn("answer", answer, steps, self.tools.searches - searches, self.tools.visits - visits)
        fallback = f"{pages[0]['title']}" if pages else "I could not find it."
        self.last = ("answer", pages[0]["url"] if pages else "", fallback)
        return AgentTurn("answer", fallback, steps, self.tools.searches - searches, self.tools.visits - visits)
