"""D6: `cluster down --local` signals the recorded pid only while it is still the controller
irisrl started (command line + start time + boot id); a stale record is removed, an old
record without those fields is refused. Real processes in sessions of their own stand in
for the controller (`setsid sleep`, as in the issue's repro)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from irisrl.backends.local_cluster import state_dir
from irisrl.cli.main import main
from irisrl.core.procs import ProcessIdentity, pid_alive

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


@pytest.fixture
def bystander() -> "subprocess.Popen[bytes]":
    proc = subprocess.Popen(["sleep", "1000"], start_new_session=True)
    deadline = time.monotonic() + 10
    while ProcessIdentity.of(proc.pid) is None or ProcessIdentity.of(proc.pid).cmdline[0] != "sleep":  # type: ignore[union-attr]
        assert time.monotonic() < deadline
        time.sleep(0.02)
    yield proc
    proc.kill()
    proc.wait(timeout=10)


def _record(**fields: object) -> Path:
    path = state_dir() / "state.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"url": "http://127.0.0.1:1", "nodes": 2, "gpus_per_node": 8, "started_at": 0.0,
                                "config": "x", "log": "y", **fields}))
    return path


def test_issue_repro_old_record_naming_a_live_foreign_pid_is_refused_and_nothing_is_signalled(capsys, bystander):
    path = _record(pid=bystander.pid)          # the issue's state.json: url + pid, no identity
    code, out, _ = run(capsys, "cluster", "status")
    assert code == 1 and "cluster down --local" in out
    code, out, err = run(capsys, "cluster", "down", "--local")
    assert code == 1 and "signals nothing" in err and f"rm {path}" in err and "stopped" not in out
    time.sleep(0.3)
    assert bystander.poll() is None and pid_alive(bystander.pid)
    assert path.exists()                       # left for the user, who was told how to check it


def test_record_whose_pid_is_another_process_now_is_removed_without_a_signal(capsys, bystander):
    ident = ProcessIdentity.of(bystander.pid)
    assert ident is not None
    # the recorded controller started earlier under the same pid: a reused pid after a restart
    path = _record(pid=bystander.pid, start_ticks=ident.start_ticks - 100,
                   cmdline=[sys.executable, "-m", "irisrl.backends.local_controller"], boot_id=ident.boot_id)
    code, out, _ = run(capsys, "cluster", "status")
    assert code == 1 and "another process" in out
    code, out, _ = run(capsys, "cluster", "down", "--local")
    assert code == 0 and "was not signalled" in out
    time.sleep(0.3)
    assert bystander.poll() is None and not path.exists()


def test_record_whose_pid_is_gone_is_cleaned(capsys):
    proc = subprocess.Popen(["true"])
    proc.wait()
    path = _record(pid=proc.pid, start_ticks=1, cmdline=["true"], boot_id="b")
    code, out, _ = run(capsys, "cluster", "down", "--local")
    assert code == 0 and "no longer running" in out and not path.exists()


def test_record_that_still_names_our_process_stops_its_group(capsys, bystander):
    ident = ProcessIdentity.of(bystander.pid)
    assert ident is not None
    path = _record(**ident.to_record())
    code, out, _ = run(capsys, "cluster", "down", "--local")
    assert code == 0 and "stopped" in out and not path.exists()
    bystander.wait(timeout=10)     # stop() reaped its status already (it is our child here)
    assert not pid_alive(bystander.pid)


def test_unreadable_record_is_refused_not_ignored(capsys):
    path = state_dir() / "state.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"url": "http://127.0.0.1:1", "pid": "1"}')
    code, _, err = run(capsys, "cluster", "down", "--local")
    assert code == 1 and "nothing was signalled" in err
