"""LLM usage per role (calls, tokens, latency), averaged per episode."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

FIELDS = ("calls", "prompt_tokens", "completion_tokens", "latency_s")


def usage_by_role(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Mean per episode of each role's calls, tokens and latency (episodes without the role count 0)."""
    totals: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(FIELDS, 0.0))
    for row in rows:
        for role, usage in row.get("usage", {}).items():
            for name in FIELDS:
                totals[role][name] += float(usage.get(name, 0.0))
    n = max(1, len(rows))
    return {role: {name: value / n for name, value in fields.items()} for role, fields in sorted(totals.items())}
