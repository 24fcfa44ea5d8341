"""irisrl's own local Iris cluster: a background controller process on loopback whose
workers are fake whole nodes (8 GPUs of the profile's variant, leafgroup attribute).

Layout under $IRISRL_HOME/local-cluster/: local.yaml (generated Iris cluster config),
state.json (url, pid, nodes and the controller's identity: command line, start time, boot
id; written only by irisrl), controller.log, url (written by the controller once it listens).
`cluster down` signals the recorded pid only while that identity still matches: a pid from
a stale state file (a reboot, a crash) may name someone else's process by now.

Stdlib only at import time: `cluster status` must stay cheap."""

from __future__ import annotations

import datetime
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import urlparse

from irisrl.core.procs import ProcessIdentity, pid_alive, reap_child
from irisrl.util.errors import IrisrlError, UndeterminedError
from irisrl.util.paths import irisrl_home, probe_free_space

# --- The client-age lift: the ONE place irisrl patches Iris ---------------------------------
# The controller rejects clients whose build is older than FRESHNESS_WINDOW (14 days) and
# every installable marin-iris wheel is older than that. Controllers irisrl starts itself
# widen the window in their own process. tests/integration/test_iris_local.py fails if the
# attribute moves.
CLIENT_AGE_MODULE = "iris.cluster.controller.service"
CLIENT_AGE_ATTR = "FRESHNESS_WINDOW"
CLIENT_AGE_WINDOW = datetime.timedelta(days=36500)


def lift_client_age_check() -> None:
    """Widen the controller's client-age window in this process (call before starting it)."""
    import importlib

    module = importlib.import_module(CLIENT_AGE_MODULE)
    if not isinstance(getattr(module, CLIENT_AGE_ATTR, None), datetime.timedelta):
        raise RuntimeError(f"{CLIENT_AGE_MODULE}.{CLIENT_AGE_ATTR} moved or changed type; "
                           "update irisrl.backends.local_cluster.CLIENT_AGE_* for this marin-iris")
    setattr(module, CLIENT_AGE_ATTR, CLIENT_AGE_WINDOW)


# sitecustomize for controllers started by the real `iris` CLI: patches the module right after
# it is imported (an import hook, so processes that never import it pay nothing).
_SHIM = '''"""irisrl shim: widen {module}.{attr} when it is imported (see irisrl.backends.local_cluster)."""
import datetime, importlib.abc, importlib.util, sys

class _IrisrlClientAgeLift(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != {module!r}:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module
        def exec_module(module):
            run(module)
            if not isinstance(getattr(module, {attr!r}, None), datetime.timedelta):
                raise RuntimeError("irisrl shim: {module}.{attr} moved")
            setattr(module, {attr!r}, datetime.timedelta(days={days}))
        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, _IrisrlClientAgeLift())
'''


def write_client_age_shim(directory: Path) -> Path:
    """Write sitecustomize.py into `directory`; put it first on PYTHONPATH of an `iris` CLI."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "sitecustomize.py"
    path.write_text(_SHIM.format(module=CLIENT_AGE_MODULE, attr=CLIENT_AGE_ATTR, days=CLIENT_AGE_WINDOW.days))
    return path


# --- Cluster config --------------------------------------------------------------------------

def local_cluster_yaml(nodes: int, gpus_per_node: int = 8, gpu_variant: str = "H100",
                       cpu: int = 48, memory: str = "512GB", disk: str = "512GB") -> str:
    """One scale group per gang size 1..nodes: Iris's local autoscaler only builds a slice
    whose num_vms equals a coscheduled job's replicas."""
    lines = ["name: irisrl-local", "platform:", "  local: {}", "controller:", "  local:", "    port: 0",
             "scale_groups:"]
    for size in range(1, nodes + 1):
        lines += [
            f"  gang-{size}:",
            f"    num_vms: {size}",
            f"    max_slices: {max(1, nodes // size)}",
            f"    resources: {{cpu: {max(int(cpu), 48)}, ram: {memory}, disk: {disk}, device_type: gpu,"
            f" device_variant: {gpu_variant}, device_count: {gpus_per_node}, capacity_type: on-demand}}",
            f"    worker: {{attributes: {{leafgroup: lg-{size}}}}}",
            f"    slice_template: {{num_vms: {size}, local: {{}}}}",
        ]
    return "\n".join(lines) + "\n"


