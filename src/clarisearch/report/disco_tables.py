"""DiscoBench tables: the main table (utility, detection, clarification, cost), profiles, breakdowns."""

from __future__ import annotations

from typing import Any

from clarisearch.metrics.disco import PROFILES
from clarisearch.report.markdown import fmt, table, usage_table


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def disco_markdown(runs: list[tuple[str, dict[str, Any]]]) -> str:
    rows = [(label, group, e) for label, summary in runs for group, e in summary["groups"].items()]
    parts = ["## DiscoBench", "", "### Main table (percentages; costs per task)", "", table(
        ["run", "mode:setting:ablation", "n", "E2E acc", "CP pass", "Det. acc", "Det. P", "Det. R", "Det. F1", "CE-A", "CE-B",
         "asks", "searches", "visits", "turns", "prompt tok", "compl. tok", "cost $", "errors"],
        [[label, group, e["n"], _pct(e["e2e_accuracy"]), _pct(e["cp_pass_rate"]), _pct(e["detection"]["accuracy"]),
          _pct(e["detection"]["precision"]), _pct(e["detection"]["recall"]), _pct(e["detection"]["f1"]),
          _pct(e["clarification"]["ce_a"]), _pct(e["clarification"]["ce_b"]),
          *(fmt(e["cost"][c], 2) for c in ("asks", "searches", "visits", "turns", "prompt_tokens", "completion_tokens")),
          fmt(e["cost"].get("cost_usd"), 4),
          e["errors"]] for label, group, e in rows]), ""]
    parts += ["### Detection counts over reached checkpoints", "", table(
        ["run", "group", "TP", "FN", "FP", "TN", "undecided"],
        [[label, group, *(e["detection"][c] for c in ("tp", "fn", "fp", "tn", "undecided"))] for label, group, e in rows]), ""]
    parts += ["### Behaviour profiles of ambiguous checkpoints (K = 3): share / pass rate", "", table(
        ["run", "group", *PROFILES],
        [[label, group, *(f"{e['profiles'][p]['n']} / {_pct(e['profiles'][p]['pass_rate'])}" for p in PROFILES)]
         for label, group, e in rows]), ""]
    difficulty_rows = [[label, group, d, v["n"], _pct(v["e2e_accuracy"]), _pct(v["cp_pass_rate"])]
                       for label, group, e in rows for d, v in e["by_difficulty"].items()]
    parts += ["### By difficulty", "", table(["run", "group", "difficulty", "n", "E2E acc", "CP pass"], difficulty_rows), ""]
    type_rows = [[label, group, t, v["reached"], _pct(v["pass_rate"]), _pct(v["detection_recall"])]
                 for label, group, e in rows for t, v in e["by_ambiguity_type"].items()]
    if type_rows:
        parts += ["### By ambiguity type (reached ambiguous checkpoints)", "",
                  table(["run", "group", "type", "reached", "pass rate", "asked first"], type_rows), ""]
    domain_rows = [[label, group, d, v["n"], _pct(v["e2e_accuracy"]), _pct(v["cp_pass_rate"])]
                   for label, group, e in rows for d, v in e["by_domain"].items()]
    parts += ["### By domain", "", table(["run", "group", "domain", "n", "E2E acc", "CP pass"], domain_rows), ""]
    parts += ["### LLM usage per role (mean per episode)", "",
              usage_table([(label, group, e.get("usage_by_role", {})) for label, group, e in rows]), ""]
    parts += ["### Terminations", "", table(["run", "group", "terminations"],
              [[label, group, ", ".join(f"{k}: {v}" for k, v in e["terminations"].items())] for label, group, e in rows]), ""]
    return "\n".join(parts)
