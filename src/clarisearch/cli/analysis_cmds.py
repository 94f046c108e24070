"""`clarisearch build-gold`, `rejudge`, and `analyze ...` (robustness analyses over existing runs)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer

from clarisearch.cli.common import (
    console,
    field_map,
    friendly_errors,
    load_providers,
    role_bindings,
    search_spec,
)
from clarisearch.metrics.robustness import judge_stability, rewrite_protocol, rewrite_similarity, ua_agreement
from clarisearch.protocols.cts_plan import load_cts
from clarisearch.report.build import load_run
from clarisearch.report.markdown import fmt, table
from clarisearch.schema.config import RunConfig

analyze_app = typer.Typer(help="Robustness analyses over existing CTS runs.", no_args_is_help=True)


@friendly_errors
def build_gold_cmd(
    data: Annotated[Path, typer.Option("--data", help="CTS file with fused/blurred queries (gold optional)")],
    out: Annotated[Path, typer.Option("--out", help="CTS file to write, with gold nuggets (resumable)")],
    model: Annotated[str | None, typer.Option("--model", help="bind every role (default rules)")] = None,
    role: Annotated[list[str] | None, typer.Option("--role", help="NAME=SPEC, e.g. extractor=openai/gpt-4o")] = None,
    search: Annotated[str | None, typer.Option("--search", help="demo | local:INDEX | corpus:FILE | tavily | serper")] = None,
    corpus: Annotated[Path | None, typer.Option("--corpus", help="corpus to index")] = None,
    limit: Annotated[int | None, typer.Option("--limit")] = None,
    fmap: Annotated[list[str] | None, typer.Option("--field-map")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency")] = 4,
    providers: Annotated[Path | None, typer.Option("--providers", help="TOML/JSON provider endpoints")] = None,
) -> None:
    """Run the agent once per fused query, archive its trace, extract weighted nuggets with evidence ids."""
    from clarisearch.protocols.gold import build_gold

    config = RunConfig(protocol="gold", data=str(data), field_map=field_map(fmap), limit=limit,
                       roles=role_bindings(model, role), providers=load_providers(providers),
                       search=search_spec(search, corpus, "file"))
    result = asyncio.run(build_gold(config, data, out, concurrency=concurrency))
    console.print_json(json.dumps(result))
    console.print(f"[green]wrote[/] {out} (validate with: clarisearch data validate {out} --kind cts)")


@friendly_errors
def rejudge_cmd(
    run: Annotated[Path, typer.Argument(help="a CTS run directory")],
    judge: Annotated[str, typer.Option("--judge", help="model spec of the new coverage judge")],
    out: Annotated[Path, typer.Option("--out", help="new run directory")],
) -> None:
    """Judge a run's answers again with another judge backbone (no search is re-run)."""
    from clarisearch.protocols.rejudge import rejudge_run

    asyncio.run(rejudge_run(run, out, judge))
    console.print(f"[green]re-judged[/] {run} -> {out}")


@analyze_app.command("ua-agreement")
@friendly_errors
def ua_agreement_cmd(run_a: Path, run_b: Path) -> None:
    """Known/unknown agreement of two UA backbones, and the similarity of their rewrites."""
    a, b = load_run(run_a), load_run(run_b)
    agree, sim = ua_agreement(a.results, b.results), rewrite_similarity(a.results, b.results)
    typer.echo(table(["pair", "question pairs", "UA agree", "unknown A", "unknown B", "rewrite pairs", "rewrite sim."],
                     [[f"{a.label} vs {b.label}", agree["pairs"], fmt(agree["ua_agreement"]), fmt(agree["unknown_rate_a"]),
                       fmt(agree["unknown_rate_b"]), sim["pairs"], fmt(sim["rewrite_similarity"])]]))


@analyze_app.command("rewrites")
@friendly_errors
def rewrites_cmd(runs: list[Path]) -> None:
    """Unknown preservation and unsupported concretization of each run's rewriter."""
    rows = []
    for path in runs:
        run = load_run(path)
        config = RunConfig.model_validate({k: v for k, v in run.config.items() if k != "config_hash"})
        blurred = {i.id: i.blurred_query for i in load_cts(config.model_copy(update={"limit": None}))}
        stats = rewrite_protocol(run.results, blurred)
        rows.append([run.label, stats["episodes"], stats["unknown_answers"], fmt(stats["unknown_preservation"]),
                     fmt(stats["unsupported_concretization_rate"])])
    typer.echo(table(["run", "episodes", "unknown answers", "unknown preserv.", "unsupported concretization"], rows))


@analyze_app.command("judge-stability")
@friendly_errors
def judge_stability_cmd(runs: list[Path]) -> None:
    """Table 9: system means under each judge run, and whether the ordering is the same."""
    loaded = [load_run(p) for p in runs]
    result = judge_stability([(r.label, r.results) for r in loaded])
    systems = sorted({s for j in result["judges"].values() for s in j["means"]})
    rows = [[label, *(fmt(j["means"].get(s), 2) for s in systems), " > ".join(j["ordering"])]
            for label, j in result["judges"].items()]
    typer.echo(table(["judge run", *systems, "ordering"], rows))
    typer.echo(f"\nordering stable across judges: {fmt(result['stable'])}")
