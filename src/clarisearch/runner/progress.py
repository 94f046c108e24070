"""Live progress during a run: episodes done, running score, errors, tokens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class RunProgress:
    """A rich progress bar fed one result record at a time."""

    def __init__(self, total: int, already_done: int, score_of: Callable[[dict[str, Any]], float | None],
                 score_name: str, console: Console | None = None, enabled: bool = True):
        self.score_of = score_of
        self.score_name = score_name
        self.scores: list[float] = []
        self.errors = 0
        self.tokens = 0
        self.cost = 0.0
        self._progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn("{task.fields[stats]}"), console=console or Console(stderr=True), disable=not enabled,
            transient=False,
        )
        self._task = self._progress.add_task("episodes", total=total, completed=already_done, stats="")

    def __enter__(self) -> RunProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def update(self, record: dict[str, Any]) -> None:
        if record.get("status") == "error":
            self.errors += 1
        else:
            score = self.score_of(record)
            if score is not None:
                self.scores.append(score)
        self.tokens += sum(u["prompt_tokens"] + u["completion_tokens"] for u in record.get("usage", {}).values())
        self.cost += float(record.get("cost_usd", 0.0))
        mean = f"{sum(self.scores) / len(self.scores):.2f}" if self.scores else "-"
        self._progress.update(self._task, advance=1,
                              stats=f"{self.score_name}={mean}  errors={self.errors}  tokens={self.tokens:,}  "
                                    f"cost=${self.cost:.4f}")
