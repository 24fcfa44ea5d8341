"""One Ray node per task: started as `ray start --block` in its own session so that this
controller can stop exactly the processes it started (never a host-wide `ray stop`).

- The `ray start` process runs under a tiny launcher that sets PR_SET_PDEATHSIG, and with
  --block Ray spawns a reaper: if this controller is SIGKILLed (Iris local kill), `ray
  start` dies and its reaper takes the raylet/GCS down with it.
- stop() snapshots the process tree under `ray start` (raylet, GCS, workers, which Ray
  puts in sessions of their own) from /proc, sends SIGTERM, then SIGKILL to survivors.
- Local mode: every port chosen free, fake GPUs (--num-gpus), a small object store, and
  the temp dir under the task's own directory (through a short /tmp symlink when the path
  is too long for Ray's unix sockets, which must stay under ~107 characters).
- Local mode stays on loopback (see loopback_env): Ray 2.60 turns --node-ip-address=127.0.0.1
  into the host's routable IP, and its GCS, raylet and agents then listen on every interface;
  given a node IP of literally 127.0.0.1 they listen on 127.0.0.1 only.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

from irisrl.core.procs import terminate
from irisrl.runtime.contract import ENV_RAY_AUTH_MODE, ENV_RAY_AUTH_TOKEN
from irisrl.runtime.log import say
from irisrl.runtime.ports import local_ray_ports, usable_port

RANK_LABEL = "irisrl-rank"
NONCE_LABEL = "irisrl-nonce"
MAX_TEMP_DIR = 40          # Ray appends ~65 chars (session_<date>_<pid>/sockets/plasma_store)
PDEATHSIG_LAUNCHER = (
    "import ctypes,ctypes.util,os,signal,sys;"
    "ctypes.CDLL(ctypes.util.find_library('c'),use_errno=True).prctl(1,signal.SIGKILL,0,0,0);"
    "os.execvp(sys.argv[1],sys.argv[1:])"
)
# Ray's own switch (ray_constants.ENABLE_RAY_CLUSTER) that makes it resolve "this node" to
# 127.0.0.1 instead of the routable IP; read at `import ray`, so set before any Ray import.
LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
# With that switch `ray start --address` refuses to join ("multi-node not supported"): a worker
# node runs Ray's CLI with the check passed and 127.0.0.1 kept as given (Ray 2.60 names).
LOOPBACK_WORKER_CLI = (
    "import sys;import ray._private.ray_constants as c,ray._private.services as s;"
    "c.ENABLE_RAY_CLUSTER=True;s.resolve_ip_for_localhost=lambda h:h;"
    "from ray.scripts.scripts import main;sys.argv=['ray',*sys.argv[1:]];sys.exit(main())"
)


class RayNodeError(RuntimeError):
    pass


class RayNode(Protocol):
    def start_head(self, host: str, port: int | None) -> str: ...
    def join(self, address: str, host: str | None = None) -> None: ...
    def alive(self) -> dict[int, str]: ...            # rank -> worker nonce, alive nodes only
    def problem(self) -> str | None: ...              # why this node's Ray is gone, if it is
    def stop(self) -> None: ...


def wrap_pdeathsig(argv: list[str]) -> list[str]:
    """Run argv so that it is SIGKILLed when this process dies (Linux only)."""
    if sys.platform != "linux":
        return argv
    return [sys.executable, "-c", PDEATHSIG_LAUNCHER, *argv]


def pin_auth_mode() -> None:
    """Make Ray's authentication mode explicit for this process and the Ray it starts: "token"
    with the plan's RAY_AUTH_TOKEN, else "disabled". Left unset, `ray start --head` turns token
    auth on by itself when it finds a ~/.ray/auth_token (any tool may leave one in a shared
    HOME) while `ray start --address` does not, and the gang's workers are then refused."""
    if ENV_RAY_AUTH_MODE not in os.environ:
        os.environ[ENV_RAY_AUTH_MODE] = "token" if os.environ.get(ENV_RAY_AUTH_TOKEN) else "disabled"


def loopback_env() -> None:
    """Local mode: this process (ray.init in the controller) and its children (ray start, CMD)
    resolve the local node to 127.0.0.1, so every Ray server binds loopback only."""
    os.environ.update(LOOPBACK_ENV)
    constants = sys.modules.get("ray._private.ray_constants")
    if constants is not None:   # Ray already imported here (tests, bench): its copy too
        setattr(constants, "ENABLE_RAY_CLUSTER", False)


def temp_alias(path: str) -> str:
    """The path Ray is given for this temp dir: itself when short enough, else a /tmp alias."""
    return path if len(path) <= MAX_TEMP_DIR else f"/tmp/irisrl-{hashlib.sha1(path.encode()).hexdigest()[:10]}"


def short_temp_dir(path: str) -> str:
    """Ray's unix sockets live under the temp dir; keep the path short via a /tmp symlink."""
    os.makedirs(path, exist_ok=True)
    link = temp_alias(path)
    if link == path:
        return path
    if os.path.islink(link) and os.readlink(link) != path:
        os.remove(link)
    if not os.path.islink(link):
        os.symlink(path, link)
    return link


