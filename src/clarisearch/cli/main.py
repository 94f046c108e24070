"""Entry point: `clarisearch --help`."""

from __future__ import annotations

import sys

import typer

from clarisearch import __version__
from clarisearch.cli.common import expand_multi_value_options, friendly_errors
from clarisearch.cli.data_cmds import data_app, index_app, prompts_app, search_cmd
from clarisearch.cli.report_cmds import report
from clarisearch.cli.run_cmds import demo, qc, resume, run_app

app = typer.Typer(
    name="clarisearch",
    help="Clarification-aware deep search: run DiscoBench and Clarify-Then-Search end to end, offline or on any "
    "OpenAI-compatible model, and report the papers' tables.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(run_app, name="run")
app.add_typer(data_app, name="data")
app.add_typer(index_app, name="index")
app.add_typer(prompts_app, name="prompts")
app.command("search")(friendly_errors(search_cmd))
app.command("demo")(demo)
app.command("qc")(qc)
app.command("resume")(resume)
app.command("report")(report)


def _register_optional() -> None:
    from clarisearch.cli import extra_cmds

    extra_cmds.register(app)


@app.callback(invoke_without_command=True)
def _root(version: bool = typer.Option(False, "--version", help="print the version")) -> None:
    if version:
        typer.echo(__version__)
        raise typer.Exit()


def main() -> None:
    _register_optional()
    sys.argv[1:] = expand_multi_value_options(sys.argv[1:])
    app()


if __name__ == "__main__":
    main()
