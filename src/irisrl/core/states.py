"""Iris job and task states by number and what they mean to irisrl: the one place the
terminal and active sets are written out. Numbers and names are the SDK's protos
(marin-iris 0.2.20.dev202606180959: iris/rpc/job_pb2 JobState/TaskState; terminal sets as in
iris/cluster/types.py TERMINAL_JOB_STATES / TERMINAL_TASK_STATES).

Kept as plain data so `status --json` and the exit-code mapping never need the Iris protos;
tests/unit/test_states.py checks this table against the installed SDK's enums."""

from __future__ import annotations

from irisrl.util.exitcodes import Exit

JOB_STATES: dict[int, str] = {
    0: "unspecified", 1: "pending", 2: "building", 3: "running", 4: "succeeded",
    5: "failed", 6: "killed", 7: "worker_failed", 8: "unschedulable",
}
TASK_STATES: dict[int, str] = {
    **JOB_STATES, 9: "assigned", 10: "preempted", 11: "cosched_failed", 12: "missing",
}

ACTIVE = frozenset({"pending", "building", "running"})
FAILED = frozenset({"failed", "killed", "worker_failed", "unschedulable"})
TERMINAL = FAILED | {"succeeded"}
# A task that will run no more. Iris's TERMINAL_TASK_STATES also lists "preempted", but a
# preempted task is retried while its preemption budget lasts (types.py is_task_finished:
# "ControllerTask.is_finished() also considers retry budgets"), so irisrl keeps following it.
TASK_DONE = TERMINAL | {"cosched_failed"}

# Ledger-only (never an Iris state): the job's temporary local cluster ended with a launch
# that was killed (kill -9, OOM), so the job ended unobserved (ops/orphans.py marks it).
LOST = "lost"


def job_state_name(value: int) -> str:
    return JOB_STATES.get(int(value), "unspecified")


def task_state_name(value: int) -> str:
    return TASK_STATES.get(int(value), "unspecified")


def exit_for_state(state: str, absent: bool = False) -> Exit:
    """The status/watch exit code: 0 succeeded, 1 failed-ish, 2 absent, 4 active, 3 otherwise."""
    if absent:
        return Exit.ABSENT
    if state == "succeeded":
        return Exit.OK
    if state in FAILED:
        return Exit.FAIL
    if state in ACTIVE:
        return Exit.ACTIVE
    return Exit.UNKNOWN


def is_terminal(state: str) -> bool:
    return state in TERMINAL


PRIORITY_BANDS: dict[str, int] = {"production": 1, "interactive": 2, "batch": 3}
