"""Report figures from run summaries, rendered by matplotlib (Agg, no pyplot state) to SVG strings.

Each figure is drawn only when the given runs hold its data, so a CTS-only report has no Disco
figures and an empty summary gives no figure at all. Numbers come from the same summaries the
tables use; nothing is recomputed here.
"""

from __future__ import annotations

import base64
import io
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import matplotlib
from matplotlib.figure import Figure

from clarisearch.metrics.disco import PROFILES
from clarisearch.metrics.question_types import QUESTION_TYPES

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from clarisearch.report.build import LoadedRun

DIFFICULTY_ORDER = ("easy", "medium", "hard")
PROFILE_COLORS = {"DirectGuess": "#bdbdbd", "SearchHeavyGuess": "#fdae6b", "DirectAsk": "#9ecae1",
                  "SearchThenAsk": "#74c476"}
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


@dataclass
class ReportFigure:
    """One rendered figure: `section` is the report section it belongs to ("cts" or "disco")."""

    section: str
    key: str
    title: str
    caption: str
    svg: str

    def data_uri(self) -> str:
        """The SVG as a data: URI, for an <img> (an image document never runs scripts)."""
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode("utf-8")).decode("ascii")


def _svg(fig: Figure) -> str:
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "clarisearch", "svg.fonttype": "path"}), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # missing glyphs (e.g. CJK run labels) are drawn as boxes
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buf.getvalue()


def _new_figure(width: float, height: float, ncols: int = 1) -> tuple[Figure, list[Axes]]:
    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False)[0]
    return fig, list(axes)


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------- CTS


def _k_and_mode(system: str) -> tuple[int, str] | None:
    if not system.startswith("k"):
        return None
    head, _, mode = system[1:].partition("-")
    return (int(head), mode or "batch") if head.isdigit() else None


def _draw_score_series(ax: Axes, label: str, points: list[tuple[float, float, float | None, float | None]],
                       offset: float, gold_x: int, color: str) -> None:
    """One system line (x = 0 for orig, k for clarify) or the gold point (x = -1, drawn at gold_x)."""
    is_gold = points[0][0] == -1
    xs = [(gold_x if x == -1 else x) + offset for x, *_ in points]
    ys = [y for _, y, _, _ in points]
    low = [max(y - lo, 0.0) if lo is not None else 0.0 for _, y, lo, _ in points]
    high = [max(hi - y, 0.0) if hi is not None else 0.0 for _, y, _, hi in points]
    ax.errorbar(xs, ys, yerr=[low, high], marker="s" if is_gold else "o", capsize=4,
                linestyle="none" if is_gold else "-", color=color, label=_short(label, 60))


def restore_score_figure(runs: Sequence[LoadedRun]) -> ReportFigure | None:
    """Mean restore_score_100 for orig, each k and gold, one line per run and clarification mode."""
    series: list[tuple[str, list[tuple[float, float, float | None, float | None]], str]] = []
    max_k = 0
    for run_index, run in enumerate(runs):
        systems = run.summary.get("systems", {})
        orig_mean = systems.get("orig", {}).get("score", {}).get("mean")
        clarifier = run.config.get("roles", {}).get("clarifier", "")
        modes = sorted({km[1] for name in systems if (km := _k_and_mode(name))}) or ["batch"]
        for mode_index, mode in enumerate(modes):
            color = f"C{(run_index + mode_index * len(runs)) % 10}"
            points: list[tuple[float, float, float | None, float | None]] = []
            if orig_mean is not None:
                points.append((0, orig_mean, None, None))
            for name, entry in systems.items():
                km = _k_and_mode(name)
                mean = entry.get("score", {}).get("mean")
                if km is None or km[1] != mode or mean is None:
                    continue
                max_k = max(max_k, km[0])
                delta = entry.get("delta_vs_orig") or {}
                lo = hi = None
                if orig_mean is not None and delta.get("ci_low") is not None:
                    lo, hi = orig_mean + delta["ci_low"], orig_mean + delta["ci_high"]
                points.append((km[0], mean, lo, hi))
            if len(points) > (1 if orig_mean is not None else 0):
                series.append((f"{run.label} · {clarifier or '?'} · {mode}", sorted(points), color))
        gold = systems.get("gold", {})
        if gold.get("score", {}).get("mean") is not None:
            delta = gold.get("delta_vs_orig") or {}
            lo = hi = None
            if orig_mean is not None and delta.get("ci_low") is not None:
                lo, hi = orig_mean + delta["ci_low"], orig_mean + delta["ci_high"]
            series.append((f"{run.label} · gold", [(-1, gold["score"]["mean"], lo, hi)], f"C{run_index % 10}"))
    if not series:
        return None
    gold_x = max_k + 1
    fig, (ax,) = _new_figure(7.5, 4.2)
    lines = [s for s in series if s[1][0][0] != -1]
    golds = [s for s in series if s[1][0][0] == -1]
    for group in (lines, golds):
        for i, (label, points, color) in enumerate(group):
            offset = (i - (len(group) - 1) / 2) * min(0.12, 0.5 / len(group))
            _draw_score_series(ax, label, points, offset, gold_x, color)
    ticks = list(range(0, gold_x + 1))
    ax.set_xticks(ticks, ["orig", *(f"k={k}" for k in range(1, max_k + 1)), "gold"])
    ax.set_ylabel("mean restore_score_100")
    ax.set_ylim(0, 100)
    ax.grid(axis="y", alpha=0.3)
    fig.legend(fontsize=8, loc="outside lower center", ncols=2)
    return ReportFigure("cts", "restore_score_by_k", "restore_score_100 by clarification budget",
                        "Mean per system; bars are the paired bootstrap 95% CI of Δ vs orig, shifted by the orig mean.",
                        _svg(fig))


