"""Who this task is in the gang, from the variables Iris injects into every task."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class IdentityError(ValueError):
    """IRIS_* identity missing or malformed (the controller exits 2)."""


@dataclass(frozen=True)
class Identity:
    rank: int
    num_tasks: int
    host: str
    task_id: str
    attempt: int        # the `:N` retry suffix Iris appends (0 on the first attempt)

    @property
    def is_head(self) -> bool:
        return self.rank == 0

    @property
    def loopback(self) -> bool:
        return self.host in LOOPBACK


def _parse_task_id(task_id: str) -> tuple[int, int]:
    """`/user/job/3` -> (3, 0); `/user/job/3:2` -> (3, 2)."""
    last = task_id.rstrip("/").rsplit("/", 1)[-1]
    rank_text, _, attempt_text = last.partition(":")
    if not rank_text.isdigit() or (attempt_text and not attempt_text.isdigit()):
        raise IdentityError(
            f"IRIS_TASK_ID={task_id!r} does not end in a task index like '/user/job/3' or '/user/job/3:1'")
    return int(rank_text), int(attempt_text or 0)


def identity_from_env(env: Mapping[str, str] | None = None) -> Identity:
    env = os.environ if env is None else env
    missing = [k for k in ("IRIS_TASK_ID", "IRIS_NUM_TASKS", "IRIS_ADVERTISE_HOST") if not env.get(k)]
    if missing:
        raise IdentityError(
            f"missing {', '.join(missing)}: the runtime controller must run inside an Iris task "
            "(Iris injects IRIS_TASK_ID, IRIS_NUM_TASKS and IRIS_ADVERTISE_HOST)")
    task_id = env["IRIS_TASK_ID"]
    rank, attempt = _parse_task_id(task_id)
    num_text = env["IRIS_NUM_TASKS"]
    if not num_text.isdigit() or int(num_text) < 1:
        raise IdentityError(f"IRIS_NUM_TASKS={num_text!r} is not a positive integer")
    num_tasks = int(num_text)
    if rank >= num_tasks:
        raise IdentityError(f"task index {rank} (IRIS_TASK_ID={task_id!r}) is not below IRIS_NUM_TASKS={num_tasks}")
    return Identity(rank=rank, num_tasks=num_tasks, host=env["IRIS_ADVERTISE_HOST"].strip(),
                    task_id=task_id, attempt=attempt)
