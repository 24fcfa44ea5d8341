"""Corrupt and full state dirs (issue 16, D8/D11): a clear error and exit 3, nothing
submitted, nothing written that was not asked for, no traceback.

The full disk is real where the machine allows it: a 256 KiB tmpfs mounted in a user+mount
namespace (`unshare -rm`, no root needed where unprivileged user namespaces are enabled) and
filled, with the command run inside it; elsewhere those tests skip, and the in-process tests
inject OSError(ENOSPC) at the one write boundary (util/paths.probe_free_space's os.write)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Iterator

import pytest

from irisrl.util.exitcodes import Exit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from fault_kit import REPO, SMOKE, WORKSPACE, Cli, no_traceback  # noqa: E402


def _home() -> Path:
    return Path(os.environ["IRISRL_HOME"])


def _smoke_plan() -> Any:
    from irisrl.core.target import Target
    from irisrl.plan.build import PlanInputs, build_plan

    plan, findings, _ = build_plan(PlanInputs(rl_config=SMOKE, workspace=WORKSPACE, num_nodes=2), Target(local=True))
    assert plan is not None, findings
    return plan


# ------------------------------------------------------------------ corrupt ledgers (D8)


def _random_bytes(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def _truncated(path: Path) -> None:
    from irisrl.ledger.store import Ledger

    ledger = Ledger(path)
    plan = _smoke_plan()
    for _ in range(30):
        ledger.record_launch(plan, "memory://", "url")
    os.truncate(path, path.stat().st_size // 3)


def _directory(path: Path) -> None:
    path.mkdir(parents=True)


CORRUPTIONS = {"random-bytes": _random_bytes, "truncated": _truncated, "directory": _directory}


@pytest.fixture(params=sorted(CORRUPTIONS))
def corrupt_ledger(request: pytest.FixtureRequest) -> Path:
    path = _home() / "ledger.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    CORRUPTIONS[request.param](path)
    return path


@pytest.mark.parametrize("argv", [["runs"], ["runs", "--json"], ["status", "some-job", "--local"]])
def test_d8_commands_on_a_corrupt_ledger(argv: list[str], corrupt_ledger: Path, cli: Cli) -> None:
    code, out, err = cli(*argv)
    assert code == Exit.UNKNOWN, (out, err)
    assert f"the run ledger {corrupt_ledger} cannot be read" in err
    assert "mv " in err                    # the fix: move it aside
    no_traceback(out, err)


@pytest.fixture
def memory_backend() -> Iterator[Any]:
    """The in-memory backend ops.launch is handed (it records what it was sent; it lists no
    workers, so the fit gate says "not checked")."""
    sys.path.insert(0, str(REPO / "tests" / "support"))
    from memory_backend import MemoryBackend  # type: ignore[import-not-found]

    yield MemoryBackend()
    sys.path.remove(str(REPO / "tests" / "support"))


def _launch_no_wait(plan: Any, backend: Any) -> Any:
    from irisrl.ops import LaunchSettings, Target, launch

    return launch(plan, LaunchSettings(Target(controller_url="http://127.0.0.1:9"), no_wait=True), backend=backend)


def test_a_healthy_ledger_records_the_launch(memory_backend: Any) -> None:
    """The control for the two below: this path does submit and record."""
    from irisrl.ledger.store import Ledger

    launched = _launch_no_wait(_smoke_plan(), memory_backend)
    assert launched.exit_code == Exit.OK and len(memory_backend.submitted) == 1
    assert [r["job_id"] for r in Ledger().runs()] == [launched.job_id]


def test_d8_launch_on_a_corrupt_ledger_submits_nothing(corrupt_ledger: Path, memory_backend: Any) -> None:
    from irisrl.util.errors import IrisrlError

    plan = _smoke_plan()
    with pytest.raises(IrisrlError) as exc:
        _launch_no_wait(plan, memory_backend)
    assert exc.value.exit_code == Exit.UNKNOWN and "cannot be read" in exc.value.message
    assert memory_backend.submitted == {}


def test_d11_launch_on_a_full_disk_submits_nothing(memory_backend: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """ENOSPC injected at the write boundary (the real full disk: test_d11_real_full_disk_*)."""
    from irisrl.util.errors import IrisrlError

    plan = _smoke_plan()

    def full(fd: int, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("irisrl.util.paths.os.write", full)
    with pytest.raises(IrisrlError) as exc:
        _launch_no_wait(plan, memory_backend)
    assert exc.value.exit_code == Exit.UNKNOWN and "No space left" in exc.value.message
    assert "free space" in exc.value.fix
    assert memory_backend.submitted == {}


def test_d11_runs_with_no_ledger_writes_nothing(cli: Cli) -> None:
    code, out, err = cli("runs")
    assert code == Exit.OK and "no launches recorded" in out
    assert not _home().exists()
    code, out, _ = cli("runs", "--json")
    assert code == Exit.OK and json.loads(out) == []
    assert not _home().exists()


# ------------------------------------------------------------------ a real full disk (tmpfs)


def _tmpfs_available() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k none /mnt 2>/dev/null "
                            "|| mount -t tmpfs -o size=64k none /tmp"], capture_output=True, timeout=30)
    return probe.returncode == 0


needs_tmpfs = pytest.mark.skipif(not _tmpfs_available(), reason="no unprivileged user+mount namespace for a tmpfs")


def _on_full_disk(home: Path, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run argv with $IRISRL_HOME on a 256 KiB tmpfs filled to the last byte."""
    home.mkdir(parents=True, exist_ok=True)
    script = (f"mount -t tmpfs -o size=256k none {home} && "
              f"(dd if=/dev/zero of={home}/fill bs=4k 2>/dev/null; true) && exec \"$@\"")
    env = {**os.environ, "IRISRL_HOME": str(home), "PYTHONPATH": str(REPO / "src")}
    return subprocess.run(["unshare", "-rm", "sh", "-c", script, "sh", *argv], capture_output=True, text=True,
                          env=env, timeout=120)


