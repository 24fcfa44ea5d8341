"""A run's trainer checkpoints in the store: list them, name the latest complete one, prune.

The layout and the completion marker are SkyRL's own (marin-community/MarinSkyRL
skyrl-train/skyrl_train/trainer.py @ a559688ccdfe65e44d9f13ddaaccb57aa8a3b0b9, the same in
b1dbf2a2a3f2 and in NovaSky-AI/SkyRL skyrl-train/skyrl_train/trainer.py @ 00d10c03f83c;
skyrl-train/docs/checkpointing-logging/checkpointing.rst): `save_checkpoints` writes
`{ckpt_path}/global_step_N/` (policy/, critic/, data.pt, trainer_state.pt) and only then,
"atomic tracking - write this last after all saves succeed", `{ckpt_path}/latest_ckpt_global_step.txt`
holding N. `load_checkpoints` refuses a step dir without trainer_state.pt. So here:

- latest complete: the marker's step, when its dir holds trainer_state.pt (else none: the
  marker and the store disagree, and nothing is pruned);
- complete: an older dir with trainer_state.pt (the marker moved past it);
- superseded: an older dir without it (a save that died before a later one succeeded);
- unfinished: a dir newer than the marker (a save in progress, or one that died mid-save).
  Reported, never deleted: only the operator knows that no trainer is writing it. SkyRL's
  resume_mode=latest refuses a folder more than ckpt_interval steps ahead of the marker
  (trainer_utils.validate_consistency_for_latest_checkpoint), so the report says so.

Prune keeps the `keep` newest complete dirs (the latest complete one always among them) and
deletes older complete and superseded dirs; a dry run unless `execute`.

Where: the run's `trainer.ckpt_path` as its launch passed it to the trainer (the last
`trainer.ckpt_path=` Hydra argument of the plan the ledger recorded; config/hydra_args.job_paths
names the default, `<storage root>/<job>/checkpoints`), read, never re-derived.
The store is reached through fsspec with runtime/store.py's S3 options, every call bounded."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Literal, Mapping, Protocol, TypedDict, TypeVar

from irisrl.util.errors import IrisrlError, UndeterminedError, UsageError
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.ledger.store import Ledger

MARKER = "latest_ckpt_global_step.txt"
STEP_PREFIX = "global_step_"
TRAINER_STATE = "trainer_state.pt"
STORE_TIMEOUT_S = 60.0
_STEP_DIR = re.compile(rf"^{STEP_PREFIX}(\d+)$")

Status = Literal["latest", "complete", "superseded", "unfinished"]
T = TypeVar("T")


class _Fs(Protocol):
    """The few fsspec filesystem calls used here."""

    def ls(self, path: str, detail: bool = ...) -> list[str]: ...
    def cat_file(self, path: str) -> bytes: ...
    def du(self, path: str) -> int: ...
    def rm(self, path: str, recursive: bool = ...) -> None: ...
    def exists(self, path: str) -> bool: ...


@dataclass(frozen=True)
class Checkpoint:
    step: int
    path: str            # full URI of the global_step_N dir
    status: Status
    size: int | None     # bytes under it (None when not measured)

    def to_dict(self) -> "CheckpointDict":
        return {"step": self.step, "path": self.path, "status": self.status, "size": self.size}


class CheckpointDict(TypedDict):
    step: int
    path: str
    status: str
    size: int | None


class ListingDict(TypedDict):
    job_id: str | None
    ckpt_path: str
    marker_step: int | None
    latest_complete: CheckpointDict | None
    checkpoints: list[CheckpointDict]
    notes: list[str]


@dataclass(frozen=True)
class CheckpointListing:
    job_id: str | None
    ckpt_path: str
    marker_step: int | None                 # what latest_ckpt_global_step.txt says, if readable
    checkpoints: tuple[Checkpoint, ...]     # oldest first
    notes: tuple[str, ...] = ()

    @property
    def latest_complete(self) -> Checkpoint | None:
        return next((c for c in self.checkpoints if c.status == "latest"), None)

    @property
    def unfinished(self) -> tuple[Checkpoint, ...]:
        return tuple(c for c in self.checkpoints if c.status == "unfinished")

    def to_dict(self) -> ListingDict:
        latest = self.latest_complete
        return {"job_id": self.job_id, "ckpt_path": self.ckpt_path, "marker_step": self.marker_step,
                "latest_complete": latest.to_dict() if latest else None,
                "checkpoints": [c.to_dict() for c in self.checkpoints], "notes": list(self.notes)}


class PruneDict(TypedDict):
    keep: int
    executed: bool
    delete: list[CheckpointDict]
    kept: list[CheckpointDict]
    reported: list[CheckpointDict]
    freed_bytes: int


@dataclass(frozen=True)
class PrunePlan:
    keep: int
    delete: tuple[Checkpoint, ...]
    kept: tuple[Checkpoint, ...]
    reported: tuple[Checkpoint, ...]     # unfinished dirs: shown, never deleted
    executed: bool = False

    def to_dict(self) -> PruneDict:
        return {"keep": self.keep, "executed": self.executed, "delete": [c.to_dict() for c in self.delete],
                "kept": [c.to_dict() for c in self.kept], "reported": [c.to_dict() for c in self.reported],
                "freed_bytes": sum(c.size or 0 for c in self.delete)}


class CheckpointsDict(ListingDict, total=False):
    prune: PruneDict


# ---------------------------------------------------------------- where a run's checkpoints are


def ckpt_path_of_plan(plan: Mapping[str, object]) -> str | None:
    """The trainer.ckpt_path a recorded plan passed to the trainer (its last assignment)."""
    from irisrl.config.hydra_args import last_override

    return last_override(plan.get("hydra_args"), "trainer.ckpt_path")


def run_ckpt_path(job: str, ledger: "Ledger") -> tuple[str, str]:
    """(job id, ckpt_path) of a run irisrl launched (a bare name is looked up in the ledger)."""
    from irisrl.backends.resolve import normalize_job_id

    job_id = normalize_job_id(job, ledger)
    plan = ledger.plan_for(job_id)
    if plan is None:
        raise IrisrlError(f"{job_id} is not in the run ledger ({ledger.path}): irisrl did not launch it here",
                          "pass the id of a run `irisrl runs` lists", Exit.ABSENT)
    path = ckpt_path_of_plan(plan)
    if not path:
        raise IrisrlError(f"the recorded launch of {job_id} passed no trainer.ckpt_path",
                          "its checkpoints are wherever SkyRL's default put them; irisrl cannot find them")
    return job_id, path.rstrip("/")


# ---------------------------------------------------------------- the store


def open_fs(uri: str, env: Mapping[str, str] | None = None) -> tuple[_Fs, str]:
    """(filesystem, path within it) for a store URI or local path."""
    import fsspec

    from irisrl.runtime.store import s3_options

    scheme = uri.split("://", 1)[0] if "://" in uri else "file"
    opts = s3_options(env) if scheme in ("s3", "s3a") else {}
    fs, path = fsspec.core.url_to_fs(uri, **opts)
    return fs, str(path).rstrip("/")


def _bounded(fn: Callable[[], T], what: str, timeout: float) -> T:
    from irisrl.runtime.store import StoreError, call_with_deadline

    try:
        return call_with_deadline(fn, timeout, what)
    except StoreError as err:
        raise UndeterminedError(f"the checkpoint store did not answer: {err}",
                                "check the store's credentials and endpoint, then retry") from None


def _join(uri: str, name: str) -> str:
    return f"{uri.rstrip('/')}/{name}"


def list_checkpoints(ckpt_path: str, job_id: str | None = None, env: Mapping[str, str] | None = None,
                     sizes: bool = True, timeout: float = STORE_TIMEOUT_S) -> CheckpointListing:
    """Every global_step_N dir under `ckpt_path`, classified (see the module doc)."""
    fs, root = open_fs(ckpt_path, env)
    names = _bounded(lambda: _names(fs, root), f"list {ckpt_path}", timeout)
    marker, notes = _read_marker(fs, root, ckpt_path, names, timeout)
    steps = sorted(int(m.group(1)) for n in names if (m := _STEP_DIR.match(n)))
    out = []
    for step in steps:
        sub = f"{root}/{STEP_PREFIX}{step}"
        has_state = TRAINER_STATE in _bounded(lambda: _names(fs, sub), f"list {sub}", timeout)
        size = _bounded(lambda: int(fs.du(sub)), f"size {sub}", timeout) if sizes else None
        out.append(Checkpoint(step, _join(ckpt_path, f"{STEP_PREFIX}{step}"), _status(step, marker, has_state), size))
    if marker is not None and not any(c.status == "latest" for c in out):
        notes.append(f"{MARKER} names step {marker} but {STEP_PREFIX}{marker}/ is missing or has no "
                     f"{TRAINER_STATE}: no checkpoint is known complete, nothing will be pruned")
    if unfinished := [c.step for c in out if c.status == "unfinished"]:
        notes.append(f"step dir(s) {unfinished} are newer than the marker (a save in progress or one that died "
                     "mid-save): never pruned here; delete them by hand once no trainer writes them (SkyRL's "
                     "resume_mode=latest refuses a dir more than ckpt_interval steps ahead of the marker)")
    return CheckpointListing(job_id, ckpt_path, marker, tuple(out), tuple(notes))


def _names(fs: _Fs, path: str) -> list[str]:
    try:
        return [str(e).rstrip("/").rsplit("/", 1)[-1] for e in fs.ls(path, detail=False)]
    except FileNotFoundError:
        return []


def _read_marker(fs: _Fs, root: str, uri: str, names: list[str], timeout: float) -> tuple[int | None, list[str]]:
    if MARKER not in names:
        return None, [f"no {MARKER} under {uri}: the trainer has completed no checkpoint save"]
    text = _bounded(lambda: fs.cat_file(f"{root}/{MARKER}"), f"read {uri}/{MARKER}", timeout)
    try:
        return int(text.decode().strip()), []
    except (UnicodeDecodeError, ValueError):
        return None, [f"{uri}/{MARKER} holds {text[:40]!r}, not a step number: no checkpoint is known complete"]


def _status(step: int, marker: int | None, has_state: bool) -> Status:
    if marker is None or step > marker:
        return "unfinished"
    if step == marker:
        return "latest" if has_state else "unfinished"
    return "complete" if has_state else "superseded"


# ---------------------------------------------------------------- pruning


def check_keep(keep: int) -> None:
    if keep < 1:
        raise UsageError(f"--keep {keep}: the latest complete checkpoint is always kept",
                         "pass --keep 1 or more")


def plan_prune(listing: CheckpointListing, keep: int) -> PrunePlan:
    """What `--keep keep` deletes: never the latest complete dir, never an unfinished one."""
    check_keep(keep)
    if listing.latest_complete is None:
        return PrunePlan(keep, (), (), listing.unfinished)
    complete = sorted((c for c in listing.checkpoints if c.status in ("latest", "complete")),
                      key=lambda c: c.step, reverse=True)
    kept, older = complete[:keep], complete[keep:]
    superseded = [c for c in listing.checkpoints if c.status == "superseded"]
    delete = tuple(sorted(older + superseded, key=lambda c: c.step))
    return PrunePlan(keep, delete, tuple(sorted(kept, key=lambda c: c.step)), listing.unfinished)


def execute_prune(plan: PrunePlan, env: Mapping[str, str] | None = None,
                  timeout: float = STORE_TIMEOUT_S) -> PrunePlan:
    """Delete what `plan` names, oldest first; a step it protects is refused here again."""
    for ckpt in plan.delete:
        if ckpt.status not in ("complete", "superseded"):
            raise IrisrlError(f"refusing to delete {ckpt.path} ({ckpt.status})")
        fs, path = open_fs(ckpt.path, env)
        _bounded(lambda: fs.rm(path, recursive=True), f"delete {ckpt.path}", timeout)
    return PrunePlan(plan.keep, plan.delete, plan.kept, plan.reported, executed=True)


# ---------------------------------------------------------------- the command's engine and finish's summary


@dataclass(frozen=True)
class CheckpointsResult:
    listing: CheckpointListing
    prune: PrunePlan | None

    @property
    def exit_code(self) -> int:
        return int(Exit.OK)

    def to_dict(self) -> CheckpointsDict:
        out: CheckpointsDict = {**self.listing.to_dict()}   # type: ignore[typeddict-item]
        if self.prune is not None:
            out["prune"] = self.prune.to_dict()
        return out


def checkpoints(job: str, keep: int | None = None, yes: bool = False, ledger: "Ledger | None" = None,
                env: Mapping[str, str] | None = None) -> CheckpointsResult:
    """`irisrl checkpoints JOB [--keep N] [--yes]`: the listing and, with keep, the prune
    (executed only with yes)."""
    from irisrl.ledger.store import Ledger

    if keep is not None:
        check_keep(keep)   # before any store call
    job_id, path = run_ckpt_path(job, ledger or Ledger())
    listing = list_checkpoints(path, job_id, env)
    if keep is None:
        return CheckpointsResult(listing, None)
    plan = plan_prune(listing, keep)
    return CheckpointsResult(listing, execute_prune(plan, env) if yes else plan)


def checkpoint_summary(job: str, ledger: "Ledger | None" = None,
                       env: Mapping[str, str] | None = None) -> ListingDict:
    """For `irisrl finish`: the run's checkpoints as JSON (sizes measured)."""
    from irisrl.ledger.store import Ledger

    job_id, path = run_ckpt_path(job, ledger or Ledger())
    return list_checkpoints(path, job_id, env).to_dict()
