"""`clarisearch view`: browse every episode of one or more runs, turn by turn, in a local web page."""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from clarisearch.cli.common import console, friendly_errors


@friendly_errors
def view(
    runs: Annotated[list[Path], typer.Argument(help="one or more run directories")],
    host: Annotated[str, typer.Option("--host", help="address to listen on (keep 127.0.0.1 unless you need remote access)")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on (0 = any free port)")] = 8765,
    open_browser: Annotated[bool, typer.Option("--open/--no-open", help="open the viewer in the default browser")] = False,
) -> None:
    """Serve the trajectory viewer until Ctrl-C: filters, full trajectories, judge verdicts, two runs side by side."""
    from clarisearch.viewer import serve

    server, url = serve(runs, host=host, port=port, quiet=True)
    console.print(f"[green]clarisearch viewer[/] on {url}  ({len(runs)} run(s); Ctrl-C to stop)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        console.print("[yellow]warning:[/] listening beyond localhost; anyone who can reach this port can read the runs")
    if open_browser:
        webbrowser.open(url)
    stop = threading.Event()
    try:
        while not stop.wait(0.5):  # short waits keep Ctrl-C responsive
            pass
    except KeyboardInterrupt:
        console.print("stopped")
    finally:
        server.stop()
