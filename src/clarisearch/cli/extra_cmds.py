"""Command groups beyond run/report: gold construction, re-judging, analyses, the viewer."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Attach the extra command groups to the main app."""
    from clarisearch.cli.analysis_cmds import analyze_app, build_gold_cmd, rejudge_cmd
    from clarisearch.cli.view_cmds import view

    app.command("build-gold")(build_gold_cmd)
    app.command("rejudge")(rejudge_cmd)
    app.add_typer(analyze_app, name="analyze")
    app.command("view")(view)
