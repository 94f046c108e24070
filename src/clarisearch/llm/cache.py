"""Content-addressed response cache (SQLite), keyed only by what changes the output."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Literal

from clarisearch.llm.base import (
    LLM,
    CacheMissError,
    Completion,
    DecodingParams,
    Message,
    ToolCallRequest,
    ToolSchemas,
    Usage,
)

CacheMode = Literal["use", "replay", "refresh", "off"]


def request_hash(model_id: str, messages: list[Message], params: DecodingParams | None,
                 tools: ToolSchemas | None = None) -> str:
    """Hash of model, messages and decoding params; never keys, timeouts or connection settings."""
    p = params or DecodingParams()
    payload = {
        "model": model_id,
        "messages": [dict(m) for m in messages],
        "temperature": p.temperature,
        "max_tokens": p.max_tokens,
        "stop": list(p.stop),
        "seed": p.seed,
        "tools": tools or None,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()


class ResponseStore:
    """The SQLite table behind the cache; safe to share between roles and threads."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS responses_v2 (key TEXT PRIMARY KEY, model TEXT, text TEXT,"
            " prompt_tokens INTEGER, completion_tokens INTEGER, finish_reason TEXT, tool_calls TEXT)"
        )
        self._db.commit()

    def get(self, key: str) -> tuple[str, str | None, list[ToolCallRequest]] | None:
        with self._lock:
            row = self._db.execute("SELECT text, finish_reason, tool_calls FROM responses_v2 WHERE key = ?",
                                   (key,)).fetchone()
        if not row:
            return None
        return row[0], row[1], [ToolCallRequest(**c) for c in json.loads(row[2] or "[]")]

    def put(self, key: str, model: str, completion: Completion) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses_v2 VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, model, completion.text, completion.usage.prompt_tokens, completion.usage.completion_tokens,
                 completion.finish_reason, json.dumps([c.__dict__ for c in completion.tool_calls])),
            )
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM responses_v2").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedLLM:
    """Serves repeated requests from the store. `replay` fails on a miss instead of calling out."""

    def __init__(self, inner: LLM, store: ResponseStore, mode: CacheMode = "use"):
        self.inner = inner
        self.model_id = inner.model_id
        self.store = store
        self.mode = mode

    async def complete(self, messages: list[Message], params: DecodingParams | None = None,
                       tools: ToolSchemas | None = None) -> Completion:
        key = request_hash(self.model_id, messages, params, tools)
        if self.mode in ("use", "replay"):
            cached = self.store.get(key)
            if cached is not None:
                return Completion(text=cached[0], usage=Usage(), model=self.model_id, cache_hit=True,
                                  request_hash=key, finish_reason=cached[1], tool_calls=cached[2])
            if self.mode == "replay":
                raise CacheMissError(f"replay mode: no cached response for request {key[:12]} ({self.model_id})")
        completion = await self.inner.complete(messages, params, tools)
        completion.request_hash = key
        if self.mode != "off":
            self.store.put(key, self.model_id, completion)
        return completion
