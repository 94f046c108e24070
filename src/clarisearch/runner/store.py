"""A run directory: resolved config, append-only events and results, summary and manifest.

Every JSONL record is written with a single write call and flushed, so a crash never leaves a
half record; a torn last line (power loss) is ignored on read.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

CONFIG = "config.json"
EVENTS = "events.jsonl"
RESULTS = "results.jsonl"
SUMMARY = "summary.json"
MANIFEST = "manifest.json"


class ConfigMismatchError(RuntimeError):
    """The run directory was made with a different configuration."""


def append_jsonl(path: Path, record: dict[str, Any]) -> None:
    line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line)
        handle.flush()
        os.fsync(handle.fileno())


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records


class RunStore:
    """Files of one run. Results are keyed by episode key; the last record for a key wins."""

    def __init__(self, run_dir: str | Path):
        self.dir = Path(run_dir)
        self._lock = threading.Lock()
        self._seq = 0

    @property
    def exists(self) -> bool:
        return (self.dir / CONFIG).exists()

    def init(self, config: dict[str, Any], config_hash: str, manifest: dict[str, Any]) -> None:
        """Create the run, or check that an existing one has the same config hash."""
        self.dir.mkdir(parents=True, exist_ok=True)
        if self.exists:
            stored = self.read_config()
            if stored.get("config_hash") != config_hash:
                raise ConfigMismatchError(
                    f"{self.dir} holds a run with a different configuration (hash {stored.get('config_hash', '?')[:12]}"
                    f" vs {config_hash[:12]}); use a new --out folder, or `clarisearch resume {self.dir}` unchanged"
                )
            return
        self._write_json(CONFIG, {**config, "config_hash": config_hash})
        self._write_json(MANIFEST, manifest)

    def read_config(self) -> dict[str, Any]:
        config: dict[str, Any] = json.loads((self.dir / CONFIG).read_text(encoding="utf-8"))
        return config

    def read_manifest(self) -> dict[str, Any]:
        path = self.dir / MANIFEST
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}

    def update_manifest(self, **fields: Any) -> None:
        self._write_json(MANIFEST, {**self.read_manifest(), **fields})

    def emit(self, event: dict[str, Any]) -> None:
        with self._lock:
            self._seq += 1
            append_jsonl(self.dir / EVENTS, {"seq": self._seq, **event})

    def append_result(self, result: dict[str, Any]) -> None:
        with self._lock:
            append_jsonl(self.dir / RESULTS, result)

    def results(self) -> list[dict[str, Any]]:
        latest: dict[str, dict[str, Any]] = {}
        for record in read_jsonl(self.dir / RESULTS):
            latest[record["key"]] = record
        return list(latest.values())

    def events(self, episode_key: str | None = None) -> list[dict[str, Any]]:
        events = read_jsonl(self.dir / EVENTS)
        return [e for e in events if episode_key is None or e.get("episode_key") == episode_key]

    def write_summary(self, summary: dict[str, Any]) -> None:
        self._write_json(SUMMARY, {**summary, "written_at": time.time()})

    def read_summary(self) -> dict[str, Any]:
        summary: dict[str, Any] = json.loads((self.dir / SUMMARY).read_text(encoding="utf-8"))
        return summary

    def _write_json(self, name: str, payload: dict[str, Any]) -> None:
        tmp = self.dir / f".{name}.tmp"
        tmp.write_text(json.dumps(payload, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
        tmp.replace(self.dir / name)
