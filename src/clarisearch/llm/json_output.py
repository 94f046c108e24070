"""Extract and validate JSON from model output; re-ask a bounded number of times; never guess."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from clarisearch.llm.base import LLM, DecodingParams, Message

T = TypeVar("T")

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)


def extract_json(text: str) -> Any:
    """The first JSON value in `text`: fenced block, bare value, or one embedded in prose.

    Raises ValueError when there is none.
    """
    cleaned = _THINK.sub("", text).strip()
    candidates = [m.group(1).strip() for m in _FENCE.finditer(cleaned)] + [cleaned]
    decoder = json.JSONDecoder()
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            pass
        for index, char in enumerate(candidate):
            if char in "[{":
                try:
                    value, _ = decoder.raw_decode(candidate, index)
                    return value
                except json.JSONDecodeError:
                    continue
    raise ValueError("no JSON value found in model output")


@dataclass
class JsonOutcome:
    """A parsed value, or a typed parse failure carrying every raw output seen."""

    value: Any = None
    parse_ok: bool = False
    raw_outputs: list[str] = field(default_factory=list)
    error: str = ""


async def complete_json(
    llm: LLM,
    messages: list[Message],
    validate: Callable[[Any], T],
    params: DecodingParams | None = None,
    max_reasks: int = 2,
) -> JsonOutcome:
    """Ask, parse with `validate` (raise ValueError to reject), re-ask with the error up to `max_reasks`."""
    outcome = JsonOutcome()
    convo = list(messages)
    for _ in range(max_reasks + 1):
        completion = await llm.complete(convo, params)
        outcome.raw_outputs.append(completion.text)
        try:
            outcome.value = validate(extract_json(completion.text))
            outcome.parse_ok = True
            outcome.error = ""
            return outcome
        except (ValueError, TypeError, KeyError) as exc:
            outcome.error = str(exc) or type(exc).__name__
            convo = [*convo, {"role": "assistant", "content": completion.text},
                     {"role": "user", "content": f"Your output could not be used ({outcome.error}). "
                      "Reply again with only the JSON required, nothing else."}]
    return outcome
