from __future__ import annotations

import numpy as np
import pytest

from clarisearch.metrics.cts import restore_score_100, summarize_cts, ua_diagnostics
from clarisearch.metrics.stats import describe, paired_bootstrap_ci
from clarisearch.schema.results import NuggetVerdict


def v(label: str, weight: int) -> NuggetVerdict:
    return NuggetVerdict(nugget_id=f"n{weight}{label}", weight=weight, label=label)  # type: ignore[arg-type]


def test_restore_score_weights_and_partial_credit() -> None:
    # (3*1 + 2*0.5 + 1*0) / 6 * 100 = 66.67
    assert restore_score_100([v("full", 3), v("partial", 2), v("none", 1)]) == pytest.approx(400 / 6)
    assert restore_score_100([v("partial", 1)]) == 50.0
    assert restore_score_100([v("none", 3), v("none", 1)]) == 0.0
    with pytest.raises(ValueError):
        restore_score_100([])


def test_describe_percentiles() -> None:
    d = describe([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
    assert (d["mean"], d["p50"], d["p90"], d["min"], d["max"]) == (50.0, 50.0, 90.0, 0.0, 100.0)


def test_paired_bootstrap_ci_contains_true_difference_and_is_seeded() -> None:
    rng = np.random.default_rng(1)
    control = rng.normal(20, 10, 300)
    treatment = control + 5 + rng.normal(0, 4, 300)
    ci = paired_bootstrap_ci(list(treatment), list(control), resamples=10_000, seed=0)
    assert ci["ci_low"] < 5 < ci["ci_high"] and ci["ci_low"] > 0
    assert ci == paired_bootstrap_ci(list(treatment), list(control), resamples=10_000, seed=0)
    with pytest.raises(ValueError):
        paired_bootstrap_ci([1.0], [1.0, 2.0])


def clarify(iid: str, k: int, answers: list[str], types: list[list[str]], score: float | None = 50.0) -> dict:
    return {"key": f"cts|{iid}|k{k}|batch", "instance_id": iid, "system": "clarify", "k": k, "mode": "batch",
            "status": "ok", "answers": answers, "question_types": types, "questions": ["q"] * len(answers),
            "restore_score_100": score, "judge_parse_ok": score is not None, "agent": {"searches": 1, "visits": 2,
            "termination": "answered"}, "usage": {}, "llm_calls": 0}


def test_unknown_region_and_known_count_diagnostics() -> None:
    rows = [
        clarify("a", 2, ["unknown", "1921"], [["region"], ["time"]]),
        clarify("b", 2, ["unknown", "unknown"], [["region"], ["region", "time"]]),
        clarify("c", 2, ["Europe", "by area"], [["region"], ["definition"]]),
        clarify("d", 2, ["x", "y"], [["entity"], ["scope"]]),
    ]
    d = ua_diagnostics(rows)
    assert d["ua_unknown_rate"] == 3 / 8
    assert d["cq_region_rate"] == 4 / 8 and d["question_type_rates"]["time"] == 2 / 8
    assert d["region_only_count"] == 3 and d["region_only_unknown_rate"] == 2 / 3
    assert d["region_only_by_turn"] == {"1": {"count": 3, "unknown_rate": 2 / 3}}
    assert d["all_unknown_rate"] == 1 / 4
    assert d["known_cnt_dist"] == {"1": 1 / 4, "2": 2 / 4}


def test_summary_excludes_errors_and_parse_failures_from_scores() -> None:
    orig = {**clarify("a", 0, [], []), "system": "orig", "key": "cts|a|orig", "restore_score_100": 20.0}
    orig_b = {**orig, "instance_id": "b", "key": "cts|b|orig", "restore_score_100": 40.0}
    rows = [orig, orig_b, clarify("a", 1, ["1921"], [["time"]], 60.0),
            clarify("b", 1, ["unknown"], [["region"]], None),
            {**clarify("c", 1, [], []), "status": "error", "error_kind": "transient", "restore_score_100": None}]
    s = summarize_cts(rows, resamples=200)
    k1 = s["systems"]["k1"]
    assert k1["score"]["n"] == 1 and k1["score"]["mean"] == 60.0
    assert k1["errors"] == 1 and k1["error_kinds"] == {"transient": 1} and k1["judge_parse_failures"] == 1
    assert k1["delta_vs_orig"]["n"] == 1 and k1["delta_vs_orig"]["delta"] == 40.0
    assert s["systems"]["orig"]["score"]["mean"] == 30.0


def test_markdown_tables_carry_the_summary_numbers() -> None:
    from clarisearch.report.cts_tables import cts_markdown

    orig = {**clarify("a", 0, [], []), "system": "orig", "key": "cts|a|orig", "restore_score_100": 20.0}
    rows = [orig, clarify("a", 2, ["unknown", "unknown"], [["region"], ["region"]], 40.0)]
    summary = summarize_cts(rows, resamples=100)
    md = cts_markdown([("run", summary)])
    assert "| run | k2 | 1 | 40.000 (+20.000) |" in md
    assert "| k=2 | 2 | 1.000–1.000 |" in md  # Table 8: two (run, turn) cells, both all unknown
    assert "| run | k2 | 0.000 | 0.000 | 0.000 |" not in md and "| run | k2 | 1.000 | 0.000 | 0.000 |" in md  # Table 7