def _diagnostic_rows(runs: Sequence[LoadedRun]) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{run.label} · {system}", entry["diagnostics"])
            for run in runs for system, entry in run.summary.get("systems", {}).items() if entry.get("diagnostics")]


def ua_question_types_figure(runs: Sequence[LoadedRun]) -> ReportFigure | None:
    """UA `unknown` rate and clarification-question type mix per run and k."""
    rows = [(label, d) for label, d in _diagnostic_rows(runs) if d.get("n_questions")]
    if not rows:
        return None
    labels = [_short(label) for label, _ in rows]
    fig, (left, right) = _new_figure(10, 1.2 + 0.4 * len(rows), ncols=2)
    ys = list(range(len(rows)))
    left.barh(ys, [d.get("ua_unknown_rate") or 0.0 for _, d in rows], color="#c0504d")
    left.set_yticks(ys, labels)
    left.invert_yaxis()
    left.set_xlim(0, 1)
    left.set_xlabel("UA unknown rate")
    start = [0.0] * len(rows)
    for qtype in QUESTION_TYPES:
        values = [(d.get("question_type_rates") or {}).get(qtype) or 0.0 for _, d in rows]
        right.barh(ys, values, left=start, label=qtype)
        start = [a + b for a, b in zip(start, values, strict=True)]
    right.set_yticks(ys, [""] * len(rows))
    right.invert_yaxis()
    right.set_xlabel("question-type rate (a question may have several types)")
    fig.legend(*right.get_legend_handles_labels(), fontsize=8, loc="outside lower center", ncols=6)
    return ReportFigure("cts", "ua_question_types", "UA unknown rate and question-type mix",
                        "Per run and clarification budget, over all clarification questions asked.", _svg(fig))


# ---------------------------------------------------------------- Disco


def _groups(runs: Sequence[LoadedRun]) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{run.label} · {group}", entry) for run in runs for group, entry in run.summary.get("groups", {}).items()]


def detection_vs_ce_figure(runs: Sequence[LoadedRun]) -> ReportFigure | None:
    """Ambiguity-detection F1 against clarification effectiveness CE-A, one point per run/group."""
    points = [(label, e["clarification"]["ce_a"], e["detection"]["f1"]) for label, e in _groups(runs)
              if e.get("clarification", {}).get("ce_a") is not None and e.get("detection", {}).get("f1") is not None]
    if not points:
        return None
    fig, (ax,) = _new_figure(7, 4.5)
    for i, (label, ce_a, f1) in enumerate(points):  # hollow markers keep coinciding points visible
        ax.scatter([ce_a], [f1], s=40 + 30 * (len(points) - i), marker=MARKERS[i % len(MARKERS)],
                   facecolors="none", edgecolors=f"C{i % 10}", linewidths=1.8, label=_short(label, 50))
    ax.set_aspect("equal")
    fig.legend(fontsize=8, loc="outside right center")
    ax.set_xlim(-0.05, 1.05)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("CE-A (asks that targeted the right ambiguity)")
    ax.set_ylabel("detection F1")
    ax.grid(alpha=0.3)
    return ReportFigure("disco", "detection_vs_ce", "Detection F1 vs CE-A",
                        "Does the agent ask when it should (F1), and does it ask about the right thing (CE-A)?",
                        _svg(fig))


