"""What the viewer serves: the episodes of one or more runs as list rows, filters and full records.

Files are re-read when they change on disk, so a viewer opened on a running benchmark shows new
episodes on the next request. Nothing here renders HTML: the browser builds the page from JSON.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clarisearch.metrics.cts import system_name
from clarisearch.runner.store import CONFIG, EVENTS, RESULTS, RunStore, read_jsonl

FACETS = ("run", "system", "k", "status", "outcome", "termination")
PREVIEW_CHARS = 160


def _mtime(path: Path) -> float:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return -1.0
    return stat.st_mtime_ns + stat.st_size / 1e12


def _preview(text: str | None) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def episode_row(run_id: str, run_label: str, record: dict[str, Any]) -> dict[str, Any]:
    """The list-view fields of one episode, the same for both protocols (score is 0-100 or None)."""
    status = record.get("status", "ok")
    if record.get("protocol") == "cts":
        coverage = record.get("coverage") or []
        labels = {name: sum(v.get("label") == name for v in coverage) for name in ("full", "partial", "none")}
        outcome = "error" if status == "error" else ("judge_parse_failed" if not record.get("judge_parse_ok", True)
                                                      else "judged" if coverage else "unjudged")
        agent = record.get("agent") or {}
        return {"run": run_id, "run_label": run_label, "key": record["key"], "instance_id": record.get("instance_id", ""),
                "protocol": "cts", "system": system_name(record), "k": record.get("k"), "status": status,
                "outcome": outcome, "termination": agent.get("termination") or "", "score": record.get("restore_score_100"),
                "verdicts": labels, "error": record.get("error"), "preview": _preview(agent.get("answer"))}
    n_cps = record.get("n_checkpoints") or 0
    advanced = sum(bool(c.get("advanced")) for c in record.get("checkpoints") or [])
    correct = record.get("e2e_correct")
    outcome = "error" if status == "error" else {True: "correct", False: "incorrect", None: "unjudged"}[correct]
    return {"run": run_id, "run_label": run_label, "key": record["key"], "instance_id": record.get("instance_id", ""),
            "protocol": record.get("protocol", "disco"),
            "system": f"{record.get('mode', 'interactive')}:{record.get('setting', '')}:{record.get('ablation', '')}",
            "k": None, "status": status, "outcome": outcome, "termination": record.get("termination") or "",
            "score": 100.0 * advanced / n_cps if n_cps else None, "checkpoints": f"{advanced}/{n_cps}",
            "error": record.get("error"), "preview": _preview(record.get("final_response"))}


@dataclass
class ViewerRun:
    """One run directory, re-read lazily when its files change."""

    id: str
    label: str
    path: Path
    config: dict[str, Any] = field(default_factory=dict)
    _results: dict[str, dict[str, Any]] = field(default_factory=dict)
    _results_stamp: float = -2.0
    _events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    _events_stamp: float = -2.0
    _instances: dict[str, dict[str, Any]] | None = None
    instance_note: str | None = None

    @property
    def protocol(self) -> str:
        return str(self.config.get("protocol", "?"))

    def results(self) -> dict[str, dict[str, Any]]:
        stamp = _mtime(self.path / RESULTS)
        if stamp != self._results_stamp:
            self._results = {r["key"]: r for r in RunStore(self.path).results()}
            self._results_stamp = stamp
        return self._results

    def events(self, key: str) -> list[dict[str, Any]]:
        stamp = _mtime(self.path / EVENTS)
        if stamp != self._events_stamp:
            grouped: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for event in read_jsonl(self.path / EVENTS):
                grouped[str(event.get("episode_key", ""))].append(event)
            self._events, self._events_stamp = dict(grouped), stamp
        return self._events.get(key, [])

    def instance(self, instance_id: str) -> dict[str, Any] | None:
        """The dataset record of an instance (question, gold), if the run's data file is still readable."""
        if self._instances is None:
            self._instances = self._load_instances()
        return self._instances.get(instance_id)

    def _load_instances(self) -> dict[str, dict[str, Any]]:
        from clarisearch.protocols.common import file_sha256
        from clarisearch.schema.loader import load_records
        from clarisearch.search.factory import demo_path

        data = str(self.config.get("data", ""))
        protocol = self.protocol
        name = "cts.jsonl" if protocol == "cts" else "disco.jsonl"
        path = demo_path(name) if data == "demo" else Path(data)
        if not path.is_file():
            self.instance_note = f"dataset {data} not found from here: questions and gold are not shown"
            return {}
        try:
            if protocol == "cts":
                from clarisearch.schema.cts import CtsInstance

                records: list[Any] = load_records(path, CtsInstance, self.config.get("field_map") or {})
            else:
                from clarisearch.schema.disco import DiscoSample

                records = load_records(path, DiscoSample, self.config.get("field_map") or {})
                if self.config.get("ablation") == "unambiguous":
                    records = [r.unambiguous_variant() for r in records]
        except Exception as exc:  # a changed or unreadable dataset must not break the viewer
            self.instance_note = f"dataset {data} could not be read: {exc}"
            return {}
        expected = self.config.get("data_sha256")
        if expected and file_sha256(path) != expected:
            self.instance_note = f"dataset {data} changed since the run: questions and gold may differ"
        return {r.id: r.model_dump(mode="json") for r in records}


