"""A loopback Hugging Face Hub for tests: the few REST endpoints huggingface_hub (2.4) calls
for create_repo, upload_folder (preupload, then one NDJSON commit) and list_repo_files /
model_info, over model repos held in memory. Point `HF_ENDPOINT` at `url`. Every file is
answered "regular" by preupload, so the content travels base64 in the commit and no LFS or
Xet transfer is ever needed (set `HF_HUB_DISABLE_XET=1` all the same).

Endpoints (paths as huggingface_hub/hf_api.py and _commit_api.py build them):
  POST /api/repos/create                          {"name", "organization", "type", "private"}
  POST /api/models/{repo}/preupload/{revision}    {"files": [{"path", "sample", "size"}]}
  POST /api/models/{repo}/commit/{revision}       NDJSON: header, then file / deletedFile lines
  GET  /api/models/{repo}/tree/{revision}[/path]  [{"type": "file", "path", "size", "oid"}]
  GET  /api/models/{repo}[/revision/{revision}]   {"id", "sha", "siblings": [{"rfilename"}]}
A request without `Authorization: Bearer <token>` is refused (401) when a token is set; an
unknown repo is 404 with X-Error-Code RepoNotFound (the client's RepositoryNotFoundError).
Binds 127.0.0.1 only; `stop()` (or the context manager) shuts it down."""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator
from urllib.parse import unquote, urlparse


@dataclass
class Repo:
    private: bool = False
    files: dict[str, bytes] = field(default_factory=dict)
    commits: list[str] = field(default_factory=list)

    @property
    def sha(self) -> str:
        return self.commits[-1] if self.commits else "0" * 40


class HubServer:
    def __init__(self, token: str | None = None) -> None:
        self.token = token
        self.repos: dict[str, Repo] = {}
        self.requests: list[tuple[str, str]] = []   # (method, path) in arrival order
        self.lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="hub-server", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def start(self) -> "HubServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> "HubServer":
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    def files(self, repo_id: str) -> list[str]:
        with self.lock:
            return sorted(self.repos[repo_id].files) if repo_id in self.repos else []


def _handler(hub: HubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_: object) -> None:   # quiet
            pass

        def do_GET(self) -> None:
            self._route("GET")

        def do_POST(self) -> None:
            self._route("POST")

        def _route(self, method: str) -> None:
            path = unquote(urlparse(self.path).path)
            hub.requests.append((method, path))
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if hub.token is not None and self.headers.get("Authorization") != f"Bearer {hub.token}":
                return self._send(401, {"error": "Invalid credentials in Authorization header"})
            if method == "POST" and path == "/api/repos/create":
                return self._create(json.loads(body or b"{}"))
            parts = path.split("/")
            if len(parts) < 5 or parts[:3] != ["", "api", "models"]:
                return self._send(404, {"error": f"no route {method} {path}"})
            repo_id, rest = "/".join(parts[3:5]), parts[5:]
            with hub.lock:
                repo = hub.repos.get(repo_id)
            if repo is None:
                return self._send(404, {"error": f"Repository {repo_id} not found"}, {"X-Error-Code": "RepoNotFound"})
            if method == "POST" and rest[:1] == ["preupload"]:
                files = json.loads(body)["files"]
                return self._send(200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False,
                                                   "oid": None} for f in files], "commitOid": repo.sha})
            if method == "POST" and rest[:1] == ["commit"]:
                return self._commit(repo_id, repo, body)
            if method == "GET" and rest[:1] == ["tree"]:
                prefix = "/".join(rest[2:])
                return self._send(200, [{"type": "file", "path": p, "size": len(data),
                                         "oid": hashlib.sha1(data).hexdigest()}
                                        for p, data in sorted(repo.files.items())
                                        if not prefix or p.startswith(prefix.rstrip("/") + "/")])
            if method == "GET" and (not rest or rest[:1] == ["revision"]):
                return self._send(200, {"id": repo_id, "modelId": repo_id, "sha": repo.sha, "private": repo.private,
                                        "siblings": [{"rfilename": p} for p in sorted(repo.files)]})
            return self._send(404, {"error": f"no route {method} {path}"})

        def _create(self, payload: dict[str, object]) -> None:
            repo_id = f"{payload.get('organization')}/{payload.get('name')}" if payload.get("organization") \
                else str(payload.get("name"))
            with hub.lock:
                if repo_id in hub.repos:
                    return self._send(409, {"error": "You already created this model repo", "url": self._url(repo_id)})
                hub.repos[repo_id] = Repo(private=bool(payload.get("private")))
            self._send(200, {"url": self._url(repo_id), "name": repo_id})

        def _commit(self, repo_id: str, repo: Repo, body: bytes) -> None:
            with hub.lock:
                for item in _ndjson(body):
                    value = item.get("value") or {}
                    if item.get("key") == "file":
                        repo.files[value["path"]] = base64.b64decode(value["content"])
                    elif item.get("key") == "deletedFile":
                        repo.files.pop(value["path"], None)
                    elif item.get("key") == "lfsFile":
                        return self._send(400, {"error": "LFS is not implemented by this test Hub"})
                sha = hashlib.sha1(json.dumps(sorted(repo.files)).encode() + str(len(repo.commits)).encode()).hexdigest()
                repo.commits.append(sha)
            self._send(200, {"commitUrl": f"{self._url(repo_id)}/commit/{sha}", "commitOid": sha,
                             "pullRequestUrl": None})

        def _url(self, repo_id: str) -> str:
            return f"{hub.url}/{repo_id}"

        def _send(self, status: int, payload: object, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _ndjson(body: bytes) -> Iterator[dict[str, dict[str, str]]]:
    for line in body.splitlines():
        if line.strip():
            yield json.loads(line)
