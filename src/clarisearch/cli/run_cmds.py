"""`clarisearch run cts|disco`, `qc`, `resume`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from clarisearch.cli.common import (
    console,
    default_out,
    field_map,
    friendly_errors,
    load_providers,
    print_summary_hint,
    role_bindings,
    search_spec,
)
from clarisearch.runner.execute import execute
from clarisearch.runner.store import RunStore
from clarisearch.schema.config import RunConfig

run_app = typer.Typer(help="Run a benchmark protocol.", no_args_is_help=True)

Data = Annotated[str, typer.Option("--data", help="dataset JSONL/JSON, or 'demo' for the bundled set")]
Model = Annotated[str | None, typer.Option("--model", help="bind every role to this model spec (default: rules)")]
Role = Annotated[list[str] | None, typer.Option("--role", help="NAME=SPEC for one role, e.g. clarifier=openai/gpt-4o")]
Search = Annotated[str | None, typer.Option("--search", help="demo | local:INDEX_DIR | corpus:FILE | tavily | serper")]
Corpus = Annotated[Path | None, typer.Option("--corpus", help="corpus file/folder; indexed on first use")]
Out = Annotated[Path | None, typer.Option("--out", help="run directory (default runs/<protocol>-<time>)")]
Limit = Annotated[int | None, typer.Option("--limit", help="only the first N instances")]
Concurrency = Annotated[int, typer.Option("--concurrency", help="episodes run at once")]
Cache = Annotated[str, typer.Option("--cache", help="use | replay (fail on miss) | refresh | off")]
Snapshot = Annotated[Path | None, typer.Option("--snapshot", help="record/replay search results to this JSONL")]
SnapshotMode = Annotated[str, typer.Option("--snapshot-mode", help="record | replay")]
FieldMap = Annotated[list[str] | None, typer.Option("--field-map", help="canonical=source field renames")]
CorpusFieldMap = Annotated[list[str] | None, typer.Option("--corpus-field-map", help="field renames for --corpus")]
Quiet = Annotated[bool, typer.Option("--quiet", help="no progress bar")]
ToolFormat = Annotated[str, typer.Option("--tool-format", help="tags (ReAct <tool_call>) | native (function calling)")]
Providers = Annotated[Path | None, typer.Option("--providers", help="TOML/JSON file of provider endpoints and prices")]


def check_tool_format(value: str) -> str:
    if value not in ("tags", "native"):
        raise typer.BadParameter("tool format must be tags or native", param_hint="--tool-format")
    return value


def _start(config: RunConfig, out: Path | None, quiet: bool) -> None:
    run_dir = out or default_out(config.protocol)
    summary = execute(config, run_dir, progress=not quiet)
    print_summary_hint(run_dir, summary)


@run_app.command("cts")
@friendly_errors
def run_cts(
    data: Data = "demo",
    k: Annotated[list[int] | None, typer.Option("--k", help="clarification budgets, e.g. --k 1 2 3")] = None,
    mode: Annotated[list[str] | None, typer.Option("--mode", help="batch (paper) and/or adaptive")] = None,
    gold: Annotated[bool, typer.Option("--gold/--no-gold", help="also run the agent on the fused query")] = False,
    ask_gate: Annotated[bool, typer.Option("--ask-gate/--always-ask",
                                           help="let the clarifier first decide whether to ask at all")] = False,
    clarifier_prompt: Annotated[str, typer.Option("--clarifier-prompt", help="paper | reference")] = "paper",
    model: Model = None, role: Role = None, search: Search = None, corpus: Corpus = None, out: Out = None,
    limit: Limit = None, concurrency: Concurrency = 4, cache: Cache = "use", snapshot: Snapshot = None,
    snapshot_mode: SnapshotMode = "record", fmap: FieldMap = None, cfmap: CorpusFieldMap = None,
    max_llm_calls: Annotated[int, typer.Option(help="agent LLM-call budget per episode")] = 40,
    seed: Annotated[int, typer.Option(help="bootstrap seed")] = 0,
    tool_format: ToolFormat = "tags", providers: Providers = None, quiet: Quiet = False,
) -> None:
    """Clarify-Then-Search: orig, (gold), and clarify -> answer -> rewrite -> search -> judge per k."""
    if clarifier_prompt not in ("paper", "reference"):
        raise typer.BadParameter("clarifier prompt must be paper or reference", param_hint="--clarifier-prompt")
    modes = mode or ["batch"]
    for m in modes:
        if m not in ("batch", "adaptive"):
            raise typer.BadParameter("mode must be batch or adaptive", param_hint="--mode")
    config = RunConfig(protocol="cts", data=data, field_map=field_map(fmap), corpus_field_map=field_map(cfmap), limit=limit,
                       roles=role_bindings(model, role), providers=load_providers(providers),
                       tool_format=check_tool_format(tool_format), search=search_spec(search, corpus, data),
                       snapshot=str(snapshot) if snapshot else None, snapshot_mode=snapshot_mode if snapshot else None,
                       ks=sorted(set(k or [1])), modes=modes, include_gold=gold, ask_gate=ask_gate,
                       clarifier_prompt=clarifier_prompt,
                       budgets={"max_llm_calls": max_llm_calls}, seed=seed, concurrency=concurrency, cache_mode=cache)
    _start(config, out, quiet)


@run_app.command("disco")
@friendly_errors
def run_disco(
    data: Data = "demo",
    setting: Annotated[str, typer.Option(help="neutral | guided system prompt")] = "neutral",
    ablation: Annotated[str, typer.Option(help="none | no-search | unambiguous")] = "none",
    model: Model = None, role: Role = None, search: Search = None, corpus: Corpus = None, out: Out = None,
    limit: Limit = None, concurrency: Concurrency = 4, cache: Cache = "use", snapshot: Snapshot = None,
    snapshot_mode: SnapshotMode = "record", fmap: FieldMap = None, cfmap: CorpusFieldMap = None,
    max_turns: Annotated[int, typer.Option(help="agent turns per episode")] = 12,
    max_searches: Annotated[int, typer.Option(help="searches per episode")] = 25,
    max_tokens: Annotated[int | None, typer.Option(help="tokens per episode (prompt + completion)")] = None,
    tool_format: ToolFormat = "tags", providers: Providers = None, quiet: Quiet = False,
) -> None:
    """DiscoBench: interactive checkpointed episodes with the clue-releasing user simulator."""
    if setting not in ("neutral", "guided"):
        raise typer.BadParameter("setting must be neutral or guided", param_hint="--setting")
    if ablation not in ("none", "no-search", "unambiguous"):
        raise typer.BadParameter("ablation must be none, no-search or unambiguous", param_hint="--ablation")
    config = RunConfig(protocol="disco", data=data, field_map=field_map(fmap), corpus_field_map=field_map(cfmap), limit=limit,
                       roles=role_bindings(model, role), providers=load_providers(providers),
                       tool_format=check_tool_format(tool_format), search=search_spec(search, corpus, data),
                       snapshot=str(snapshot) if snapshot else None, snapshot_mode=snapshot_mode if snapshot else None,
                       setting=setting, ablation=ablation,
                       budgets={"max_turns": max_turns, "max_searches": max_searches, "max_tokens": max_tokens},
                       concurrency=concurrency, cache_mode=cache)
    _start(config, out, quiet)


@friendly_errors
def qc(
    mode: Annotated[str, typer.Option("--mode", help="closed-book | open-book")],
    data: Data = "demo", model: Model = None, role: Role = None, search: Search = None, corpus: Corpus = None,
    out: Out = None, limit: Limit = None, concurrency: Concurrency = 4, cache: Cache = "use", fmap: FieldMap = None,
    cfmap: CorpusFieldMap = None,
    max_searches: Annotated[int, typer.Option(help="open-book search cap")] = 25,
    tool_format: ToolFormat = "tags", providers: Providers = None, quiet: Quiet = False,
) -> None:
    """DiscoBench QC probing: closed-book (no tools, must guess) or open-book (<= 25 searches, no asking)."""
    if mode not in ("closed-book", "open-book"):
        raise typer.BadParameter("mode must be closed-book or open-book", param_hint="--mode")
    config = RunConfig(protocol="qc", data=data, field_map=field_map(fmap), corpus_field_map=field_map(cfmap), limit=limit, roles=role_bindings(model, role),
                       providers=load_providers(providers), tool_format=check_tool_format(tool_format),
                       search=search_spec(search, corpus, data) if mode == "open-book" else "demo",
                       qc_mode=mode, budgets={"max_searches": max_searches, "max_turns": 1},
                       concurrency=concurrency, cache_mode=cache)
    _start(config, out, quiet)


@friendly_errors
def resume(
    run_dir: Annotated[Path, typer.Argument(help="a run directory")],
    concurrency: Annotated[int | None, typer.Option(help="override concurrency")] = None,
    quiet: Quiet = False,
) -> None:
    """Finish a killed or failed run: finished episodes are kept, errored ones retried; refuses a changed config."""
    store = RunStore(run_dir)
    if not store.exists:
        raise FileNotFoundError(f"{run_dir} is not a run directory (no config.json)")
    stored = {k: v for k, v in store.read_config().items() if k != "config_hash"}
    config = RunConfig.model_validate(stored)
    if concurrency:
        config.concurrency = concurrency
    summary = execute(config, run_dir, progress=not quiet, resuming=True)
    console.print(f"[green]resumed and completed:[/] {run_dir}")
    del summary


@friendly_errors
def demo(
    out: Annotated[Path, typer.Option("--out", help="folder for the runs and the report")] = Path("runs/demo"),
    limit: Limit = None, quiet: Quiet = False,
) -> None:
    """The main job on embedded defaults: both protocols on the bundled demo data, local index, rule-based
    roles (no model or key needed), then the report. Bind real models with `run cts|disco --model ...`."""
    from clarisearch.report.build import build_report

    roles = role_bindings(None, None)
    cts = RunConfig(protocol="cts", data="demo", search="demo", roles=roles, ks=[1, 2, 3], modes=["batch"],
                    include_gold=True, limit=limit)
    runs = [out / "cts"]
    execute(cts, runs[0], progress=not quiet)
    for setting in ("neutral", "guided"):
        disco_config = RunConfig(protocol="disco", data="demo", search="demo", roles=roles, setting=setting, limit=limit)
        runs.append(out / f"disco-{setting}")
        execute(disco_config, runs[-1], progress=not quiet)
    result = build_report(runs, out, html=True)
    typer.echo(result["markdown"])
    console.print(f"[green]report:[/] {', '.join(str(p) for p in result['files'])}")
