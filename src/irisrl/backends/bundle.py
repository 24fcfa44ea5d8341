"""Ship the runtime with the job, without touching the user's workspace.

Iris bundles the directory given as `workspace=` (git-visible files, its own excludes,
25 MiB zipped cap). irisrl stages a COPY of the workspace's bundle files into a temp dir and
adds .irisrl/lib/irisrl/{__init__.py,runtime/*.py,core/<SHIPPED_CORE>} and .irisrl/plan.json (the masked plan),
then hands the staging dir to Iris. The copy is bounded: staging stops at 4x the bundle cap
(raw bytes), and Iris's zip check enforces the cap itself. In the task the bundle is
extracted at $IRIS_WORKDIR (/app in the container, the task's host workdir locally)."""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator

from irisrl.backends.base import BUNDLE_CAP_BYTES, BundleFile, SubmitRequest
from irisrl.plan.model import LaunchPlan
from irisrl.plan.request import build_request
from irisrl.runtime import contract
from irisrl.util.errors import IrisrlError
from irisrl.util.paths import links_leaving

RAW_CAP_FACTOR = 4
# core/ modules the runtime uses: stdlib-only (tests/unit/test_layering.py checks), so they ship.
SHIPPED_CORE = ("__init__.py", "procs.py", "deadline.py")


def runtime_files() -> list[tuple[Path, str]]:
    """(source, path inside the bundle) of the shipped runtime code."""
    import irisrl
    import irisrl.runtime

    pkg = Path(irisrl.__file__).parent
    files = [(pkg / "__init__.py", f"{contract.BUNDLE_LIB}/irisrl/__init__.py")]
    for src in sorted(Path(irisrl.runtime.__file__).parent.glob("*.py")):
        files.append((src, f"{contract.BUNDLE_LIB}/irisrl/runtime/{src.name}"))
    files += [(pkg / "core" / name, f"{contract.BUNDLE_LIB}/irisrl/core/{name}") for name in SHIPPED_CORE]
    return files


def workspace_files(workspace: Path) -> list[Path]:
    """The files Iris itself would bundle from `workspace` (git-visible, minus its excludes)."""
    from iris.cluster.client.bundle import collect_workspace_files

    return [p for p in collect_workspace_files(workspace)
            if not p.relative_to(workspace).as_posix().startswith(contract.BUNDLE_DIR + "/")]


Lister = Callable[[Path], Iterable[Path]]   # workspace -> the files of it that go into the bundle


def bundle_listing(workspace: str | Path, plan_json: str, lister: Lister | None = None) -> tuple[BundleFile, ...]:
    """What the bundle will hold, with sizes: the workspace's bundle files (`lister`, default
    Iris's own, `workspace_files`), the shipped runtime and the plan. Lists only: staging
    checks and copies."""
    source = Path(workspace).resolve()
    if not source.is_dir():
        raise IrisrlError(f"workspace {source} is not a directory", "pass --workspace DIR (default: cwd)")
    listed = (lister or workspace_files)(source)
    files = [BundleFile(p.relative_to(source).as_posix(), _size(p), p) for p in listed
             if not p.relative_to(source).as_posix().startswith(contract.BUNDLE_DIR + "/")]
    files += [BundleFile(rel, _size(src), src) for src, rel in runtime_files()]
    files.append(BundleFile(contract.BUNDLE_PLAN, len(plan_json.encode()), None))
    return tuple(files)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def submit_request(plan: LaunchPlan, backend: str, workspace: str | Path | None = None,
                   bundle_cap: int = BUNDLE_CAP_BYTES, lister: Lister | None = None) -> SubmitRequest:
    """The dry run of a submission (Backend.dryrun): the controller request and the bundle.
    `lister`: how the workspace is listed (default Iris's own lister, which imports the SDK;
    `launch --dry-run` passes an SDK-free one: ops/submission.py)."""
    plan_json = plan.to_json()
    root = Path(workspace or plan.workspace).resolve()
    return SubmitRequest(plan.job_id, backend, build_request(plan), root, bundle_cap,
                         bundle_listing(root, plan_json, lister), plan_json)


@contextmanager
def staged_workspace(workspace: str | Path, plan_json: str, cap_bytes: int,
                     bundle: tuple[BundleFile, ...] | None = None) -> Iterator[Path]:
    """A temp copy of the bundle (`bundle`, else bundle_listing's: workspace files, runtime,
    plan); removed on exit."""
    source = Path(workspace).resolve()
    bundle = bundle_listing(source, plan_json) if bundle is None else bundle
    own = [f for f in bundle if f.source is not None and not f.path.startswith(contract.BUNDLE_DIR + "/")]
    files = [f.source for f in own if f.source is not None]
    leaving = links_leaving(source, files)
    if leaving:   # LCH-WORKSPACE-LINKS refuses these earlier; a plan from elsewhere stops here
        raise IrisrlError(f"workspace {source} has symlinks to files outside it ("
                          + ", ".join(f"{rel} -> {target}" for rel, target in leaving[:5])
                          + "); nothing was submitted",
                          "remove them, copy the files in, or gitignore them")
    total = sum(f.size for f in own)
    if total > RAW_CAP_FACTOR * cap_bytes:
        raise IrisrlError(
            f"workspace {source} has {total / 2**20:.1f} MiB of bundle files; the Iris bundle cap is "
            f"{cap_bytes / 2**20:.0f} MiB zipped",
            "keep data and checkpoints out of the workspace (.gitignore them) or pass a smaller --workspace")
    with tempfile.TemporaryDirectory(prefix="irisrl-bundle-") as tmp:
        stage = Path(tmp) / "workspace"
        stage.mkdir()
        for entry in bundle:
            dest = stage / entry.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            if entry.source is None:
                dest.write_text(plan_json)
            else:
                shutil.copyfile(entry.source, dest)
        yield stage