# --- Environment -------------------------------------------------------------------------------
# Local tasks inherit the controller's environment, so it starts from an allowlist: no
# AWS_*, R2_*, tokens or other secrets from the operator's shell.
ENV_ALLOW = ("HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM", "SHELL",
             "IRISRL_HOME", "IRISRL_USER", "RAY_USAGE_STATS_ENABLED")


def scrubbed_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ENV_ALLOW}
    # Tasks run `python ...`: find this interpreter (and its venv's scripts) first.
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "/usr/bin:/bin")])
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    env.update(extra or {})
    return env


# --- Lifecycle ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class LocalClusterState:
    url: str
    pid: int
    nodes: int = 0
    gpus_per_node: int = 0
    started_at: float = 0.0
    config: str = ""
    log: str = ""
    owner: str = "irisrl"
    # the controller's identity (core/procs.ProcessIdentity); None in state files older than it
    start_ticks: int | None = None
    cmdline: list[str] | None = None
    boot_id: str | None = None

    def identity(self) -> ProcessIdentity | None:
        return ProcessIdentity.from_record(asdict(self))

    def ownership(self) -> str:
        """"ours" (the recorded controller still runs), "gone" (nothing runs under its pid),
        "other" (the pid is another process now) or "unverifiable" (alive, but the state file
        predates the identity fields: irisrl cannot tell)."""
        if not pid_alive(self.pid):
            return "gone"
        identity = self.identity()
        return identity.check() if identity else "unverifiable"


def state_dir() -> Path:
    return irisrl_home() / "local-cluster"


def read_state(directory: Path | None = None) -> LocalClusterState | None:
    path = (directory or state_dir()) / "state.json"
    try:
        data = json.loads(path.read_text())
        known = {k: v for k, v in data.items() if k in LocalClusterState.__dataclass_fields__}
        state = LocalClusterState(**known)
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    if not isinstance(state.url, str) or not isinstance(state.pid, int) or isinstance(state.pid, bool) \
            or state.pid <= 1:
        return None
    return state


def is_listening(url: str, timeout: float = 1.0) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 80), timeout=timeout):
            return True
    except OSError:
        return False


def running_state(directory: Path | None = None) -> LocalClusterState | None:
    """The recorded local cluster if its process is alive, not another process under a reused
    pid, and its port answers."""
    state = read_state(directory)
    if state and state.ownership() in ("ours", "unverifiable") and is_listening(state.url):
        return state
    return None


def spawn_controller(directory: Path, nodes: int, gpus_per_node: int, gpu_variant: str,
                     timeout: float = 90.0, tie_to_parent: bool = False, cpu: int = 48, memory: str = "512GB",
                     disk: str = "512GB", config_text: str | None = None,
                     on_spawn: Callable[[int], None] | None = None) -> LocalClusterState:
    """Start `python -m irisrl.backends.local_controller` in its own session; wait for its URL.
    `config_text`: an Iris cluster YAML of the caller's instead of the generated one (tests).
    `on_spawn(pid)`: called as soon as the process exists (its session id is its pid)."""
    directory.mkdir(parents=True, exist_ok=True)
    config = directory / "local.yaml"
    config.write_text(config_text or local_cluster_yaml(nodes, gpus_per_node, gpu_variant, cpu, memory, disk))
    url_file = directory / "url"
    url_file.unlink(missing_ok=True)
    log = directory / "controller.log"
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "irisrl.backends.local_controller", "--config", str(config),
             "--url-file", str(url_file)] + (["--parent-pid", str(os.getpid())] if tie_to_parent else []),
            cwd=directory, env=scrubbed_env(), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True)
    try:
        if on_spawn is not None:
            on_spawn(proc.pid)
        return _await_url(proc, url_file, log, nodes, gpus_per_node, config, timeout)
    except BaseException:   # Ctrl-C or a failure while it starts: stop what was started
        stop_process_group(proc.pid, timeout=10.0)
        raise


