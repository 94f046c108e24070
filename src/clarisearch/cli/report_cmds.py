"""`clarisearch report`: the seeds' tables from one or more runs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from clarisearch.cli.common import console, friendly_errors
from clarisearch.report.build import build_report


@friendly_errors
def report(
    runs: Annotated[list[Path], typer.Argument(help="one or more run directories")],
    out: Annotated[Path | None, typer.Option("--out", help="write report.md (and report.html) into this folder")] = None,
    fmt: Annotated[str, typer.Option("--format", help="md | json | html")] = "md",
) -> None:
    """Print (or write) the Markdown tables; `--format json` for machines."""
    if fmt not in ("md", "json", "html"):
        raise typer.BadParameter("format must be md, json or html", param_hint="--format")
    result: dict[str, Any] = build_report(runs, out, html=fmt == "html" or out is not None)
    if fmt == "json":
        console.print_json(json.dumps(result["data"], default=str))
    else:
        typer.echo(result["markdown"])
    if out is not None:
        console.print(f"[green]wrote[/] {', '.join(str(p) for p in result['files'])}")
