"""The trajectory viewer's local web server (stdlib only): a JSON API and one static page.

The page builds its DOM with textContent only, and every response carries a Content-Security-Policy
that forbids inline scripts, so model output and page text (untrusted) are shown, never run. By
default the server listens on 127.0.0.1 and rejects requests for other host names (DNS rebinding).
"""

from __future__ import annotations

import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from clarisearch.viewer.data import ViewerData, to_json

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/viewer.js": ("viewer.js", "text/javascript; charset=utf-8"),
    "/static/viewer.css": ("viewer.css", "text/css; charset=utf-8"),
}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


def _static(name: str) -> bytes:
    return resources.files("clarisearch.viewer").joinpath("static", name).read_bytes()


class ViewerServer(ThreadingHTTPServer):
    """A threading HTTP server that holds the runs being viewed."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], data: ViewerData, quiet: bool = True):
        self.data = data
        self.quiet = quiet
        self.lock = threading.Lock()
        super().__init__(address, ViewerHandler)

    @property
    def url(self) -> str:
        host, port = self.server_address[0], self.server_address[1]
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else str(host)
        return f"http://{shown}:{port}/"

    def allowed_host(self, header: str | None) -> bool:
        """Only loopback names (or the bound address) are accepted when bound to loopback."""
        bound = str(self.server_address[0])
        if bound not in LOOPBACK:
            return True
        if not header:
            return False
        name = header.rsplit(":", 1)[0] if not header.endswith("]") else header
        return name in LOOPBACK or name == bound

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class ViewerHandler(BaseHTTPRequestHandler):
    server: ViewerServer
    server_version = "clarisearch-viewer"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib signature)
        if not self.server.quiet:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, payload: Any, status: int = HTTPStatus.OK) -> None:
        self._send(status, to_json(payload), "application/json; charset=utf-8")

    def do_HEAD(self) -> None:  # noqa: N802 (stdlib name)
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802 (stdlib name)
        if not self.server.allowed_host(self.headers.get("Host")):
            self._json({"error": "unexpected Host header"}, HTTPStatus.FORBIDDEN)
            return
        url = urlsplit(self.path)
        params = parse_qs(url.query, keep_blank_values=True)
        if url.path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
            return
        if url.path in STATIC:
            name, content_type = STATIC[url.path]
            self._send(HTTPStatus.OK, _static(name), content_type)
            return
        try:
            with self.server.lock:  # file caches are shared between request threads
                payload = self._api(url.path, params)
        except ValueError as exc:
            self._json({"error": str(exc)}, HTTPStatus.BAD_REQUEST)
            return
        if payload is None:
            self._json({"error": f"not found: {url.path}"}, HTTPStatus.NOT_FOUND)
        else:
            self._json(payload)

    def _api(self, path: str, params: dict[str, list[str]]) -> Any:
        data = self.server.data

        def one(name: str) -> str:
            return (params.get(name) or [""])[0]

        if path == "/api/runs":
            return {"runs": data.runs_info()}
        if path == "/api/episodes":
            return data.query(params)
        if path == "/api/instance":
            return {"instance_id": one("id"), "rows": data.same_instance(one("id"))}
        if path == "/api/episode":
            return data.episode(one("run"), one("key"))
        return None


def serve(run_dirs: list[Path] | list[str], host: str = "127.0.0.1", port: int = 0,
          quiet: bool = True) -> tuple[ViewerServer, str]:
    """Start the viewer in a background thread; port 0 picks a free port. Stop it with `server.stop()`."""
    data = ViewerData([Path(p) for p in run_dirs])
    server = ViewerServer((host, port), data, quiet=quiet)
    threading.Thread(target=server.serve_forever, name="clarisearch-viewer", daemon=True).start()
    return server, server.url
