"""Load runs, recompute their summaries from results.jsonl, and render the report."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clarisearch.metrics.cts import summarize_cts
from clarisearch.report.cts_tables import cts_markdown
from clarisearch.report.markdown import table
from clarisearch.runner.store import RunStore


@dataclass
class LoadedRun:
    label: str
    path: Path
    config: dict[str, Any]
    results: list[dict[str, Any]]
    summary: dict[str, Any]

    @property
    def protocol(self) -> str:
        return str(self.config.get("protocol", "?"))


def summarize(protocol: str, results: list[dict[str, Any]], config: dict[str, Any]) -> dict[str, Any]:
    if protocol == "cts":
        return summarize_cts(results, seed=int(config.get("seed", 0)))
    from clarisearch.metrics.disco import summarize_disco

    return summarize_disco(results)


def load_run(path: Path) -> LoadedRun:
    store = RunStore(path)
    if not store.exists:
        raise FileNotFoundError(f"{path} is not a run directory (no config.json)")
    config = store.read_config()
    results = store.results()
    summary = {"config_hash": config.get("config_hash"), "roles": config.get("roles", {}),
               **summarize(config["protocol"], results, config)}
    return LoadedRun(path.name, path, config, results, summary)


def _unique_labels(runs: list[LoadedRun]) -> None:
    seen: dict[str, int] = {}
    for run in runs:
        seen[run.label] = seen.get(run.label, 0) + 1
        if seen[run.label] > 1:
            run.label = f"{run.label}#{seen[run.label]}"


def runs_table(runs: list[LoadedRun]) -> str:
    rows = []
    for run in runs:
        roles = run.config.get("roles", {})
        distinct = sorted(set(roles.values()))
        role_text = distinct[0] if len(distinct) == 1 else ", ".join(f"{k}={v}" for k, v in roles.items())
        rule_note = " (rule-based baseline)" if "rules" in roles.values() else ""
        rows.append([run.label, run.protocol, str(run.config.get("data")), run.config.get("setting") or "–",
                     role_text + rule_note, str(run.config.get("search")), len(run.results)])
    return table(["run", "protocol", "data", "setting", "roles", "search", "episodes"], rows)


def build_report(paths: list[Path], out: Path | None = None, html: bool = False) -> dict[str, Any]:
    """Markdown (always), JSON data, and report.md/report.html files when `out` is given."""
    runs = [load_run(Path(p)) for p in paths]
    _unique_labels(runs)
    parts = ["# clarisearch report", "", runs_table(runs), ""]
    cts = [(r.label, r.summary) for r in runs if r.protocol == "cts"]
    disco = [(r.label, r.summary) for r in runs if r.protocol in ("disco", "qc")]
    if cts:
        parts.append(cts_markdown(cts))
    if disco:
        from clarisearch.report.disco_tables import disco_markdown

        parts.append(disco_markdown(disco))
    markdown = "\n".join(parts)
    data = {r.label: {"path": str(r.path), "config": r.config, "summary": r.summary} for r in runs}
    files: list[Path] = []
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "report.md").write_text(markdown, encoding="utf-8")
        files.append(out / "report.md")
    if html and out is not None:
        from clarisearch.report.html import write_html

        files.append(write_html(runs, markdown, out))
    return {"markdown": markdown, "data": data, "files": files}
