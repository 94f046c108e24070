from __future__ import annotations

from clarisearch.agents.parsing import extract_answer, extract_tag, final_text, parse_tool_calls


def test_answer_well_formed_unclosed_partial_and_missing() -> None:
    assert extract_answer("<think>x</think><answer>Paris</answer>") == "Paris"
    assert extract_answer("<answer>draft</answer> then <answer>final</answer>") == "final"
    assert extract_answer("<answer>Paris is the capital") == "Paris is the capital"
    assert extract_answer("<answer>Paris is the capital</answ") == "Paris is the capital"
    assert extract_answer("<answer>Paris</") == "Paris"
    assert extract_answer("no tags at all") is None
    assert extract_answer("<think>maybe <answer>inside think</answer></think> nothing") is None


def test_final_text_falls_back_to_untagged_output() -> None:
    assert final_text("<think>hm</think>It is Paris.") == "It is Paris."
    assert final_text('<tool_call>{"name": "search"}</tool_call> The answer is 4') == "The answer is 4"


def test_ask_tag_and_case_insensitive() -> None:
    assert extract_tag("<ASK>Which one?</ASK>", "ask") == "Which one?"


def test_tool_calls_valid_malformed_and_string_arguments() -> None:
    text = ('<tool_call>{"name": "search", "arguments": {"queries": ["a", "b"]}}</tool_call>'
            '<tool_call>{"name": "visit", "arguments": "{\\"urls\\": [\\"u\\"]}"}</tool_call>'
            "<tool_call>{broken</tool_call>")
    calls = parse_tool_calls(text)
    assert [c.name for c in calls] == ["search", "visit", ""]
    assert calls[0].arguments == {"queries": ["a", "b"]} and calls[1].arguments == {"urls": ["u"]}
    assert calls[2].error and "JSON" in calls[2].error
    unclosed = parse_tool_calls('<tool_call>{"name": "search", "arguments": {"queries": ["x"]}}')
    assert unclosed[0].arguments == {"queries": ["x"]}
