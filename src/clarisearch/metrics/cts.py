"""CTS metrics: restore_score_100, per-system distributions, Δ vs orig, UA/question diagnostics."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from clarisearch.metrics.question_types import QUESTION_TYPES, is_region_only
from clarisearch.metrics.stats import describe, paired_bootstrap_ci
from clarisearch.metrics.usage import usage_by_role
from clarisearch.schema.results import NuggetVerdict

LABEL_SCORE = {"full": 1.0, "partial": 0.5, "none": 0.0}


def restore_score_100(verdicts: Iterable[NuggetVerdict]) -> float:
    """100 * sum(w * s(label)) / sum(w): weighted nugget recall with partial credit."""
    verdicts = list(verdicts)
    total = sum(v.weight for v in verdicts)
    if total == 0:
        raise ValueError("restore_score_100 needs at least one weighted nugget")
    return 100.0 * sum(v.weight * LABEL_SCORE[v.label] for v in verdicts) / total


def system_name(result: dict[str, Any]) -> str:
    if result["system"] != "clarify":
        return str(result["system"])
    suffix = "" if result.get("mode", "batch") == "batch" else "-adaptive"
    return f"k{result['k']}{suffix}"


def _is_unknown(answer: str) -> bool:
    return answer.strip().lower() == "unknown"


def ua_diagnostics(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """UA/question diagnostics over clarify episodes of one k (Tables 4, 5, 7, 10 of the paper)."""
    questions = [(turn, q_types, ans) for r in results
                 for turn, (q_types, ans) in enumerate(zip(r["question_types"], r["answers"], strict=True), start=1)]
    n_q = len(questions)
    type_counts = Counter(t for _, types, _ in questions for t in types)
    region_only = [(turn, ans) for turn, types, ans in questions if is_region_only(types)]
    per_turn: dict[int, list[str]] = defaultdict(list)
    for turn, ans in region_only:
        per_turn[turn].append(ans)
    known_counts = Counter(sum(not _is_unknown(a) for a in r["answers"]) for r in results)
    n_inst = len(results)
    return {
        "n_instances": n_inst,
        "n_questions": n_q,
        "ua_unknown_rate": (sum(_is_unknown(a) for *_, a in questions) / n_q) if n_q else None,
        "question_type_rates": {t: (type_counts[t] / n_q if n_q else None) for t in QUESTION_TYPES},
        "cq_region_rate": (type_counts["region"] / n_q) if n_q else None,
        "region_only_count": len(region_only),
        "region_only_unknown_rate": (sum(_is_unknown(a) for _, a in region_only) / len(region_only)) if region_only else None,
        "region_only_by_turn": {str(turn): {"count": len(ans), "unknown_rate": sum(map(_is_unknown, ans)) / len(ans)}
                                for turn, ans in sorted(per_turn.items())},
        "all_unknown_rate": (known_counts[0] / n_inst) if n_inst else None,
        "known_cnt_dist": {str(c): known_counts[c] / n_inst for c in sorted(known_counts) if c > 0} if n_inst else {},
        "clarifier_parse_failures": sum(not r.get("clarifier_parse_ok", True) for r in results),
    }


def summarize_cts(results: Sequence[dict[str, Any]], seed: int = 0, resamples: int = 10_000) -> dict[str, Any]:
    """The run summary: per system score distribution, Δ vs orig with CI, diagnostics and costs."""
    by_system: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        by_system[system_name(r)].append(r)
    orig_scores = {r["instance_id"]: r["restore_score_100"] for r in by_system.get("orig", [])
                   if r["status"] == "ok" and r.get("restore_score_100") is not None}
    systems: dict[str, Any] = {}
    for name in sorted(by_system, key=_system_order):
        rows = by_system[name]
        ok = [r for r in rows if r["status"] == "ok"]
        scored = [r for r in ok if r.get("restore_score_100") is not None]
        entry: dict[str, Any] = {
            "episodes": len(rows),
            "errors": len(rows) - len(ok),
            "error_kinds": dict(Counter(r.get("error_kind") for r in rows if r["status"] == "error")),
            "judge_parse_failures": sum(not r.get("judge_parse_ok", True) for r in ok),
            "score": describe([r["restore_score_100"] for r in scored]),
            "cost": _costs(ok),
            "usage_by_role": usage_by_role(ok),
            "terminations": dict(Counter(r["agent"]["termination"] for r in ok)),
        }
        if name != "orig" and orig_scores:
            paired = [(r["restore_score_100"], orig_scores[r["instance_id"]]) for r in scored if r["instance_id"] in orig_scores]
            entry["delta_vs_orig"] = paired_bootstrap_ci([p[0] for p in paired], [p[1] for p in paired], resamples, seed=seed)
        if name not in ("orig", "gold"):
            asked = [r for r in ok if r.get("asked", True)]
            entry["diagnostics"] = ua_diagnostics(asked)
            entry["ask_rate"] = len(asked) / len(ok) if ok else None
            entry["score_when_asked"] = describe([r["restore_score_100"] for r in scored if r.get("asked", True)])["mean"]
            entry["score_when_not_asked"] = describe([r["restore_score_100"] for r in scored
                                                      if not r.get("asked", True)])["mean"]
        systems[name] = entry
    return {"protocol": "cts", "systems": systems, "n_instances": len({r["instance_id"] for r in results})}


def _costs(rows: Sequence[dict[str, Any]]) -> dict[str, float | None]:
    if not rows:
        return {"searches": None, "visits": None, "llm_calls": None, "prompt_tokens": None, "completion_tokens": None,
                "cost_usd": None}
    n = len(rows)
    return {
        "searches": sum(r["agent"]["searches"] for r in rows) / n,
        "visits": sum(r["agent"]["visits"] for r in rows) / n,
        "llm_calls": sum(r.get("llm_calls", 0) for r in rows) / n,
        "prompt_tokens": sum(u["prompt_tokens"] for r in rows for u in r.get("usage", {}).values()) / n,
        "completion_tokens": sum(u["completion_tokens"] for r in rows for u in r.get("usage", {}).values()) / n,
        "cost_usd": sum(r.get("cost_usd", 0.0) for r in rows) / n,
    }


def _system_order(name: str) -> tuple[int, str]:
    return ({"orig": 0, "gold": 99}.get(name, 1), name)
