"""Robustness analyses over existing CTS runs (paper section 7.4, Tables 9 and 11)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from clarisearch.metrics.cts import system_name
from clarisearch.metrics.question_types import question_types
from clarisearch.search.text import normalize_answer
from clarisearch.users.answerer import RulesUserAnswerer, is_unknown

_CONCRETE = re.compile(r"\b(?:1[5-9]\d{2}|20\d{2})s?\b|\d{4}年|\b\d+(?:[.,]\d+)?\b")
_EXTRACTOR = RulesUserAnswerer()


def _clarify_rows(results: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["key"]: r for r in results if r.get("system") == "clarify" and r.get("status") == "ok"}


def ua_agreement(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Known/unknown agreement of two UA backbones on the same clarification questions."""
    rows_a, rows_b = _clarify_rows(a), _clarify_rows(b)
    pairs = []
    for key in rows_a.keys() & rows_b.keys():
        ra, rb = rows_a[key], rows_b[key]
        for qa, aa, qb, ab in zip(ra["questions"], ra["answers"], rb["questions"], rb["answers"], strict=False):
            if normalize_answer(qa) == normalize_answer(qb):
                pairs.append((is_unknown(aa), is_unknown(ab)))
    agree = sum(x == y for x, y in pairs)
    return {"pairs": len(pairs), "ua_agreement": agree / len(pairs) if pairs else None,
            "unknown_rate_a": sum(x for x, _ in pairs) / len(pairs) if pairs else None,
            "unknown_rate_b": sum(y for _, y in pairs) / len(pairs) if pairs else None}


def rewrite_similarity(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Mean normalized text similarity (difflib ratio) of the rewrites of the same episodes."""
    rows_a, rows_b = _clarify_rows(a), _clarify_rows(b)
    sims = [difflib.SequenceMatcher(None, normalize_answer(rows_a[k]["rewrite"] or ""),
                                    normalize_answer(rows_b[k]["rewrite"] or "")).ratio()
            for k in rows_a.keys() & rows_b.keys()]
    return {"pairs": len(sims), "rewrite_similarity": sum(sims) / len(sims) if sims else None}


def _new_spans(rewrite: str, grounded: str, qtype: str) -> set[str]:
    if qtype in ("time", "other", "scope"):
        return {m for m in _CONCRETE.findall(rewrite) if m not in grounded}
    span = _EXTRACTOR.extract(rewrite, qtype)
    if not span:
        return set()
    return {part.strip() for part in re.split(r"[,、]", span) if part.strip() and part.strip() not in grounded}


def rewrite_protocol(results: Sequence[dict[str, Any]], blurred: dict[str, str]) -> dict[str, Any]:
    """Unknown preservation (an unknown aspect is not filled in by the rewrite) and unsupported
    concretization (the rewrite adds a concrete value found in neither the query nor any answer)."""
    unknown_total = unknown_kept = concretized = episodes = 0
    for row in _clarify_rows(results).values():
        rewrite = row.get("rewrite") or ""
        query = blurred.get(row["instance_id"], "")
        grounded = " ".join([query, *(a for a in row["answers"] if not is_unknown(a))])
        episodes += 1
        concretized += bool(_new_spans(rewrite, grounded, "time"))
        for question, answer in zip(row["questions"], row["answers"], strict=False):
            if not is_unknown(answer):
                continue
            unknown_total += 1
            qtype = next((t for t in question_types(question) if t != "other"), "other")
            unknown_kept += not _new_spans(rewrite, grounded, qtype)
    return {"episodes": episodes, "unknown_answers": unknown_total,
            "unknown_preservation": unknown_kept / unknown_total if unknown_total else None,
            "unsupported_concretization_rate": concretized / episodes if episodes else None}


def system_means(results: Sequence[dict[str, Any]]) -> dict[str, float]:
    scores: dict[str, list[float]] = {}
    for r in results:
        if r.get("status") == "ok" and r.get("restore_score_100") is not None:
            scores.setdefault(system_name(r), []).append(r["restore_score_100"])
    return {name: sum(v) / len(v) for name, v in scores.items()}


def ordering(means: dict[str, float]) -> list[str]:
    return sorted(means, key=lambda s: (-means[s], s))


def judge_stability(runs: Sequence[tuple[str, Sequence[dict[str, Any]]]]) -> dict[str, Any]:
    """Per judge run: system means and their ordering; whether every pair of judges orders systems alike."""
    table = {label: {"means": (m := system_means(rows)), "ordering": ordering(m)} for label, rows in runs}
    pairwise = {f"{x} vs {y}": table[x]["ordering"] == table[y]["ordering"] for x, y in combinations(table, 2)}
    return {"judges": table, "same_ordering": pairwise, "stable": all(pairwise.values()) if pairwise else None}
