"""ops/orphans.py on real processes: a launch record whose launcher is gone is reaped (the
recorded sessions' members that started after it, the temp dir, the ledger row -> lost);
a record whose launcher still runs, or a session older than the launcher, is left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from irisrl.core.procs import ProcessIdentity, pid_alive
from irisrl.ledger.store import Ledger
from irisrl.ops.orphans import TEMP_PREFIX, records_dir, reap_orphans

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _spawn(session: bool = True) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(["sleep", "300"], start_new_session=session)
    deadline = time.monotonic() + 10
    while (ident := ProcessIdentity.of(proc.pid)) is None or ident.cmdline[0] != "sleep":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return proc


def _identity(proc: subprocess.Popen[bytes]) -> ProcessIdentity:
    ident = ProcessIdentity.of(proc.pid)
    assert ident is not None
    return ident


def _record(launcher: ProcessIdentity, job_id: str, sessions: list[int], tmp_dir: str) -> Path:
    path = records_dir() / f"{launcher.pid}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"job_id": job_id, "tmp_dir": tmp_dir, "sessions": sessions,
                                "launcher": launcher.to_record(), "controller": None}))
    return path


def _row(job_id: str) -> Ledger:
    ledger = Ledger()
    plan = SimpleNamespace(to_dict=lambda: {"job_id": job_id, "job_name": job_id.rsplit("/", 1)[-1]})
    ledger.record_launch(plan, "http://127.0.0.1:1", "local")
    return ledger


def test_a_dead_launchers_leftovers_are_reaped_and_its_row_marked_lost() -> None:
    elder = _spawn()                        # a session that existed before the launch: not ours
    time.sleep(0.05)                        # start times count in 10 ms clock ticks
    launcher = _spawn(session=False)
    time.sleep(0.05)
    agent = _spawn()                        # stands in for a Ray agent in the launch's session
    bystander = _spawn()                    # a session the record does not name
    tmp = tempfile.mkdtemp(prefix=TEMP_PREFIX)
    ident = _identity(launcher)
    launcher.kill()
    launcher.wait()
    path = _record(ident, "/tester/orph", [os.getsid(agent.pid), os.getsid(elder.pid)], tmp)
    ledger = _row("/tester/orph")
    try:
        reaped = reap_orphans()
        assert [r.job_id for r in reaped] == ["/tester/orph"] and reaped[0].processes == [agent.pid]
        assert "ledger row marked lost" in reaped[0].line()
        agent.wait(timeout=10)
        assert not pid_alive(agent.pid)
        assert elder.poll() is None and bystander.poll() is None
        assert not Path(tmp).exists() and not path.exists()
        assert (ledger.latest("/tester/orph") or {})["last_state"] == "lost"
        assert reap_orphans() == []
    finally:
        for p in (elder, agent, bystander):
            p.kill()
            p.wait()


def test_a_record_of_a_launch_that_still_runs_is_left_alone() -> None:
    launcher, agent = _spawn(session=False), _spawn()
    tmp = tempfile.mkdtemp(prefix=TEMP_PREFIX)
    path = _record(_identity(launcher), "/tester/live", [os.getsid(agent.pid)], tmp)
    try:
        assert reap_orphans() == []
        assert agent.poll() is None and Path(tmp).exists() and path.exists()
    finally:
        for p in (launcher, agent):
            p.kill()
            p.wait()
        os.rmdir(tmp)


def test_a_temp_dir_that_is_not_ours_is_never_removed(tmp_path: Path) -> None:
    launcher = _spawn(session=False)
    ident = _identity(launcher)
    launcher.kill()
    launcher.wait()
    keep = tmp_path / "irisrl-local-lookalike"      # right name, wrong place
    keep.mkdir()
    _record(ident, "/tester/other", [], str(keep))
    assert reap_orphans()[0].removed_dir is None and keep.is_dir()


def test_a_corrupt_ledger_does_not_stop_the_reaping() -> None:
    from irisrl.util.paths import irisrl_home

    launcher = _spawn(session=False)
    ident = _identity(launcher)
    launcher.kill()
    launcher.wait()
    tmp = tempfile.mkdtemp(prefix=TEMP_PREFIX)
    irisrl_home().mkdir(parents=True, exist_ok=True)
    (irisrl_home() / "ledger.sqlite").write_bytes(os.urandom(4096))
    path = _record(ident, "/tester/corrupt", [], tmp)
    reaped = reap_orphans()
    assert reaped[0].marked_lost is False and not Path(tmp).exists() and not path.exists()