def descendants(root: int) -> list[int]:
    """PIDs of root and every process below it, read from /proc (Linux)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                stat = fh.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def kill_tree(root: int, grace: float = 3.0) -> None:
    terminate(descendants(root), grace)


@dataclass
class RealRayNode:
    rank: int
    nonce: str
    gpus_per_node: int | None
    local: bool
    temp_dir: str | None = None        # local mode: under the task's own directory
    start_timeout: float = 120.0
    ray_bin: str = "ray"
    _proc: subprocess.Popen[str] | None = field(default=None, repr=False)
    _tail: deque[str] = field(default_factory=lambda: deque(maxlen=20), repr=False)
    _connected: bool = False
    _address: str = ""
    _temp_arg: str = ""

    def _ray_cli(self, head: bool) -> list[str]:
        if self.local and not head:
            return [sys.executable, "-c", LOOPBACK_WORKER_CLI]
        return [self.ray_bin]

    def _argv(self, head: bool, taken: set[int] | None = None) -> list[str]:
        labels = json.dumps({RANK_LABEL: str(self.rank), NONCE_LABEL: self.nonce})
        argv = [*self._ray_cli(head), "start", "--block", "--disable-usage-stats", f"--labels={labels}"]
        if head:
            argv += ["--head", "--include-dashboard=false"]
        if self.local:
            cpus = max(self.gpus_per_node or 1, 1) + 1     # logical: one per GPU bundle, plus one
            argv += [f"--num-cpus={cpus}", "--object-store-memory=100000000"]
            argv += [f"--{name}={port}" for name, port in local_ray_ports(head, taken).items()]
            if self.temp_dir:
                self._temp_arg = short_temp_dir(self.temp_dir)
                argv.append(f"--temp-dir={self._temp_arg}")
        if self.gpus_per_node is not None and self.local:
            argv.append(f"--num-gpus={self.gpus_per_node}")   # fake GPUs: plain resources
        return argv

    def _launch(self, argv: list[str], what: str) -> None:
        pin_auth_mode()   # before the env is copied: also seen by this process's own ray.init
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", **(LOOPBACK_ENV if self.local else {}))
        started = threading.Event()
        self._proc = subprocess.Popen(wrap_pdeathsig(argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True, bufsize=1, env=env, start_new_session=True)
        if self.temp_dir:
            with open(os.path.join(self.temp_dir, "irisrl-ray.pid"), "w") as fh:
                fh.write(f"{self._proc.pid}\n")

        def pump() -> None:
            assert self._proc and self._proc.stdout
            for line in self._proc.stdout:
                self._tail.append(line.rstrip())
                sys.stdout.write(line)
                if "Ray runtime started" in line:
                    started.set()

        threading.Thread(target=pump, name="ray-start-output", daemon=True).start()
        deadline = time.monotonic() + self.start_timeout
        while not started.wait(0.2):
            if self._proc.poll() is not None:
                raise RayNodeError(f"{what} exited with code {self._proc.returncode}: "
                                   + " | ".join(list(self._tail)[-5:]))
            if time.monotonic() >= deadline:
                self.stop()
                raise RayNodeError(f"{what} did not report 'Ray runtime started.' within {self.start_timeout:g} s")

    def start_head(self, host: str, port: int | None) -> str:
        if self.local:
            loopback_env()   # also for the drivers this process starts (rehearsal, tests)
        port = usable_port(port) if self.local else (port or 6379)
        self._launch(self._argv(head=True, taken={port}) + [f"--port={port}", f"--node-ip-address={host}"],
                     f"ray start --head (port {port})")
        self._address = f"{host}:{port}"
        return self._address

    def join(self, address: str, host: str | None = None) -> None:
        """Join the head at address, advertising this node's own host (IRIS_ADVERTISE_HOST;
        default: the head's host in local mode, Ray's own detection otherwise)."""
        host = host or (address.rsplit(":", 1)[0] if self.local else None)
        if self.local:
            loopback_env()
        argv = self._argv(head=False) + [f"--address={address}"] + ([f"--node-ip-address={host}"] if host else [])
        self._launch(argv, f"ray start --address={address}")

    def alive(self) -> dict[int, str]:
        if self.local:
            loopback_env()   # before `import ray`: its constants are read at import
        import ray  # lazy: only the head asks Ray for its nodes

        if not self._connected:
            ours = signal.getsignal(signal.SIGTERM)
            ray.init(address=self._address, log_to_driver=False, logging_level=logging.WARNING)
            # ray.init installs a native failure-signal handler that exits 15 on SIGTERM,
            # bypassing our handler (kill CMD's group, done marker, exit 143): put ours back
            signal.signal(signal.SIGTERM, ours)
            self._connected = True
        nodes = {}
        for node in ray.nodes():  # type: ignore[no-untyped-call]
            labels = node.get("Labels") or {}
            if node.get("Alive") and labels.get(RANK_LABEL, "").isdigit():
                nodes[int(labels[RANK_LABEL])] = labels.get(NONCE_LABEL, "")
        return nodes

    def problem(self) -> str | None:
        if self._proc and self._proc.poll() is not None:
            return f"this node's Ray exited (ray start code {self._proc.returncode}): " + " | ".join(list(self._tail)[-3:])
        return None

    def stop(self) -> None:
        if self._connected:
            import ray

            try:
                ray.shutdown()
            except Exception:  # noqa: BLE001 - best effort on the way out
                pass
            self._connected = False
        if self._proc and self._proc.poll() is None:
            kill_tree(self._proc.pid)
        self._proc = None   # a `ray start` that died on its own took its tree down (reaper)
        if self._temp_arg and os.path.islink(self._temp_arg):
            os.remove(self._temp_arg)   # the short /tmp alias; the session stays in the task dir
