"""NCCL flight-recorder dumps: a job-scoped node-local dump path, and their copy to the store.

torch writes one file per rank at `<prefix><global rank>` when a collective times out
(TORCH_NCCL_DUMP_ON_TIMEOUT); the prefix comes from TORCH_NCCL_DEBUG_INFO_TEMP_FILE, renamed
TORCH_FR_DUMP_TEMP_FILE in torch 2.9 (MarinSkyRL skyrl-train/skyrl_train/utils/utils.py
@ a559688ccdfe65e44d9f13ddaaccb57aa8a3b0b9 reads the new name first, then the old, default
`/tmp/nccl_fr_rank`, and sets both). The launcher: MarinSkyRL cloud/iris/iris_backend.py
`_job_scope_fr_dump_path` (the stored July 2026 versions; gone from iris_backend.py
@ 019c9759749a9190c5ee7ca1c558c790f3288607): for both variables, a config's
`.../fr_dumps/<slug>/<file>` gets the live job name as its slug, any other path is left as
is, and the controller mkdir -p's the dirname. irisrl goes further (issue 19): the path is ALWAYS `/tmp/fr_dumps/<job>/<file>`
(node-local and writable in every pod), whatever the config named (a Jupiter /e/... path,
another job's slug, a bare /tmp/nccl_fr_rank): only the file name is kept (the names and
that rule: runtime/contract.py, which the launcher shares).

Here, the runtime's side: the directory made before the command runs, the dump files found,
their keys in the store. Stdlib only: ships with the runtime."""

from __future__ import annotations

import os
from typing import Mapping, Protocol

from irisrl.runtime.contract import FR_ENV_VARS, FR_STORE_DIR
from irisrl.runtime.log import say


def dump_prefix(env: Mapping[str, str] | None = None) -> str | None:
    """The prefix this task's trainer dumps to (the torch>=2.9 name first, as SkyRL reads it)."""
    env = os.environ if env is None else env
    return next((env[k] for k in reversed(FR_ENV_VARS) if env.get(k)), None)


def ensure_dump_dir(prefix: str | None) -> None:
    """mkdir -p the prefix's directory (torch does not create it; the dump fails without it).
    A directory that cannot be made is said, never fatal: the run goes on without dumps."""
    if not prefix or not os.path.dirname(prefix):
        return
    try:
        os.makedirs(os.path.dirname(prefix), exist_ok=True)
    except OSError as exc:
        say(f"warning: cannot create the NCCL flight-recorder dump directory {os.path.dirname(prefix)}: {exc}")


def dump_files(prefix: str | None) -> list[str]:
    """The dump files present: every file in the prefix's directory whose name starts with the
    prefix's file name (one per rank on this node)."""
    if not prefix:
        return []
    folder, stem = os.path.split(prefix)
    try:
        names = sorted(os.listdir(folder or "."))
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names if n.startswith(stem) and os.path.isfile(os.path.join(folder, n))]


def store_key(rank: int, attempt: int, path: str) -> str:
    return f"{FR_STORE_DIR}/task-{rank}.attempt-{attempt}/{os.path.basename(path)}"


class _Writes(Protocol):
    uri: str

    def write(self, key: str, data: bytes) -> None: ...


def upload_dumps(store: _Writes, rank: int, attempt: int, prefix: str | None) -> list[str]:
    """Copy this node's dump files to the store (one write each); the keys written. A file
    that cannot be read or written is said and skipped: the task's exit goes on."""
    keys = []
    for path in dump_files(prefix):
        key = store_key(rank, attempt, path)
        try:
            with open(path, "rb") as fh:
                store.write(key, fh.read())
        except Exception as exc:  # noqa: BLE001 - evidence is best effort; the exit code stands
            say(f"could not copy the NCCL flight-recorder dump {path} to {store.uri}/{key}: {exc}")
            continue
        keys.append(key)
    if keys:
        say(f"NCCL flight-recorder dump(s) copied to {store.uri}/{os.path.dirname(keys[0])}/: {len(keys)} file(s)")
    return keys
