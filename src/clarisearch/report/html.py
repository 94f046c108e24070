"""report.html: one self-contained page (inline CSS, figures as data: URIs, no scripts).

The tables are the Markdown report's tables rendered to HTML, so every number is the one in
report.md, which is built from the same summaries as summary.json. Every string that comes from
data (run labels, paths, model names, cell text) is escaped with html.escape.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

from clarisearch import __version__
from clarisearch.report.build import LoadedRun
from clarisearch.report.plots import ReportFigure, report_figures
from clarisearch.runner.store import RunStore

CSS = """
:root { --fg:#1d2430; --muted:#5b6575; --line:#d8dde6; --head:#eef1f6; --accent:#2f5fa8; --warn:#fff4d6; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "PingFang SC", sans-serif;
       color: var(--fg); margin: 0; background: #fafbfc; }
header { background: #1d2430; color: #fff; padding: 14px 28px; }
header h1 { margin: 0; font-size: 20px; } header p { margin: 4px 0 0; color: #c6ccd6; font-size: 12px; }
main { display: grid; grid-template-columns: 230px 1fr; gap: 24px; padding: 20px 28px; }
nav { position: sticky; top: 12px; align-self: start; font-size: 13px; max-height: 95vh; overflow: auto; }
nav a { color: var(--accent); text-decoration: none; display: block; padding: 2px 0; }
nav .h3 { padding-left: 12px; color: var(--muted); }
section.content { min-width: 0; }
h2 { border-bottom: 2px solid var(--line); padding-bottom: 4px; margin-top: 32px; }
h3 { margin-top: 26px; font-size: 15px; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { padding: 5px 9px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
th { background: var(--head); position: sticky; top: 0; }
tbody tr:nth-child(even) { background: #f6f8fb; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 18px 0; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px; }
figure img { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 12px; margin-top: 6px; }
figcaption b { color: var(--fg); }
.note { background: var(--warn); border: 1px solid #e8d08a; border-radius: 6px; padding: 8px 12px; }
details { margin: 8px 0; } summary { cursor: pointer; color: var(--accent); }
pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px; overflow: auto;
      max-height: 480px; font-size: 12px; white-space: pre-wrap; word-break: break-word; }
em { color: var(--muted); }
"""

_NUMERIC = re.compile(r"^[+-]?\d+(\.\d+)?( \([+-]?\d+(\.\d+)?\)| / [\d.–]+)?$|^–$|^\[[-+\d., ]+\]$")


def slug(text: str) -> str:
    """A stable anchor id for a heading (ASCII letters, digits and dashes)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def _cells(line: str) -> list[str]:
    body = line.strip()
    body = body[2:] if body.startswith("| ") else body.lstrip("|")
    body = body[:-2] if body.endswith(" |") else body.rstrip("|")
    return [cell.strip() for cell in body.split(" | ")]


def _table_html(lines: list[str], table_id: str) -> str:
    head, rows = _cells(lines[0]), [_cells(line) for line in lines[2:]]
    out = [f'<div class="table-wrap"><table id="{escape(table_id)}"><thead><tr>']
    out += [f"<th>{escape(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(
            f'<td class="num">{escape(c)}</td>' if _NUMERIC.match(c) else f"<td>{escape(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _figure_html(figure: ReportFigure) -> str:
    return (f'<figure id="fig-{escape(figure.key)}"><img alt="{escape(figure.title)}" src="{figure.data_uri()}">'
            f"<figcaption><b>{escape(figure.title)}.</b> {escape(figure.caption)}</figcaption></figure>")


def _section_of(heading: str) -> str | None:
    if "Clarify" in heading:
        return "cts"
    if "Disco" in heading:
        return "disco"
    return None


def markdown_to_html(markdown: str, figures: list[ReportFigure]) -> tuple[str, list[tuple[int, str, str]]]:
    """HTML body for the report's Markdown (headings, tables, paragraphs) with figures after their
    section heading; also the (level, id, text) headings for the table of contents."""
    pending = {section: [f for f in figures if f.section == section] for section in ("cts", "disco")}
    html: list[str] = []
    toc: list[tuple[int, str, str]] = []
    used: dict[str, int] = {}
    lines = markdown.splitlines()
    i = 0
    last_id = "runs"
    while i < len(lines):
        line = lines[i]
        if line.startswith("|"):
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append(lines[i])
                i += 1
            if not toc:
                toc.append((2, "runs", "Runs"))
                html.append('<h2 id="runs">Runs</h2>')
            used[last_id] = used.get(last_id, 0) + 1
            html.append(_table_html(block, f"t-{last_id}" + (f"-{used[last_id]}" if used[last_id] > 1 else "")))
            continue
        i += 1
        heading = re.match(r"^(#{1,4}) (.*)$", line)
        if heading:
            level, text = len(heading.group(1)), heading.group(2).strip()
            if level == 1:
                continue  # the page header carries the title
            last_id = slug(text)
            toc.append((level, last_id, text))
            html.append(f'<h{level} id="{escape(last_id)}">{escape(text)}</h{level}>')
            section = _section_of(text) if level == 2 else None
            if section and pending.get(section):
                html.append(f'<h3 id="{section}-figures">Figures</h3>')
                toc.append((3, f"{section}-figures", "Figures"))
                html += [_figure_html(f) for f in pending.pop(section)]
        elif line.strip():
            text = line.strip()
            if len(text) > 2 and text.startswith("_") and text.endswith("_"):
                html.append(f"<p><em>{escape(text[1:-1])}</em></p>")
            else:
                html.append(f"<p>{escape(text)}</p>")
    leftover = [f for figs in pending.values() for f in figs]
    if leftover:
        toc.append((2, "figures", "Figures"))
        html.append('<h2 id="figures">Figures</h2>' + "".join(_figure_html(f) for f in leftover))
    return "\n".join(html), toc


def _normalized(data: Any) -> Any:
    return json.loads(json.dumps(data, default=str))


def stale_summary_note(run: LoadedRun) -> str | None:
    """A warning when the run's summary.json differs from the summary recomputed from results.jsonl."""
    store = RunStore(run.path)
    try:
        stored = store.read_summary()
    except (FileNotFoundError, json.JSONDecodeError):
        return f"{run.label}: no summary.json (run unfinished?); the tables are computed from results.jsonl."
    stored.pop("written_at", None)
    if _normalized(stored) != _normalized(run.summary):
        return (f"{run.label}: summary.json differs from the summary recomputed from results.jsonl "
                "(results were added after the run finished); the tables show the recomputed numbers.")
    return None


def _run_details(runs: list[LoadedRun]) -> Iterator[str]:
    yield '<h2 id="run-data">Run data</h2>'
    for run in runs:
        yield (f"<details><summary>{escape(run.label)} — summary ({escape(str(run.path))})</summary>"
               f"<pre>{escape(json.dumps(run.summary, indent=2, ensure_ascii=False, default=str))}</pre></details>")
        yield (f"<details><summary>{escape(run.label)} — config</summary>"
               f"<pre>{escape(json.dumps(run.config, indent=2, ensure_ascii=False, default=str))}</pre></details>")


def render_html(runs: list[LoadedRun], markdown: str) -> str:
    """The full report page as a string."""
    body, toc = markdown_to_html(markdown, report_figures(runs))
    notes = [note for run in runs if (note := stale_summary_note(run))]
    toc.append((2, "run-data", "Run data"))
    nav = "".join(f'<a class="h{level}" href="#{escape(anchor)}">{escape(text)}</a>' for level, anchor, text in toc)
    labels = ", ".join(run.label for run in runs)
    view_cmd = "clarisearch view " + " ".join(str(run.path) for run in runs)
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">",
        f"<title>clarisearch report — {escape(labels)}</title>", f"<style>{CSS}</style></head><body>",
        f"<header><h1>clarisearch report</h1><p>runs: {escape(labels)} · clarisearch {escape(__version__)} · "
        f"trajectories: <code>{escape(view_cmd)}</code></p></header>",
        f'<main><nav>{nav}</nav><section class="content">',
        *(f'<p class="note">{escape(note)}</p>' for note in notes),
        body, *_run_details(runs), "</section></main></body></html>",
    ]
    return "\n".join(parts)


def write_html(runs: list[LoadedRun], markdown: str, out: Path) -> Path:
    """Write `out/report.html` and return its path."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "report.html"
    path.write_text(render_html(runs, markdown), encoding="utf-8")
    return path