def profiles_figure(runs: Sequence[LoadedRun]) -> ReportFigure | None:
    """Share of each behaviour profile over ambiguous checkpoints, and the pass rate per profile."""
    rows = [(label, e["profiles"]) for label, e in _groups(runs)
            if any((e.get("profiles", {}).get(p) or {}).get("n") for p in PROFILES)]
    if not rows:
        return None
    fig, (left, right) = _new_figure(11, 1.6 + 0.45 * len(rows), ncols=2)
    ys = list(range(len(rows)))
    start = [0.0] * len(rows)
    for profile in PROFILES:
        values = [prof.get(profile, {}).get("share") or 0.0 for _, prof in rows]
        left.barh(ys, values, left=start, label=profile, color=PROFILE_COLORS[profile])
        start = [a + b for a, b in zip(start, values, strict=True)]
    left.set_yticks(ys, [_short(label) for label, _ in rows])
    left.invert_yaxis()
    left.set_xlim(0, 1)
    left.set_xlabel("share of decided ambiguous checkpoints")
    fig.legend(*left.get_legend_handles_labels(), fontsize=8, loc="outside lower left", ncols=4)
    width = 0.8 / len(rows)
    for i, (label, prof) in enumerate(rows):
        xs = [j + (i - (len(rows) - 1) / 2) * width for j in range(len(PROFILES))]
        rates = [prof.get(p, {}).get("pass_rate") for p in PROFILES]
        right.bar(xs, [r or 0.0 for r in rates], width=width, label=_short(label))
        for x, rate, p in zip(xs, rates, PROFILES, strict=True):
            right.annotate(f"n={prof.get(p, {}).get('n', 0)}" if rate is not None else "–", (x, rate or 0.0),
                           ha="center", va="bottom", fontsize=7)
    right.set_xticks(range(len(PROFILES)), PROFILES, fontsize=8)
    right.set_ylim(0, 1.1)
    right.set_ylabel("checkpoint pass rate")
    right.legend(fontsize=8, loc="upper left")
    return ReportFigure("disco", "profiles", "Behaviour profiles (K = 3) and pass rate per profile",
                        "Left: how ambiguous checkpoints were handled; right: how often each behaviour advanced the "
                        "checkpoint (– = no checkpoint with that profile).", _svg(fig))


def difficulty_figure(runs: Sequence[LoadedRun]) -> ReportFigure | None:
    """E2E accuracy and checkpoint pass rate by difficulty (easy / medium / hard)."""
    rows = [(label, e["by_difficulty"]) for label, e in _groups(runs) if e.get("by_difficulty")]
    if not rows:
        return None
    found = {d for _, by in rows for d in by}
    levels = [d for d in DIFFICULTY_ORDER if d in found] + sorted(found - set(DIFFICULTY_ORDER))
    fig, axes = _new_figure(10, 3.8, ncols=2)
    width = 0.8 / len(rows)
    for ax, metric, name in zip(axes, ("e2e_accuracy", "cp_pass_rate"), ("E2E accuracy", "checkpoint pass rate"),
                                strict=True):
        for i, (label, by) in enumerate(rows):
            xs = [j + (i - (len(rows) - 1) / 2) * width for j in range(len(levels))]
            ax.bar(xs, [(by.get(d) or {}).get(metric) or 0.0 for d in levels], width=width, label=_short(label))
        ax.set_xticks(range(len(levels)), levels)
        ax.set_ylim(0, 1)
        ax.set_ylabel(name)
        ax.grid(axis="y", alpha=0.3)
    fig.legend(*axes[0].get_legend_handles_labels(), fontsize=8, loc="outside lower center", ncols=2)
    return ReportFigure("disco", "difficulty", "Accuracy by difficulty",
                        "Difficulty = number of ambiguous checkpoints (easy 1, medium 2, hard ≥ 3).", _svg(fig))


def report_figures(runs: Sequence[LoadedRun]) -> list[ReportFigure]:
    """Every figure whose data exist in the given runs, CTS first."""
    cts = [r for r in runs if r.protocol == "cts"]
    disco = [r for r in runs if r.protocol in ("disco", "qc")]
    makers = [(cts, restore_score_figure), (cts, ua_question_types_figure), (disco, detection_vs_ce_figure),
              (disco, profiles_figure), (disco, difficulty_figure)]
    figures = []
    for subset, make in makers:
        if subset and (figure := make(subset)) is not None:
            figures.append(figure)
    return figures