LAUNCH_SCRIPT = textwrap.dedent(f"""
    import sys
    sys.path.insert(0, {str(REPO / "tests" / "support")!r})
    from memory_backend import MemoryBackend
    import irisrl.ops.launcher as launcher
    from irisrl.cli.main import _print_error
    from irisrl.core.target import Target
    from irisrl.ops.launcher import LaunchSettings
    from irisrl.plan.build import PlanInputs, build_plan
    from irisrl.util.errors import IrisrlError
    backend = MemoryBackend()
    plan, _, _ = build_plan(PlanInputs(rl_config={SMOKE!r}, workspace={WORKSPACE!r}, num_nodes=2), Target(local=True))
    try:
        code = launcher.launch(plan, LaunchSettings(Target(local=True), no_wait=True), backend=backend).exit_code
    except IrisrlError as exc:
        _print_error(exc)
        code = exc.exit_code
    print("submitted", len(backend.submitted))
    sys.exit(code)
""")


@needs_tmpfs
def test_d11_real_full_disk_launch_submits_nothing(tmp_path: Path) -> None:
    done = _on_full_disk(tmp_path / "state", [sys.executable, "-c", LAUNCH_SCRIPT])
    assert done.returncode == Exit.UNKNOWN, done.stderr
    assert "submitted 0" in done.stdout
    assert "No space left on device" in done.stderr or "disk is full" in done.stderr
    no_traceback(done.stdout, done.stderr)


@needs_tmpfs
def test_d11_real_full_disk_runs_and_cluster_up(tmp_path: Path) -> None:
    irisrl = [sys.executable, "-m", "irisrl"]
    runs = _on_full_disk(tmp_path / "state", [*irisrl, "runs"])
    assert runs.returncode == Exit.OK and "no launches recorded" in runs.stdout, runs.stderr
    up = _on_full_disk(tmp_path / "state2", [*irisrl, "cluster", "up", "--local", "--nodes", "1"])
    assert up.returncode == Exit.UNKNOWN, up.stderr
    assert "cannot write the local cluster's state" in up.stderr and "no cluster was started" in up.stderr
    no_traceback(runs.stdout, runs.stderr, up.stdout, up.stderr)


def test_d11_disk_filling_after_the_check_names_the_untracked_job(memory_backend: Any,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe passed, then the ledger write failed: the error says the job was submitted
    (never "nothing was submitted") and how to reach it."""
    from irisrl.ledger.store import Ledger, LedgerUnusable
    from irisrl.util.errors import IrisrlError

    def full(self: Ledger, *args: Any, **kwargs: Any) -> int:
        raise LedgerUnusable(self.path, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), writing=True)

    monkeypatch.setattr(Ledger, "record_launch", full)
    with pytest.raises(IrisrlError) as exc:
        _launch_no_wait(_smoke_plan(), memory_backend)
    (job_id,) = memory_backend.submitted
    assert exc.value.exit_code == Exit.UNKNOWN
    assert f"{job_id} was submitted" in exc.value.message and "nothing was submitted" not in exc.value.message
    assert f"irisrl kill {job_id}" in exc.value.fix
