from __future__ import annotations

import json

from clarisearch.agents.react import AgentLimits, ReactSearchAgent
from clarisearch.agents.readers import RawReader
from clarisearch.agents.tools import ToolBox, ToolLimits
from clarisearch.llm.scripted import ScriptedLLM
from clarisearch.schema.corpus import CorpusDoc
from clarisearch.search.memory import MemorySearch


def call(name: str, **arguments: object) -> str:
    return f"<think>next</think><tool_call>{json.dumps({'name': name, 'arguments': arguments})}</tool_call>"


def agent(script: list[str], small_docs: list[CorpusDoc], max_calls: int = 40, max_searches: int | None = None):
    llm = ScriptedLLM(script)
    search = MemorySearch(small_docs)
    tools = ToolBox(search, RawReader(), ToolLimits(search_k=3, max_searches=max_searches))
    return ReactSearchAgent(llm, tools, AgentLimits(max_llm_calls=max_calls)), llm, search


async def test_search_visit_answer(small_docs: list[CorpusDoc]) -> None:
    react, llm, search = agent([call("search", queries=["basketball invented"]),
                                call("visit", urls=["en-2"], goal="inventor"),
                                "<answer>James Naismith, in 1891</answer>"], small_docs)
    trace = await react.run("Who invented basketball?")
    assert trace.answer == "James Naismith, in 1891" and trace.termination == "answered"
    assert trace.searches == 1 and trace.visits == 1 and trace.llm_calls == 3
    assert trace.steps[0].tool_calls[0].hits[0][0]["doc_id"] == "en-2"  # type: ignore[index]
    assert "<tool_response>" in llm.calls[1][-1]["content"] and "Naismith" in llm.calls[2][-1]["content"]
    assert search.queries == ["basketball invented"]


async def test_budget_exhaustion_forces_one_final_answer(small_docs: list[CorpusDoc]) -> None:
    react, llm, _ = agent([call("search", queries=["a"])] * 3 + ["<answer>forced guess"], small_docs, max_calls=3)
    trace = await react.run("q")
    assert trace.termination == "forced_answer_max_llm_calls" and trace.answer == "forced guess"
    assert trace.llm_calls == 4 and "final answer" in llm.calls[-1][-1]["content"]


async def test_tool_errors_return_to_the_model(small_docs: list[CorpusDoc]) -> None:
    react, llm, _ = agent(["<tool_call>{oops</tool_call>", call("browse", url="x"), call("search", queries=[]),
                           call("search", queries=["x"]), call("search", queries=["y"]), "<answer>ok</answer>"],
                          small_docs, max_searches=1)
    trace = await react.run("q")
    observations = [m["content"] for m in llm.calls[-1] if m["role"] == "user"][1:]
    assert "not valid JSON" in observations[0] and "unknown tool 'browse'" in observations[1]
    assert "search needs" in observations[2] and "budget exhausted" in observations[4]
    assert trace.answer == "ok" and trace.searches == 1


async def test_untagged_final_output_is_the_answer(small_docs: list[CorpusDoc]) -> None:
    react, _, _ = agent(["<think>I know</think>It is Paris."], small_docs)
    trace = await react.run("q")
    assert trace.answer == "It is Paris." and trace.termination == "answered_untagged"


async def test_context_limit_forces_answer(small_docs: list[CorpusDoc]) -> None:
    llm = ScriptedLLM([call("visit", urls=["en-1", "en-2", "en-3"], goal="g"), "<answer>short</answer>"])
    tools = ToolBox(MemorySearch(small_docs), RawReader())
    react = ReactSearchAgent(llm, tools, AgentLimits(max_context_chars=1500))
    trace = await react.run("q")
    assert trace.termination == "forced_answer_max_context" and trace.answer == "short"


async def test_native_function_calling_loop(small_docs: list[CorpusDoc]) -> None:
    from clarisearch.llm.base import Completion, ToolCallRequest

    llm = ScriptedLLM([
        Completion(text="", tool_calls=[ToolCallRequest("c1", "search", '{"queries": ["basketball invented"]}'),
                                        ToolCallRequest("c2", "visit", "{not json")]),
        Completion(text="", tool_calls=[ToolCallRequest("c3", "visit", '{"urls": ["en-2"], "goal": "who"}')]),
        "<answer>James Naismith</answer>",
    ])
    tools = ToolBox(MemorySearch(small_docs), RawReader())
    trace = await ReactSearchAgent(llm, tools, native=True).run("Who invented basketball?")
    assert trace.answer == "James Naismith" and trace.searches == 1 and trace.visits == 1
    assert llm.tools_seen[0] and {t["function"]["name"] for t in llm.tools_seen[0]} == {"search", "visit"}
    last = llm.calls[-1]
    assert [m["role"] for m in last[2:]] == ["assistant", "tool", "tool", "assistant", "tool"]
    assert last[2]["tool_calls"][0]["function"]["name"] == "search" and last[3]["tool_call_id"] == "c1"
    assert "not valid JSON" in last[4]["content"] and "Naismith" in last[6]["content"]
    assert "<tool_call>" not in last[0]["content"] and "function-calling" in last[0]["content"]


async def test_rules_search_agent_answers_with_supporting_sentences(small_docs: list[CorpusDoc]) -> None:
    from clarisearch.agents.readers import ExtractiveReader
    from clarisearch.agents.rules_agent import RulesSearchAgent

    search = MemorySearch(small_docs)
    trace = await RulesSearchAgent(ToolBox(search, ExtractiveReader())).run("Who invented basketball and when?")
    assert "James Naismith" in trace.answer and "1891" in trace.answer
    assert trace.searches == 1 and trace.visits == 1 and trace.termination == "answered"  # one page matched
    assert trace.steps[1].tool_calls[0].page["pages"][0]["doc_id"] == "en-2"  # type: ignore[index]
    chinese = await RulesSearchAgent(ToolBox(search, ExtractiveReader())).run("哪一年北京举办了奥运会？")
    assert "2008年" in chinese.answer
