"""Ctrl-C, as the exit-code table says (130): `watch` detaches with the re-attach hint (D15);
launch's follower on a TEMPORARY local cluster says the cluster and the job stop now and
suggests no watch/kill command that could not work (D10); elsewhere it detaches."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from irisrl.cli.main import main
from irisrl.ops.follow import follow
from irisrl.util.exitcodes import Exit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from memory_backend import MemoryBackend  # noqa: E402


class Interrupted(MemoryBackend):
    def snapshot(self, job_id: str, detail: bool = True):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt


class Rows:
    def __init__(self) -> None:
        self.states: dict[str, str] = {}

    def update_state(self, job_id: str, state: str) -> None:
        self.states[job_id] = state

    def plan_for(self, job_id: str) -> None:
        return None


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


def test_ctrl_c_on_watch_exits_130_with_the_reattach_hint():
    """`irisrl watch`'s engine on the backend it is handed (the CLI opens it, then exits with
    this code): Ctrl-C while polling detaches."""
    from irisrl.ops import output
    from irisrl.ops.watching import watch

    said: list[str] = []

    def stderr(text: str = "", *, err: bool = False) -> None:
        if err:
            said.append(text)

    with output.using(stderr):
        code = watch("/u/j", interval=1, backend=Interrupted())
    text = "\n".join(said)
    assert code == Exit.INTERRUPTED == 130
    assert "it keeps running" in text and "re-attach: irisrl watch /u/j" in text and "aborted" not in text


def test_ctrl_c_outside_any_loop_is_130_interrupted_not_1_aborted(tmp_path):
    """A real SIGINT while `irisrl watch` is still connecting (a controller that accepts and
    never answers): exit 130 "interrupted", not 1 "aborted", and no traceback."""
    import os
    import signal
    import socket
    import subprocess

    from sigint import sigint_default

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        silent.settimeout(60)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        env = {**os.environ, "IRISRL_HOME": str(tmp_path / "home")}
        proc = subprocess.Popen(sigint_default([sys.executable, "-m", "irisrl", "watch", "/u/j", "--controller-url", url]),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            conn, _ = silent.accept()   # the CLI is inside its first controller call now
            with conn:
                proc.send_signal(signal.SIGINT)
                _, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err, err


PLAN = SimpleNamespace(env={}, secret_env_keys=())


def test_ctrl_c_following_on_a_temporary_cluster_says_both_stop_now(capsys, ops_on_terminal):
    rows = Rows()
    assert follow(Interrupted(), "/u/j", PLAN, rows, 0.1, ephemeral=True) == 130
    err = capsys.readouterr().err
    assert "the cluster and the job stop now" in err
    assert "keeps running" not in err and "irisrl watch" not in err and "irisrl kill" not in err
    assert rows.states == {"/u/j": "killed"}


def test_ctrl_c_following_on_a_lasting_cluster_detaches_with_hints(capsys, ops_on_terminal):
    rows = Rows()
    assert follow(Interrupted(), "/u/j", PLAN, rows, 0.1, ephemeral=False) == 130
    err = capsys.readouterr().err
    assert "it keeps running" in err and "irisrl watch /u/j" in err and "irisrl kill /u/j --yes" in err
    assert rows.states == {}
