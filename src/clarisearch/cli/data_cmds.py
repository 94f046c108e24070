"""`clarisearch data ...`, `index build`, `search`, `prompts`."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer
from pydantic import BaseModel
from rich.table import Table

from clarisearch import prompts as prompt_store
from clarisearch.cli.common import console, err_console, field_map, friendly_errors
from clarisearch.schema.corpus import CorpusDoc
from clarisearch.schema.cts import CtsInstance
from clarisearch.schema.disco import DiscoSample
from clarisearch.schema.loader import DataError, validate_file
from clarisearch.search.corpus import iter_corpus
from clarisearch.search.factory import demo_path, open_search
from clarisearch.search.local import build_index

data_app = typer.Typer(help="Validate and inspect datasets.", no_args_is_help=True)
index_app = typer.Typer(help="Build the local search index.", no_args_is_help=True)
prompts_app = typer.Typer(help="List and show prompt templates.", no_args_is_help=True)

KINDS: dict[str, type[BaseModel]] = {"disco": DiscoSample, "cts": CtsInstance, "corpus": CorpusDoc}
FieldMapOpt = Annotated[list[str] | None, typer.Option("--field-map", help="canonical=source field renames, e.g. id=qid")]


@data_app.command("validate")
@friendly_errors
def validate(
    file: Annotated[str, typer.Argument(help="JSONL/JSON file (or 'demo')")],
    kind: Annotated[str, typer.Option(help="disco | cts | corpus")],
    fmap: FieldMapOpt = None,
) -> None:
    """Report every problem of a dataset at once (file, line, field); exit 1 if there is any."""
    if kind not in KINDS:
        raise typer.BadParameter(f"kind must be one of {', '.join(KINDS)}", param_hint="--kind")
    path = demo_path({"disco": "disco.jsonl", "cts": "cts.jsonl", "corpus": "corpus"}[kind]) if file == "demo" else Path(file)
    if kind == "corpus":
        try:
            count = sum(1 for _ in iter_corpus(path, field_map(fmap)))
            problems = []
        except DataError as exc:
            problems, count = exc.problems, 0
    else:
        problems = validate_file(path, KINDS[kind], field_map(fmap))
        count = 0
    if problems:
        for problem in problems:
            err_console.print(f"[red]✗[/] {problem}", highlight=False)
        err_console.print(f"[bold red]{len(problems)} problem(s)[/] in {path}")
        raise typer.Exit(1)
    if kind != "corpus":
        from clarisearch.schema.loader import load_records

        count = len(load_records(path, KINDS[kind], field_map(fmap)))
    console.print(f"[green]✓[/] {path}: {count} valid {kind} record(s)")


@index_app.command("build")
@friendly_errors
def index_build(
    corpus: Annotated[str, typer.Argument(help="corpus JSONL/JSON file or folder ('demo' for the bundled one)")],
    out: Annotated[str, typer.Option("--out", help="index folder to create, or http://host:9200/INDEX for Elasticsearch/OpenSearch")],
    fmap: FieldMapOpt = None,
) -> None:
    """Build a deterministic tantivy index (one writer thread; ties broken by doc id), or load an
    Elasticsearch/OpenSearch index (then search with `--search elastic:URL/INDEX`)."""
    source = demo_path("corpus") if corpus == "demo" else corpus
    if out.startswith(("http://", "https://")):
        from clarisearch.search.elastic import ElasticSearch

        count = asyncio.run(ElasticSearch(out).build(iter_corpus(source, field_map(fmap))))
        console.print(f"[green]✓[/] loaded {count} documents into {out}")
        return
    meta = build_index(source, Path(out), field_map(fmap))
    console.print(f"[green]✓[/] indexed {meta['n_docs']} documents into {out} in {meta['build_seconds']} s")


def search_cmd(
    index: Annotated[str, typer.Argument(help="index folder, or a search spec (demo, corpus:FILE, ...)")],
    query: Annotated[str, typer.Argument(help="the query")],
    k: Annotated[int, typer.Option("--k", help="number of hits")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Search an index from the command line and print ranked hits."""
    spec = f"local:{index}" if Path(index).is_dir() else index
    backend = open_search(spec)
    hits = asyncio.run(backend.search([query], k))[0]
    if as_json:
        console.print_json(json.dumps([h.to_dict() for h in hits], ensure_ascii=False))
        return
    table = Table(title=f"{len(hits)} hit(s) for {query!r}", show_lines=True)
    for column in ("rank", "doc id", "title", "score", "snippet"):
        table.add_column(column, overflow="fold")
    for hit in hits:
        table.add_row(str(hit.rank), hit.doc_id, hit.title, f"{hit.score:.3f}", hit.snippet)
    console.print(table)


@prompts_app.command("list")
def prompts_list() -> None:
    """Every prompt template with its placeholders and content hash."""
    hashes = prompt_store.hashes()
    for name in prompt_store.names():
        console.print(f"{name:24s} {hashes[name]}  {{{{{', '.join(prompt_store.placeholders(name))}}}}}")


@prompts_app.command("show")
def prompts_show(name: str) -> None:
    """Print one template."""
    console.print(prompt_store.template(name), markup=False, highlight=False)
