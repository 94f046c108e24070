"""DiscoBench metrics (seed appendix B): E2E accuracy, checkpoint pass rate, detection, CE-A/CE-B,
costs, behaviour profiles and breakdowns. Question-level scores are averaged over valid questions;
detection and clarification counts are pooled over reached checkpoints."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from clarisearch.metrics.usage import usage_by_role

PROFILE_K = 3
PROFILES = ("DirectGuess", "SearchHeavyGuess", "DirectAsk", "SearchThenAsk")


def profile_of(cp: Any, k: int = PROFILE_K) -> str | None:
    """Behaviour profile of an ambiguous checkpoint trajectory (None if the agent never decided)."""
    if isinstance(cp, dict):
        decision, searches = cp["first_decision"], int(cp["searches_before_decision"])
    else:
        decision, searches = cp.first_decision, int(cp.searches_before_decision)
    if decision == "ask":
        return "DirectAsk" if searches == 0 else "SearchThenAsk"
    if decision == "answer":
        return "DirectGuess" if searches < k else "SearchHeavyGuess"
    return None


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


def detection(checkpoints: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """TP = ambi & asked first, FN = ambi & answered first, FP = unambi & asked, TN = unambi & answered."""
    decided = [c for c in checkpoints if c["reached"] and c["first_decision"] is not None]
    tp = sum(c["type"] == "ambi" and c["first_decision"] == "ask" for c in decided)
    fn = sum(c["type"] == "ambi" and c["first_decision"] == "answer" for c in decided)
    fp = sum(c["type"] == "unambi" and c["first_decision"] == "ask" for c in decided)
    tn = sum(c["type"] == "unambi" and c["first_decision"] == "answer" for c in decided)
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    f1 = (2 * precision * recall / (precision + recall)) if precision and recall else (0.0 if tp + fp + fn else None)
    return {"tp": tp, "fn": fn, "fp": fp, "tn": tn, "accuracy": _ratio(tp + tn, len(decided)),
            "precision": precision, "recall": recall, "f1": f1,
            "undecided": sum(c["reached"] and c["first_decision"] is None for c in checkpoints)}


def clarification_effectiveness(checkpoints: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """CE-A / CE-B with checkpoints where the agent asked as the denominator (seed B.4)."""
    asked = [c for c in checkpoints if c["asks"] > 0]
    right = [c for c in asked if c["right_asks"] > 0]
    total_asks = sum(c["asks"] for c in checkpoints)
    return {"asked_checkpoints": len(asked), "ce_a": _ratio(len(right), len(asked)),
            "ce_b": _ratio(sum(c["advanced"] for c in right), len(asked)),
            "asks": total_asks, "right_asks_per_ask": _ratio(sum(c["right_asks"] for c in checkpoints), total_asks)}


def profiles(checkpoints: Sequence[dict[str, Any]], k: int = PROFILE_K) -> dict[str, Any]:
    ambi = [c for c in checkpoints if c["reached"] and c["type"] == "ambi"]
    table: dict[str, Any] = {}
    for name in PROFILES:
        rows = [c for c in ambi if profile_of(c, k) == name]
        table[name] = {"n": len(rows), "share": _ratio(len(rows), len(ambi)),
                       "pass_rate": _ratio(sum(c["advanced"] for c in rows), len(rows))}
    table["undecided"] = {"n": sum(profile_of(c, k) is None for c in ambi)}
    return table


def _question_scores(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    e2e = [r["e2e_correct"] for r in rows if r.get("e2e_correct") is not None]
    passes = [sum(c["advanced"] for c in r["checkpoints"]) / r["n_checkpoints"] for r in rows
              if r["n_checkpoints"] and r.get("mode", "interactive") == "interactive"]  # QC probes have no dialogue
    return {"n": len(rows), "e2e_accuracy": _ratio(sum(e2e), len(e2e)), "cp_pass_rate": _ratio(sum(passes), len(passes))}


def _tokens(row: dict[str, Any], kind: str) -> int:
    return sum(int(u[kind]) for u in row.get("usage", {}).values())


def _costs(rows: Sequence[dict[str, Any]]) -> dict[str, float | None]:
    n = len(rows)
    totals = {
        "searches": sum(r["searches"] for r in rows), "visits": sum(r["visits"] for r in rows),
        "asks": sum(r["asks"] for r in rows), "turns": sum(len(r["turns"]) for r in rows),
        "prompt_tokens": sum(_tokens(r, "prompt_tokens") for r in rows),
        "completion_tokens": sum(_tokens(r, "completion_tokens") for r in rows),
        "cost_usd": sum(float(r.get("cost_usd", 0.0)) for r in rows),
    }
    return {name: _ratio(total, n) for name, total in totals.items()}


def summarize_disco(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The run summary, grouped by (setting, ablation) so a report can put settings side by side."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        groups[f"{r.get('mode', 'interactive')}:{r['setting']}:{r['ablation']}"].append(r)
    out: dict[str, Any] = {}
    for name, rows in sorted(groups.items()):
        ok = [r for r in rows if r["status"] == "ok"]
        cps = [c for r in ok for c in r["checkpoints"]]
        entry = {
            **_question_scores(ok),
            "episodes": len(rows), "errors": len(rows) - len(ok),
            "error_kinds": dict(Counter(r.get("error_kind") for r in rows if r["status"] == "error")),
            "judge_parse_failures": sum(not r.get("judge_parse_ok", True) for r in ok),
            "detection": detection(cps), "clarification": clarification_effectiveness(cps),
            "cost": _costs(ok), "usage_by_role": usage_by_role(ok), "profiles": profiles(cps),
            "terminations": dict(Counter(r["termination"] for r in ok)),
            "by_difficulty": {d: _question_scores([r for r in ok if r["difficulty"] == d])
                              for d in sorted({r["difficulty"] for r in ok})},
            "by_domain": {d: _question_scores([r for r in ok if r["domain"] == d]) for d in sorted({r["domain"] for r in ok})},
            "by_ambiguity_type": _by_ambiguity_type(cps),
        }
        out[name] = entry
    return {"protocol": "disco", "groups": out, "n_instances": len({r["instance_id"] for r in results})}


def _by_ambiguity_type(cps: Sequence[dict[str, Any]]) -> dict[str, Any]:
    table = {}
    for kind in sorted({c["ambiguity_type"] for c in cps if c["ambiguity_type"]}):
        rows = [c for c in cps if c["ambiguity_type"] == kind and c["reached"]]
        asked = [c for c in rows if c["first_decision"] == "ask"]
        table[kind] = {"reached": len(rows), "pass_rate": _ratio(sum(c["advanced"] for c in rows), len(rows)),
                       "detection_recall": _ratio(len(asked), sum(c["first_decision"] is not None for c in rows))}
    return table
