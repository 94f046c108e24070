"""Small Markdown table helpers."""

from __future__ import annotations

from collections.abc import Sequence


def fmt(value: object, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def signed(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:+.{digits}f}"


def usage_table(rows: Sequence[tuple[str, str, dict[str, dict[str, float]]]]) -> str:
    """LLM usage per role and episode, one row per (run, system or group, role)."""
    body = [[run, name, role, fmt(u["calls"], 2), fmt(u["prompt_tokens"], 1), fmt(u["completion_tokens"], 1),
             fmt(u["latency_s"], 2)] for run, name, usage in rows for role, u in usage.items()]
    if not body:
        return "_no LLM calls (rule-based roles only)_"
    return table(["run", "system", "role", "calls", "prompt tok", "completion tok", "latency s"], body)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "| " + " | ".join(headers) + " |"
    sep = "| " + " | ".join("---" for _ in headers) + " |"
    body = ["| " + " | ".join(fmt(c) if not isinstance(c, str) else c for c in row) + " |" for row in rows]
    return "\n".join([head, sep, *body])
