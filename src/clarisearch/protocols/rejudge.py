"""Re-judge a finished CTS run with another coverage judge, without re-running any search."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

from clarisearch.llm.base import LLM
from clarisearch.metrics.cts import restore_score_100, summarize_cts
from clarisearch.protocols.common import build_roles
from clarisearch.protocols.cts_plan import load_cts
from clarisearch.runner.store import RESULTS, RunStore, append_jsonl
from clarisearch.schema.config import RunConfig
from clarisearch.schema.views import CoverageView


async def rejudge_run(source: Path, out: Path, judge_spec: str, overrides: dict[str, LLM] | None = None) -> dict[str, Any]:
    """Copy `source` into `out` with every episode's coverage judged again by `judge_spec`."""
    src = RunStore(source)
    config = RunConfig.model_validate({k: v for k, v in src.read_config().items() if k != "config_hash"})
    if config.protocol != "cts":
        raise ValueError(f"{source} is a {config.protocol} run; rejudge works on CTS runs")
    instances = {i.id: i for i in load_cts(config.model_copy(update={"limit": None}))}
    config.roles = {**config.roles, "judge": judge_spec}
    roles = build_roles(config, overrides)
    judge = roles.coverage_judge()
    if out.exists():
        shutil.rmtree(out)
    dst = RunStore(out)
    dst.init(config.model_dump(mode="json"), config.config_hash(),
             {**src.read_manifest(), "rejudged_from": str(source), "rejudged_at": time.time()})
    results = []
    for row in src.results():
        if row["status"] == "ok" and (inst := instances.get(row["instance_id"])) and inst.gold:
            verdict = await judge.judge(CoverageView(inst.fused_query, row["agent"]["answer"], tuple(inst.gold.nuggets),
                                                     inst.language))
            row = {**row, "coverage": [v.model_dump() for v in verdict.verdicts], "judge_parse_ok": verdict.parse_ok,
                   "judge_raw": verdict.raw, "judge_model": judge.model_id,
                   "restore_score_100": restore_score_100(verdict.verdicts) if verdict.parse_ok else None}
        append_jsonl(out / RESULTS, row)
        results.append(row)
    summary = {"config_hash": config.config_hash(), "roles": config.roles, **summarize_cts(results, seed=config.seed)}
    dst.write_summary(summary)
    (out / "REJUDGED_FROM").write_text(json.dumps({"source": str(source), "judge": judge_spec}))
    return summary
