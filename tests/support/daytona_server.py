"""A loopback Daytona API for tests: the two REST endpoints the real `daytona` SDK calls to
list and delete snapshots (daytona 0.226.1, daytona_api_client/api/snapshots_api.py):

  GET    {base}/snapshots?page=N&limit=M  -> {"items": [SnapshotDto...], "total", "page", "totalPages"}
  DELETE {base}/snapshots/{id}            -> 200, empty body

Bearer-key checked (401 otherwise). Every request is recorded; anything else answers 404 and
is recorded too, so a test can assert the SDK called nothing more. Binds 127.0.0.1 only.
Our own reconstruction of the API's shapes (SnapshotDto's required fields), not Daytona code."""

from __future__ import annotations

import datetime
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

BASE = "/api"


@dataclass
class FakeSnapshot:
    id: str
    name: str
    created_at: datetime.datetime
    last_used_at: datetime.datetime | None = None

    def dto(self) -> dict[str, Any]:
        def iso(t: datetime.datetime | None) -> str | None:
            return None if t is None else t.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z")

        return {"id": self.id, "organizationId": "org-rl", "general": False, "name": self.name,
                "imageName": f"registry.example/{self.name}:latest", "state": "active", "size": 1.5,
                "entrypoint": None, "cpu": 1, "gpu": 0, "mem": 1, "disk": 3, "errorReason": None,
                "createdAt": iso(self.created_at), "updatedAt": iso(self.created_at),
                "lastUsedAt": iso(self.last_used_at), "sourceSandboxId": None}


@dataclass
class DaytonaServer:
    api_key: str
    snapshots: list[FakeSnapshot] = field(default_factory=list)
    requests: list[tuple[str, str]] = field(default_factory=list)   # (method, path with query)
    deleted: list[str] = field(default_factory=list)                # ids, in order
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}{BASE}"

    def names(self) -> list[str]:
        return [s.name for s in self.snapshots]

    def __enter__(self) -> "DaytonaServer":
        server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, name="fake-daytona", daemon=True).start()
        self._server = server
        return self

    def __exit__(self, *exc: "type[BaseException] | BaseException | TracebackType | None") -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # --------------------------------------------------------- the endpoints
    def list_page(self, page: int, limit: int) -> dict[str, Any]:
        start = (page - 1) * limit
        total = len(self.snapshots)
        return {"items": [s.dto() for s in self.snapshots[start:start + limit]], "total": total, "page": page,
                "totalPages": max(1, -(-total // limit))}

    def delete(self, snapshot_id: str) -> bool:
        for s in self.snapshots:
            if s.id == snapshot_id:
                self.snapshots.remove(s)
                self.deleted.append(snapshot_id)
                return True
        return False


def _handler(api: DaytonaServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:   # quiet
            pass

        def _send(self, code: int, body: Any = None) -> None:
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _authorized(self) -> bool:
            if self.headers.get("Authorization") == f"Bearer {api.api_key}":
                return True
            self._send(401, {"statusCode": 401, "message": "Unauthorized"})
            return False

        def do_GET(self) -> None:
            api.requests.append(("GET", self.path))
            url = urlsplit(self.path)
            if url.path != f"{BASE}/snapshots":
                return self._send(404, {"statusCode": 404, "message": "Not Found"})
            if self._authorized():
                query = parse_qs(url.query)
                page, limit = int(query.get("page", ["1"])[0]), int(query.get("limit", ["100"])[0])
                self._send(200, api.list_page(page, limit))

        def do_DELETE(self) -> None:
            api.requests.append(("DELETE", self.path))
            prefix = f"{BASE}/snapshots/"
            if not self.path.startswith(prefix) or "/" in self.path[len(prefix):]:
                return self._send(404, {"statusCode": 404, "message": "Not Found"})
            if self._authorized():
                found = api.delete(self.path[len(prefix):])
                self._send(200 if found else 404, None if found else {"statusCode": 404, "message": "not found"})

        def do_POST(self) -> None:
            api.requests.append(("POST", self.path))
            self._send(404, {"statusCode": 404, "message": "Not Found"})

    return Handler
