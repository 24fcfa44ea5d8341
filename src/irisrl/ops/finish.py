"""`irisrl finish JOB`'s engine: the evidence bundle of a run that ended, in one directory.

    <bundle>/logs/             every task and attempt's log, combined.log, job.log, manifest.json
                               (observe/pull.py's LogPuller: the one log pull, called in `_pull_logs`)
    <bundle>/health.json       the `irisrl health JOB --json` document (ops/health_check.health)
    <bundle>/launch.json       the ledger row of the launch, its masked plan, and the launch's
                               summary when `launch --finish` made one (ops/summary.py)
    <bundle>/trials.json       the trials summary (observe/trials.py) of the plan's trials dir
    <bundle>/flight-recorder/  the NCCL flight-recorder dumps the runtime copied to the store
                               (runtime/flight_recorder.py): task-<r>.attempt-<a>/<file>

Default directory: `<observe/pull.default_out_dir(job)>/finish` (under ./traces/, where
`irisrl logs` and the launch summary write). A remote run's bundle is also copied to the
run's store: `<rendezvous dir>/evidence/` (the rendezvous dir is the run's own directory
under the storage root, recorded in its plan; the flight-recorder dumps sit beside it).
What could not be gathered is listed in `problems` (exit 3), never silently left out."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, TypedDict

from irisrl.ops.output import emit
from irisrl.runtime.contract import FR_STORE_DIR
from irisrl.util.errors import IrisrlError, UndeterminedError
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.backends.base import Backend

EVIDENCE_DIR = "evidence"        # under the run's rendezvous dir in the store


class ItemJSON(TypedDict):
    path: str      # relative to the bundle
    size: int      # bytes


class FinishJSON(TypedDict):
    bundle: str
    items: list[ItemJSON]
    stored: str | None           # the store copy (remote runs), else null
    verdict: str | None          # health.json's verdict
    cause: str | None            # its cause_of_death's kind
    problems: list[str]


@dataclass
class Bundle:
    """What `finish` wrote: the local directory, its files, the store copy (if any), the
    health verdict, and what could not be gathered."""
    job_id: str
    bundle: Path
    items: list[ItemJSON] = field(default_factory=list)
    stored: str | None = None
    verdict: str | None = None
    cause: str | None = None
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> FinishJSON:
        return {"bundle": str(self.bundle), "items": list(self.items), "stored": self.stored,
                "verdict": self.verdict, "cause": self.cause, "problems": list(self.problems)}

    @property
    def exit_code(self) -> int:
        """0 everything gathered, 3 something could not be (listed in problems)."""
        return int(Exit.UNKNOWN if self.problems else Exit.OK)


def default_bundle_dir(job_id: str) -> Path:
    from irisrl.observe.pull import default_out_dir

    return default_out_dir(job_id) / "finish"


def finish(job: str, *, out: str | Path | None = None, local: bool = False, controller_url: str | None = None,
           cluster_config: str | None = None) -> Bundle:
    """`irisrl finish JOB` (and the Python API): the bundle of JOB (/user/job or a bare name)
    on the cluster the ledger recorded for it (or the target given)."""
    from irisrl.ops.jobs import open_job

    with open_job(job, local, controller_url, cluster_config) as opened:
        return build_bundle(opened.backend, opened.job_id, out)


def build_bundle(backend: Backend, job_id: str, out: str | Path | None = None,
                 summary: Mapping[str, object] | None = None) -> Bundle:
    """Gather JOB's evidence from `backend` (logs, health) and the store (dumps) into `out`
    (default: default_bundle_dir), then copy it to the run's store when it ran remotely.
    `summary`: the launch summary (LaunchSummary.to_dict()) when the caller has one."""
    from irisrl.ops.health_check import load_plan
    from irisrl.ops.jobs import read_snapshot

    if read_snapshot(backend, job_id).absent:
        raise IrisrlError(f"no job {job_id} on {backend.where}", "list the cluster's jobs: irisrl fleet --all-users",
                          Exit.ABSENT)
    bundle = Bundle(job_id, Path(out or default_bundle_dir(job_id)).resolve())
    _make_dir(bundle.bundle)
    plan = load_plan(None, job_id)
    bundle.problems += _pull_logs(backend, job_id, bundle.bundle / "logs")
    bundle.verdict = _health(backend, job_id, plan, bundle)
    _write(bundle.bundle / "launch.json", _launch_doc(job_id, plan, summary))
    _write(bundle.bundle / "trials.json", _trials_doc(plan, bundle))
    _flight_recorder(plan, bundle)
    bundle.items = _items(bundle.bundle)
    bundle.stored = _store_copy(plan, bundle)
    return bundle


def _make_dir(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise IrisrlError(f"cannot create the bundle directory {path}: {exc.strerror}",
                          "pass a writable --out DIR") from None


def _pull_logs(backend: Backend, job_id: str, out: Path) -> list[str]:
    """Every task/attempt's log into `out` through the one log pull (`irisrl logs`'s, masked
    the same way); the problems its manifest lists."""
    from irisrl.ops.observing import pull_logs

    manifest = pull_logs(backend, job_id, str(out))
    problems = manifest.get("problems", [])
    return [f"logs: {p}" for p in problems] if isinstance(problems, list) else []


def _health(backend: Backend, job_id: str, plan: dict[str, object] | None, bundle: Bundle) -> str | None:
    """health.json: exactly `irisrl health JOB --json` (the same call, judged now)."""
    from irisrl.ops.health_check import health

    try:
        check = health(job_id, plan=plan, backend=backend)
    except IrisrlError as exc:
        bundle.problems.append(f"health: {exc.message}")
        return None
    doc = check.to_dict()
    _write(bundle.bundle / "health.json", doc)
    death = doc.get("cause_of_death")
    bundle.cause = str(death["kind"]) if isinstance(death, dict) and death.get("kind") else None
    return check.verdict


def _launch_doc(job_id: str, plan: dict[str, object] | None, summary: Mapping[str, object] | None) -> dict[str, object]:
    """The ledger row of the launch (without its plan column: `plan` holds it, masked) and the
    launch summary when there is one."""
    from irisrl.ops.jobs import open_ledger

    try:
        row = open_ledger().latest(job_id)
    except IrisrlError:
        row = None
    return {"job_id": job_id, "ledger": row, "plan": plan, "summary": summary,
            "note": "" if row else "irisrl has no ledger row for this job (launched elsewhere?)"}


def _trials_doc(plan: dict[str, object] | None, bundle: Bundle) -> dict[str, object]:
    from irisrl.observe.planinfo import plan_info
    from irisrl.observe.trials import per_step, read_trials

    uri = plan_info(plan).trials_dir
    if not uri:
        return {"trials_dir": None, "completed": None, "by_kind": {}, "per_step": [],
                "note": "the plan names no trials dir (no Harbor trials)"}
    if "://" not in uri and not Path(uri).is_dir():   # a local run that wrote no trial yet: nothing to read
        return {"trials_dir": uri, "completed": 0, "by_kind": {}, "per_step": [], "note": f"no trials dir at {uri}"}
    count, outcomes, note = read_trials(uri)
    if count is None:
        bundle.problems.append(f"trials: {note}")
    by_kind: dict[str, int] = {}
    for o in outcomes:
        by_kind[o.kind] = by_kind.get(o.kind, 0) + 1
    return {"trials_dir": uri, "completed": count, "by_kind": by_kind,
            "per_step": [c.to_dict() for c in per_step(outcomes, {})], "note": note}


def _rendezvous_dir(plan: dict[str, object] | None) -> str | None:
    value = (plan or {}).get("rendezvous_dir")
    return str(value) if value else None


def _flight_recorder(plan: dict[str, object] | None, bundle: Bundle) -> None:
    """Download `<rendezvous dir>/flight-recorder/task-<r>.attempt-<a>/*` into the bundle."""
    from irisrl.runtime.store import Store, StoreError

    rdv = _rendezvous_dir(plan)
    if not rdv:
        return
    store = Store(rdv)
    try:
        for attempt_dir in store.list(FR_STORE_DIR):
            for name in store.list(f"{FR_STORE_DIR}/{attempt_dir}"):
                key = f"{FR_STORE_DIR}/{attempt_dir}/{name}"
                data = store.read(key)
                if data is not None:
                    target = bundle.bundle / key
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
    except (StoreError, OSError) as exc:
        bundle.problems.append(f"flight-recorder dumps: {exc}")


def _items(root: Path) -> list[ItemJSON]:
    return [{"path": p.relative_to(root).as_posix(), "size": p.stat().st_size}
            for p in sorted(root.rglob("*")) if p.is_file()]


def _store_copy(plan: dict[str, object] | None, bundle: Bundle) -> str | None:
    """A remote run's bundle, also under its store directory (`<rendezvous dir>/evidence/`)."""
    from irisrl.runtime.store import Store, StoreError

    rdv = _rendezvous_dir(plan)
    if not rdv or "://" not in rdv or (plan or {}).get("mode") == "local":
        return None
    store = Store(rdv)
    try:
        for item in bundle.items:
            store.write(f"{EVIDENCE_DIR}/{item['path']}", (bundle.bundle / item["path"]).read_bytes())
    except (StoreError, OSError) as exc:
        bundle.problems.append(f"store copy: {exc}")
        return None
    emit(f"bundle copied to {rdv.rstrip('/')}/{EVIDENCE_DIR}/ ({len(bundle.items)} file(s))", err=True)
    return f"{rdv.rstrip('/')}/{EVIDENCE_DIR}"


def _write(path: Path, doc: object) -> None:
    try:
        path.write_text(json.dumps(doc, indent=2, default=str) + "\n")
    except OSError as exc:
        raise UndeterminedError(f"cannot write {path}: {exc.strerror}", "pass a writable --out DIR") from None


__all__ = ["Bundle", "FinishJSON", "build_bundle", "default_bundle_dir", "finish"]