class ViewerData:
    """The runs shown by one viewer, with list/filter/detail queries used by the JSON API."""

    def __init__(self, run_dirs: list[Path]):
        self.runs: list[ViewerRun] = []
        seen: dict[str, int] = {}
        for index, raw in enumerate(run_dirs):
            path = Path(raw)
            if not (path / CONFIG).exists():
                raise FileNotFoundError(f"{path} is not a run directory (no config.json)")
            label = path.name or str(path)
            seen[label] = seen.get(label, 0) + 1
            if seen[label] > 1:
                label = f"{label}#{seen[label]}"
            run = ViewerRun(str(index), label, path, RunStore(path).read_config())
            self.runs.append(run)
        self._by_id = {run.id: run for run in self.runs}

    def run(self, run_id: str) -> ViewerRun | None:
        return self._by_id.get(run_id)

    def runs_info(self) -> list[dict[str, Any]]:
        return [{"id": r.id, "label": r.label, "path": str(r.path), "protocol": r.protocol,
                 "data": r.config.get("data"), "setting": r.config.get("setting"), "roles": r.config.get("roles", {}),
                 "episodes": len(r.results())} for r in self.runs]

    def rows(self) -> list[dict[str, Any]]:
        return [episode_row(run.id, run.label, record) for run in self.runs for record in run.results().values()]

    def facets(self, rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
        values: dict[str, set[Any]] = {name: set() for name in FACETS}
        for row in rows:
            for name in FACETS:
                if row.get(name) is not None and row.get(name) != "":
                    values[name].add(row[name])
        out = {name: sorted(v, key=lambda x: (str(type(x)), x)) for name, v in values.items()}
        out["run"] = [{"id": r.id, "label": r.label} for r in self.runs if r.id in values["run"]]
        return out

    def query(self, params: dict[str, list[str]], limit: int = 1000) -> dict[str, Any]:
        """Rows matching the filters (every given value of a field is allowed), plus the facets of all rows."""
        rows = self.rows()
        matched = [row for row in rows if matches(row, params)]
        limit = int(params.get("limit", [limit])[0])
        return {"total": len(rows), "matched": len(matched), "rows": matched[:limit], "facets": self.facets(rows)}

    def same_instance(self, instance_id: str) -> list[dict[str, Any]]:
        return [row for row in self.rows() if row["instance_id"] == instance_id]

    def episode(self, run_id: str, key: str) -> dict[str, Any] | None:
        """Everything about one episode: its record, its events and its dataset instance."""
        run = self.run(run_id)
        record = run.results().get(key) if run else None
        if run is None or record is None:
            return None
        instance = run.instance(str(record.get("instance_id", "")))
        context: dict[str, Any] = {}
        if record.get("protocol") == "cts" and instance is None:
            for other in run.results().values():  # the orig/gold agent ran on the blurred/fused query
                if other.get("instance_id") == record.get("instance_id") and other.get("system") in ("orig", "gold"):
                    context[f"{other['system']}_query"] = (other.get("agent") or {}).get("query", "")
        return {"run": {"id": run.id, "label": run.label, "path": str(run.path), "protocol": run.protocol},
                "row": episode_row(run.id, run.label, record), "episode": record, "events": run.events(key),
                "instance": instance, "instance_note": run.instance_note, "context": context}


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def matches(row: dict[str, Any], params: dict[str, list[str]]) -> bool:
    """Does a list row pass the filters? Empty filter values are ignored."""
    for name in FACETS:
        wanted = [v for v in params.get(name, []) if v != ""]
        if wanted and str(row.get(name)) not in wanted:
            return False
    low = _number((params.get("score_min") or [""])[0])
    high = _number((params.get("score_max") or [""])[0])
    if (low is not None or high is not None) and row.get("score") is None:
        return False
    if low is not None and row["score"] < low:
        return False
    if high is not None and row["score"] > high:
        return False
    text = (params.get("q") or [""])[0].strip().lower()
    if text:
        haystack = " ".join(str(row.get(k) or "") for k in ("key", "instance_id", "preview", "error")).lower()
        if text not in haystack:
            return False
    return True


def to_json(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False, default=str).encode("utf-8")
