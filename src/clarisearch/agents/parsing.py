"""Pure parsers for agent output: tool calls, <answer>, <ask>. Robust to unclosed or missing tags."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL | re.IGNORECASE)
_TOOL_CALL = re.compile(r"<tool_call>(.*?)(?:</tool_call>|(?=<tool_call>)|$)", re.DOTALL | re.IGNORECASE)
_TRAILING_PARTIAL_TAG = re.compile(r"<\s*/?\s*[a-z_]{0,12}\s*>?\s*$", re.IGNORECASE)


def strip_think(text: str) -> str:
    return _THINK.sub("", text).strip()


def extract_tag(text: str, tag: str) -> str | None:
    """Content of the last <tag>...</tag>; with no closing tag, everything after the last <tag>.

    A partially written closing tag at the end (e.g. "</answ") is dropped. None when the tag is absent.
    """
    body = strip_think(text) if tag != "think" else text
    lower = body.lower()
    open_tag, close_tag = f"<{tag}>", f"</{tag}>"
    start = lower.rfind(open_tag)
    if start < 0:
        return None
    content = body[start + len(open_tag):]
    end = content.lower().find(close_tag)
    content = content[:end] if end >= 0 else _TRAILING_PARTIAL_TAG.sub("", content)
    return content.strip()


def extract_answer(text: str) -> str | None:
    return extract_tag(text, "answer")


def final_text(text: str) -> str:
    """The answer of a final output: the <answer> content, else the output without think/tool markup."""
    answer = extract_answer(text)
    if answer is not None:
        return answer
    cleaned = _TOOL_CALL.sub("", strip_think(text))
    return _TRAILING_PARTIAL_TAG.sub("", cleaned).strip()


@dataclass
class ToolCall:
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


def parse_tool_calls(text: str) -> list[ToolCall]:
    """Every <tool_call> block; a malformed one becomes a ToolCall with an error (fed back to the model)."""
    calls = []
    for match in _TOOL_CALL.finditer(strip_think(text)):
        raw = match.group(1).strip()
        if not raw:
            continue
        try:
            decoded, _ = json.JSONDecoder().raw_decode(raw[raw.find("{"):]) if "{" in raw else (None, 0)
        except json.JSONDecodeError as exc:
            calls.append(ToolCall(name="", error=f"tool call is not valid JSON: {exc.msg}"))
            continue
        if not isinstance(decoded, dict) or not isinstance(decoded.get("name"), str):
            calls.append(ToolCall(name="", error='tool call must be {"name": ..., "arguments": {...}}'))
            continue
        args = decoded.get("arguments", {})
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                args = {"query": args}
        calls.append(ToolCall(name=decoded["name"], arguments=args if isinstance(args, dict) else {}))
    return calls
