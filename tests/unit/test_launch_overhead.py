"""The launch's own overhead pieces: an exact process start (the `validate` phase's origin),
the Iris SDK imported in the background while the local controller starts, slower polls
only while Ray forms, and the summary's imports warmed while the job ends."""

from __future__ import annotations

import subprocess
import sys
import time
from types import SimpleNamespace

from irisrl.ops.summary import FORMING_POLL_S, LaunchProgress
from irisrl.observe.phases import COMMAND_DONE, ENDED, ENTERED, RAY_FORMED, RUNNING, SUBMITTED


def test_process_start_is_exact_not_rounded_to_boot_seconds() -> None:
    """/proc/stat's btime is whole seconds: a start derived from it is off by up to 1 s."""
    before = time.time()
    out = subprocess.run([sys.executable, "-c", "import time\nfrom irisrl.ops.summary import "
                          "process_start_time as p\nprint(p(), time.time())"],
                         capture_output=True, text=True, timeout=60, check=True).stdout.split()
    started, child_now = float(out[0]), float(out[1])
    assert before - 0.05 <= started <= child_now   # 0.05: one 10 ms clock tick plus slack


def _progress() -> LaunchProgress:
    return LaunchProgress(SimpleNamespace(role="rehearsal", num_nodes=2), {ENTERED: 1.0})


def test_polls_slow_down_only_while_ray_forms() -> None:
    progress = _progress()
    progress.mark(SUBMITTED, 2.0)
    assert progress.poll_interval(0.3) == 0.3          # waiting for Iris to run the gang
    progress.mark(RUNNING, 3.0)
    assert progress.poll_interval(0.3) == FORMING_POLL_S
    assert progress.poll_interval(10.0) == 10.0        # a remote follow is never made faster
    progress.mark(RAY_FORMED, 4.0)
    assert progress.poll_interval(0.3) == 0.3          # rehearsal, then the end: seen by polling
    progress.mark(COMMAND_DONE, 5.0)
    progress.mark(ENDED, 6.0)
    assert progress.poll_interval(0.3) == 0.3


def test_summary_imports_are_warmed_once_the_command_is_done(monkeypatch) -> None:
    progress = _progress()
    import irisrl.observe
    for name in ("irisrl.observe.analyzer", "irisrl.observe.pull", "irisrl.observe.render"):
        monkeypatch.delitem(sys.modules, name, raising=False)
        # and the package attribute, which the re-import rebinds: without restoring it,
        # `from irisrl.observe import analyzer` in a later test gets a second module object
        monkeypatch.delattr(irisrl.observe, name.rsplit(".", 1)[1], raising=False)
    progress.idle()
    assert "irisrl.observe.analyzer" not in sys.modules      # nothing before the command ends
    progress.mark(COMMAND_DONE, 5.0)
    progress.idle()
    assert {"irisrl.observe.analyzer", "irisrl.observe.pull", "irisrl.observe.render"} <= set(sys.modules)


def test_prefetch_imports_the_sdk_modules_in_a_thread() -> None:
    code = ("import sys, threading\nfrom irisrl.backends import iris_client as c\n"
            "assert not any(m in sys.modules for m in c.SDK_MODULES)\n"
            "t = c.prefetch_sdk()\nassert isinstance(t, threading.Thread) and t.daemon\nt.join(120)\n"
            "print(sorted(m for m in c.SDK_MODULES if m not in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=150)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


def test_reap_returns_at_once_when_no_process_of_the_job_is_left() -> None:
    """The normal end of a launch: nothing carries the job id, so no settle wait is paid."""
    import uuid

    from irisrl.ops.reap import reap_job_processes

    t0 = time.monotonic()
    assert reap_job_processes(f"/nobody/none-{uuid.uuid4().hex}", settle_s=5.0) == []
    assert time.monotonic() - t0 < 4.0


def test_reap_ends_a_job_session_member_whose_environ_is_gone() -> None:
    """Ray's agents overwrite their environ with their title: found by their node's session."""
    import os
    import uuid

    from irisrl.ops.reap import job_processes, job_sessions, reap_job_processes

    job = f"/u/reap-{uuid.uuid4().hex[:8]}"
    # a session leader with the job id, whose child runs with an empty environ (like ray::DashboardAgent)
    leader = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                               "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], env={})\n"
                               "time.sleep(60)"], env=dict(os.environ, IRISRL_JOB_ID=job), start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while len(job_processes(job, sessions=frozenset({leader.pid}))) < 2:
            assert time.monotonic() < deadline, "the child did not start"
            time.sleep(0.05)
        assert job_processes(job) == [leader.pid]           # the child has no job id to find
        sessions = job_sessions(job)
        assert sessions == {leader.pid}
        assert len(reap_job_processes(job, grace_s=5, settle_s=0.3, sessions=sessions)) == 2
        assert job_processes(job, sessions=sessions) == []
    finally:
        try:
            os.killpg(leader.pid, 9)
        except ProcessLookupError:
            pass
        leader.wait(timeout=10)
