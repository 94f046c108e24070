"""CTS tables in the paper's shapes (Tables 2-7 and 10), one row per run/system."""

from __future__ import annotations

from typing import Any

from clarisearch.report.markdown import fmt, signed, table, usage_table


def _runs_systems(runs: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, str, dict[str, Any]]]:
    rows = []
    for label, summary in runs:
        for system, entry in summary["systems"].items():
            rows.append((label, system, entry))
    return rows


def _k_of(system: str) -> int | None:
    return int(system[1:].split("-")[0]) if system.startswith("k") else None


def cts_markdown(runs: list[tuple[str, dict[str, Any]]]) -> str:
    """Every CTS table for the given (label, summary) runs."""
    rows = _runs_systems(runs)
    parts = ["## Clarify-Then-Search", ""]
    # Table 2 / 6: restore_score_100 distribution per system.
    main = []
    for label, system, e in rows:
        s = e["score"]
        delta = e.get("delta_vs_orig", {}).get("delta")
        mean = f"{fmt(s['mean'])} ({signed(delta)})" if delta is not None else fmt(s["mean"])
        main.append([label, system, s["n"], mean, fmt(s["p50"]), fmt(s["p90"]), fmt(s["min"]), fmt(s["max"]),
                     e["errors"], e["judge_parse_failures"]])
    parts += ["### restore_score_100 by system (Tables 2 and 6)", "",
              table(["run", "system", "n", "mean (Δ vs orig)", "p50", "p90", "min", "max", "errors", "judge parse fail"], main), ""]
    # Table 3: Δ with paired bootstrap CI.
    ci = [[label, system, d["n"], signed(d["delta"]), f"[{fmt(d['ci_low'])}, {fmt(d['ci_high'])}]"]
          for label, system, e in rows if (d := e.get("delta_vs_orig")) and d.get("delta") is not None]
    parts += ["### Mean improvement over orig with paired bootstrap 95% CI (Table 3)", "",
              table(["run", "system", "n pairs", "mean Δ", "95% CI"], ci) if ci else "_no paired orig scores_", ""]
    gated = [[label, system, fmt(e["ask_rate"]), fmt(e["score_when_asked"]), fmt(e["score_when_not_asked"])]
             for label, system, e in rows if e.get("ask_rate") is not None and e["ask_rate"] < 1]
    if gated:
        parts += ["### Ask-or-not gate", "",
                  table(["run", "system", "ask rate", "mean score when asked", "mean score when not asked"], gated), ""]
    diag = [(label, system, e["diagnostics"]) for label, system, e in rows if "diagnostics" in e]
    if diag:
        parts += ["### UA diagnostics (Table 4)", "", table(
            ["run", "system", "questions", "ua_unknown_rate", "cq_region_rate", "time", "entity", "scope", "definition", "other"],
            [[label, system, d["n_questions"], fmt(d["ua_unknown_rate"]), fmt(d["cq_region_rate"]),
              *(fmt(d["question_type_rates"][t]) for t in ("time", "entity", "scope", "definition", "other"))]
             for label, system, d in diag]), ""]
        parts += ["### Region-only clarification (Table 5)", "", table(
            ["run", "system", "#region-only", "region-only unknown"],
            [[label, system, d["region_only_count"], fmt(d["region_only_unknown_rate"])] for label, system, d in diag]), ""]
        max_k = max((_k_of(system) or 1) for _, system, _ in diag)
        known_headers = [f"known_cnt={i}" for i in range(1, max_k + 1)]
        parts += ["### Interaction-level unknown diagnostics (Table 7)", "", table(
            ["run", "system", "all_unknown", *known_headers],
            [[label, system, fmt(d["all_unknown_rate"]),
              *(fmt(d["known_cnt_dist"].get(str(i), 0.0)) if i <= (_k_of(system) or 1) else "–" for i in range(1, max_k + 1))]
             for label, system, d in diag]), ""]
        by_k: dict[int, list[float]] = {}
        for _, system, d in diag:
            for v in d["region_only_by_turn"].values():
                by_k.setdefault(_k_of(system) or 1, []).append(v["unknown_rate"])
        range_rows = [[f"k={k}", len(rates), f"{min(rates):.3f}–{max(rates):.3f}"] for k, rates in sorted(by_k.items())]
        parts += ["### Region-only unknown range across runs and turns (Table 8)", "",
                  table(["setting", "(run, turn) cells", "region-only unknown range"], range_rows) if range_rows
                  else "_no region-only questions_", ""]
        turn_rows = [[label, system, turn, v["count"], fmt(v["unknown_rate"])]
                     for label, system, d in diag for turn, v in d["region_only_by_turn"].items()]
        parts += ["### Turn-level region-only unknown rate (Table 10)", "",
                  table(["run", "system", "turn", "#region-only", "region-only unknown"], turn_rows) if turn_rows
                  else "_no region-only questions_", ""]
    cost = [[label, system, *(fmt(e["cost"][c], 1) for c in ("searches", "visits", "llm_calls", "prompt_tokens", "completion_tokens")),
             fmt(e["cost"].get("cost_usd"), 4),
             ", ".join(f"{k}: {v}" for k, v in e["terminations"].items())] for label, system, e in rows]
    parts += ["### Cost per episode and agent terminations", "",
              table(["run", "system", "searches", "visits", "LLM calls", "prompt tok", "completion tok", "cost $",
                     "terminations"], cost), "",
              "### LLM usage per role (mean per episode)", "",
              usage_table([(label, system, e.get("usage_by_role", {})) for label, system, e in rows]), ""]
    return "\n".join(parts)