def _await_url(proc: "subprocess.Popen[bytes]", url_file: Path, log: Path, nodes: int, gpus_per_node: int,
               config: Path, timeout: float) -> LocalClusterState:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if url_file.exists() and url_file.read_text().strip():
            # read after the URL appears: by then the child has exec'd (its own command line)
            identity = ProcessIdentity.of(proc.pid)
            return LocalClusterState(url_file.read_text().strip(), proc.pid, nodes, gpus_per_node, time.time(),
                                     str(config), str(log), start_ticks=identity.start_ticks if identity else None,
                                     cmdline=list(identity.cmdline) if identity else None,
                                     boot_id=identity.boot_id if identity else None)
        if proc.poll() is not None:
            raise IrisrlError(f"local Iris controller exited with code {proc.returncode} while starting",
                              f"see its log: {log}")
        time.sleep(0.1)
    raise UndeterminedError(f"local Iris controller did not report its URL within {timeout:.0f}s",
                            f"see its log: {log}")


def start(nodes: int, gpus_per_node: int = 8, gpu_variant: str = "H100", directory: Path | None = None,
          cpu: int = 48, memory: str = "512GB", disk: str = "512GB") -> LocalClusterState:
    """`cluster up --local`: start and record a persistent local cluster."""
    directory = directory or state_dir()
    existing = running_state(directory)
    if existing:
        raise IrisrlError(f"a local cluster is already up at {existing.url} (pid {existing.pid})",
                          "use it, or stop it first: irisrl cluster down --local")
    try:
        probe_free_space(directory)   # a full disk: a clean error before anything starts (D11)
    except OSError as exc:
        raise _unwritable(directory, exc) from None
    state = spawn_controller(directory, nodes, gpus_per_node, gpu_variant, cpu=cpu, memory=memory, disk=disk)
    try:
        (directory / "state.json").write_text(json.dumps(asdict(state), indent=2))
    except OSError as exc:   # never leave a controller running that no state file names
        stop_process_group(state.pid)
        raise _unwritable(directory, exc) from None
    return state


def _unwritable(directory: Path, exc: OSError) -> UndeterminedError:
    return UndeterminedError(f"cannot write the local cluster's state under {directory} "
                             f"({exc.__class__.__name__}: {exc}); no cluster was started",
                             f"free space on that filesystem, or point $IRISRL_HOME elsewhere")


@dataclass(frozen=True)
class Stopped:
    """What `stop` did: `outcome` is "stopped" (it was ours: signalled), "gone" (nothing ran
    under the recorded pid) or "other" (the pid is another process now: not signalled); the
    state file is removed in all three."""
    state: LocalClusterState
    outcome: str


def stop(directory: Path | None = None, timeout: float = 30.0) -> Stopped | None:
    """`cluster down --local`: stop the controller irisrl recorded (and its task processes),
    only after checking that the recorded pid is still that controller. Raises IrisrlError
    (signalling nothing) for a live pid in a state file without the identity fields."""
    directory = directory or state_dir()
    path = directory / "state.json"
    state = read_state(directory)
    if state is None:
        if path.exists():
            raise IrisrlError(f"{path} is not a state file irisrl can read; nothing was signalled",
                              f"if no local cluster of yours runs, remove it: rm {path}")
        return None
    ownership = state.ownership()
    if ownership == "unverifiable":
        raise IrisrlError(
            f"{path} records pid {state.pid} without its start time and command line (written by an older "
            "irisrl); that pid runs, but irisrl cannot tell whether it is still its controller, so it signals nothing",
            f"check it: ps -o pid,lstart,args -p {state.pid}; if it is irisrl.backends.local_controller, stop it "
            f"with: kill {state.pid}; then remove the record: rm {path}")
    if ownership == "ours":
        stop_process_group(state.pid, timeout)
    path.unlink(missing_ok=True)
    (directory / "url").unlink(missing_ok=True)
    return Stopped(state, "stopped" if ownership == "ours" else ownership)


def stop_process_group(pid: int, timeout: float = 30.0) -> None:
    """SIGTERM the controller (it closes the cluster, which stops its tasks), then SIGKILL
    whatever is left in its process group after `timeout`."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _pid_running(pid):
        time.sleep(0.1)
    try:
        os.killpg(pid, signal.SIGKILL)  # stragglers (task processes) share the session/group
    except (ProcessLookupError, PermissionError):
        pass
    _pid_running(pid)


def _pid_running(pid: int) -> bool:
    """Alive and not a zombie (reaps our own child if it exited)."""
    reap_child(pid)
    return pid_alive(pid)
