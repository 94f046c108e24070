"""A local OpenAI-compatible chat-completions server for tests (stdlib only, loopback only).

Behaviour is scripted per request: a queue of (status, body-text) replies; when the queue is
empty, `default` is answered (a string, or a dict used as the assistant message, e.g. with
`tool_calls`). Every request (headers and JSON body) is recorded.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, str | dict[str, Any]]


class MockOpenAI:
    def __init__(self, default: str | Callable[[dict[str, Any]], str | dict[str, Any]] = "ok"):
        self.queue: deque[Reply] = deque()
        self.default = default
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        mock = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                return

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                mock.requests.append(body)
                mock.headers.append({k.lower(): v for k, v in self.headers.items()})
                status, text = mock.queue.popleft() if mock.queue else (
                    200, mock.default(body) if callable(mock.default) else mock.default)
                if status == 200:
                    message = text if isinstance(text, dict) else {"role": "assistant", "content": text}
                    payload = {"id": "cmpl-1", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
                               "choices": [{"index": 0, "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
                                            "message": message}],
                               "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}}
                else:
                    payload = {"error": {"message": text, "type": "error", "code": status}}
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> MockOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
