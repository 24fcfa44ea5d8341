"""Launch-scope rules (`launch`, incl. --dry-run): the facts a launch resolves on top of the
config (rendezvous store, image, SkyRL ref, resources, secrets, data, model, job name,
workspace size). They read `ctx.launch`, a LaunchFacts the plan builder fills in."""

from __future__ import annotations

import itertools
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from irisrl.core.findings import Finding, Severity
from irisrl.rules.catalogue import rule
from irisrl.rules.context import RuleContext
from irisrl.util.paths import links_leaving

JOB_NAME_MAX = 63
_JOB_NAME_RE = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_DIGEST_RE = re.compile(r"@sha256:[0-9a-f]{64}$")
_SHARED_STORE_RE = re.compile(r"^(s3|gs|gcs|r2|az|abfs|abfss|hdfs)://.+", re.I)
_OBJECT_STORE_RE = re.compile(r"^(s3|gs|gcs|r2|az|abfs|abfss|wasbs|oci|hdfs)://", re.I)
HOST_PATH_PREFIXES = ("/Users/", "/home/", "~")
GIT_TIMEOUT_S = 5.0
# What the Iris workspace bundler leaves out (matched against the relative path).
BUNDLE_SKIP_RE = re.compile(
    r"\.mov$|\.pyc$|\.egg-info(/|$)|(^|/)(__pycache__|\.git|\.mypy_cache|\.pytest_cache|\.ruff_cache"
    r"|\.venv|venv|node_modules|tests/snapshots|docs/(figures|images|reports|static))(/|$)")


@dataclass(frozen=True)
class LaunchFacts:
    """What a launch resolved, for the launch rules (built by plan/build.py)."""
    mode: str                          # "remote" | "local"
    dry_run: bool
    job_name: str
    num_nodes: int | None
    rendezvous_dir: str | None
    image: str
    cpu: float
    max_retries: int
    skyrl_ref: str | None = None
    skyrl_checkout: str | None = None
    train_data_text: str | None = None  # --train_data as typed
    yaml_train_data: Any = None         # data.train_data from the config
    model_path: str | None = None
    secrets_present: frozenset[str] = frozenset()
    workspace: str = "."
    ckpt_paths: tuple[str, ...] = ()    # trainer.ckpt_path / export_path as the config gives them
    controller_url: str | None = None   # --controller-url (may be a controller on this host)
    storage_root: str = ""              # config/storage_root.py: the root used, where it came from,
    storage_root_source: str = ""       # and why a cluster config's store was refused
    storage_root_note: str = ""


def _facts(ctx: RuleContext) -> LaunchFacts | None:
    return ctx.launch if isinstance(getattr(ctx, "launch", None), LaunchFacts) else None


@rule("LCH-RDZV-REQUIRED", "error", "More than one node and no rendezvous dir given or derivable", "launch")
def lch_rdzv_required(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if f and (f.num_nodes or 1) > 1 and not f.rendezvous_dir:
        yield lch_rdzv_required.finding(
            "--rendezvous-dir", f"{f.num_nodes} nodes must rendezvous through a shared store, and none is "
            f"given or derivable (the cluster profile has no storage_root)",
            "pass --rendezvous-dir s3://<bucket>/iris/rl-<slug>/<run> (a fresh sub-path per run)")
    elif f and (f.num_nodes or 1) > 1 and f.mode == "remote" and not _SHARED_STORE_RE.match(f.rendezvous_dir or ""):
        yield lch_rdzv_required.finding(
            "--rendezvous-dir", f"{f.rendezvous_dir} is a path on each pod's own disk: the {f.num_nodes} nodes "
            f"would never see each other's head file", f"use the shared store, e.g. {ctx.profile.storage_root}/rl-<slug>/<run>",
            severity="warning" if f.controller_url else "error")  # a --controller-url may be on this host


@rule("LCH-RDZV-LEGACY", "error", "A store on the legacy object store (it stalls)", "launch")
def lch_rdzv_legacy(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if not f:
        return
    checks = [("--rendezvous-dir", f.rendezvous_dir)] + [("trainer", p) for p in f.ckpt_paths]
    for where, value in checks:
        for legacy in ctx.profile.legacy_stores:
            if isinstance(value, str) and value.rstrip("/").startswith(legacy.rstrip("/")):
                yield lch_rdzv_legacy.finding(
                    where, f"{value} is on the legacy store {legacy}: writes there resolve to a dead endpoint and stall",
                    f"use the cluster's store {ctx.profile.storage_root}/... instead")


@rule("LCH-IMAGE-DIGEST", "error", "The image is not pinned by an immutable @sha256 digest", "launch")
def lch_image_digest(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if f and not _DIGEST_RE.search(f.image or ""):
        yield lch_image_digest.finding(
            "image", f"image {f.image!r} is not pinned by @sha256:<64 hex>; a floating tag stale-caches on nodes",
            "pin the image by digest in the cluster profile (image = \"...@sha256:...\")")


@rule("LCH-SKYRL-REF", "warning", "The local SkyRL checkout is ahead of the image's baked commit, no --skyrl-ref", "launch")
def lch_skyrl_ref(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if not f or not f.skyrl_checkout or f.skyrl_ref:
        return
    baked = ctx.profile.image_skyrl_commit
    head, error = git_head(f.skyrl_checkout)
    if head is None:
        yield lch_skyrl_ref.finding("--skyrl-checkout", f"could not read HEAD of {f.skyrl_checkout}: {error}",
                                    "pass a git checkout of MarinSkyRL, or --skyrl-ref <commit>")
    elif not (head.startswith(baked) or baked.startswith(head)):
        yield lch_skyrl_ref.finding(
            "--skyrl-ref", f"your checkout is at {head[:12]} but the image bakes {baked}; without --skyrl-ref "
            f"the run uses the baked code", f"pass --skyrl-ref {head[:12]} (or rebuild the image and bump its digest)")


def git_head(checkout: str) -> tuple[str | None, str]:
    """`git rev-parse HEAD` of a checkout, with a deadline."""
    import subprocess  # lazily: validate and most dry runs never call git

    try:
        out = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{type(exc).__name__}"
    if out.returncode != 0:
        return None, (out.stderr.strip().splitlines() or ["not a git checkout"])[-1]
    return out.stdout.strip(), ""


@rule("LCH-CPU", "warning", "--cpu above the profile's cap will not fit a leafgroup gang", "launch")
def lch_cpu(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if f and f.cpu > ctx.profile.cpu_cap:
        yield lch_cpu.finding("--cpu", f"--cpu {f.cpu:g} > {ctx.profile.cpu_cap}: system overhead leaves too few "
                              f"nodes with that many free cores for an N-node gang",
                              f"use --cpu {ctx.profile.cpu_cap}")


@rule("LCH-RETRIES", "warning", "--max-retries below 1: one transient HF fetch error kills the gang", "launch")
def lch_retries(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if f and f.max_retries < 1:
        yield lch_retries.finding("--max-retries", f"--max-retries {f.max_retries}: a single rank's transient "
                                  f"HF weight fetch failure fails the whole gang", "use --max-retries 1")


def needed_secrets(view: Any) -> list[tuple[str, str]]:
    """(name, why) for every secret this config needs in the pod."""
    needed = [("HF_TOKEN", "the model and data come from the Hugging Face Hub")]
    loggers = view.logger if isinstance(view.logger, (list, tuple)) else [view.logger]
    if any(isinstance(x, str) and x.lower() == "wandb" for x in loggers):
        needed.append(("WANDB_API_KEY", "trainer.logger is wandb"))
    if view.uses_harbor:
        needed.append(("DAYTONA_API_KEY", "rollouts run as Harbor episodes in Daytona sandboxes"))
    return needed


@rule("LCH-SECRETS", "error", "A secret the run needs is missing (warning on a dry run; skipped for --local)", "launch")
def lch_secrets(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if not f or f.mode == "local":
        return
    severity: Severity = "warning" if f.dry_run else "error"
    for name, why in needed_secrets(ctx.view):
        if name not in f.secrets_present:
            yield lch_secrets.finding(
                name, f"{name} is not set ({why}); it is read from the environment or the secrets file",
                f"export {name}=... or put it in the file given by --secrets-env / $DC_AGENT_SECRET_ENV",
                severity=severity)


@rule("LCH-TRAIN-DATA", "error", "--train_data is not a JSON list of strings (warning when no data at all)", "launch")
def lch_train_data(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if not f:
        return
    if f.train_data_text is None:
        if not (isinstance(f.yaml_train_data, list) and f.yaml_train_data):
            yield lch_train_data.finding("--train_data", "no training data: --train_data is not given and "
                                         "data.train_data is empty", "pass --train_data '[\"<HF repo or task set>\"]'",
                                         severity="warning")
        return
    if parse_train_data(f.train_data_text) is None:
        what = "lists nothing" if f.train_data_text.strip() == "[]" else "is not a JSON list of strings"
        yield lch_train_data.finding("--train_data", f"--train_data {f.train_data_text!r} {what}",
                                     "pass a JSON list, e.g. --train_data '[\"DCAgent/some-tasks\"]'")


def parse_train_data(text: str) -> tuple[str, ...] | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        return tuple(value)
    return None


@rule("LCH-MODEL", "error", "No model path, or the model path is an object-store URI", "launch")
def lch_model(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if not f:
        return
    if not f.model_path:
        yield lch_model.finding("--model_path", "no model: neither --model_path nor trainer.policy.model.path is set",
                                "pass --model_path <HF id>, e.g. Qwen/Qwen3-8B")
    elif _OBJECT_STORE_RE.match(f.model_path):
        yield lch_model.finding("--model_path", f"{f.model_path} is an object-store URI; vLLM and transformers load "
                                f"an HF id or a local directory", "pass the HF id (nodes have egress) or a local path")
    elif f.mode == "remote" and f.model_path.startswith(HOST_PATH_PREFIXES):
        yield lch_model.finding("--model_path", f"{f.model_path} is a path on this machine; the pods cannot see it",
                                "pass the HF id (nodes have egress), or a path inside the image or under /app")


@rule("LCH-JOB-NAME", "error", "The job name is not a DNS label (lowercase, digits, '-', <= 63 chars)", "launch")
def lch_job_name(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if f and (len(f.job_name) > JOB_NAME_MAX or not _JOB_NAME_RE.fullmatch(f.job_name)):
        yield lch_job_name.finding(
            "--job-name", f"job name {f.job_name!r} ({len(f.job_name)} chars) is not a valid name: lowercase "
            f"letters, digits and '-', starting and ending alphanumeric, at most {JOB_NAME_MAX} chars",
            f"pass --job-name {sanitize_job_name(f.job_name) or 'my-run'}")


def sanitize_job_name(name: str) -> str:
    cleaned = re.sub(r"[^a-z0-9-]+", "-", name.lower())
    return re.sub(r"-{2,}", "-", cleaned).strip("-")[:JOB_NAME_MAX].strip("-")


@rule("LCH-WORKSPACE-SIZE", "error", "The workspace uploaded to /app exceeds the Iris bundle cap", "launch")
def lch_workspace_size(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if not f:
        return
    cap = ctx.profile.bundle_cap_bytes
    size, counted = bundle_size_estimate(Path(f.workspace), cap)
    if size > cap:
        yield lch_workspace_size.finding(
            "--workspace", f"workspace {f.workspace} is over {size / 2**20:.1f} MiB compressed "
            f"(stopped counting after {counted} files); the Iris bundle cap is {cap / 2**20:.0f} MiB",
            "launch from a smaller directory (--workspace), or gitignore/remove large files")


@rule("LCH-WORKSPACE-LINKS", "error", "A workspace symlink points outside the workspace (its target would ship)",
      "launch")
def lch_workspace_links(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if not f:
        return
    workspace = Path(f.workspace)
    leaving = links_leaving(workspace, _symlinks(workspace))
    if leaving:
        shown = ", ".join(f"{rel} -> {target}" for rel, target in leaving[:5])
        more = f" (+{len(leaving) - 5} more)" if len(leaving) > 5 else ""
        yield lch_workspace_links.finding(
            "--workspace", f"{len(leaving)} symlink(s) in {f.workspace} point outside it: {shown}{more}; the "
            "bundle would carry their targets' contents to every task", "remove them, copy the files in, or "
            "gitignore them (the launch refuses to ship a file from outside the workspace)")


def _symlinks(workspace: Path) -> list[Path]:
    """Symlinks to files among what the bundler takes (it follows them; links to directories
    it neither lists nor enters)."""
    return [p for p in bundle_files(workspace, links=True) if p.is_symlink() and p.is_file()]


def bundle_files(workspace: Path, links: bool = False) -> Iterable[Path]:
    """The files the bundler would take: git's non-ignored files when it is a checkout; outside
    git, the walk leaves symlinks out unless `links` (the size estimate counts real files)."""
    listed = _git_files(workspace)
    if listed is not None:
        return (workspace / rel for rel in listed if not BUNDLE_SKIP_RE.search(rel))
    return _walk(workspace, workspace, links)


def _git_files(workspace: Path) -> list[str] | None:
    if not (workspace / ".git").exists():
        return None
    import subprocess

    try:
        out = subprocess.run(["git", "-C", str(workspace), "ls-files", "-co", "--exclude-standard", "-z"],
                             capture_output=True, timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return [p for p in out.stdout.decode(errors="replace").split("\0") if p] if out.returncode == 0 else None


def _walk(root: Path, base: Path, links: bool = False) -> Iterator[Path]:
    try:
        entries = list(os.scandir(root))
    except OSError:
        return
    for entry in entries:
        rel = os.path.relpath(entry.path, base).replace(os.sep, "/")
        if BUNDLE_SKIP_RE.search(rel):
            continue
        if entry.is_symlink():
            if links and entry.is_file():      # a link to a file (never entered as a directory)
                yield Path(entry.path)
            continue
        if entry.is_dir():
            yield from _walk(Path(entry.path), base, links)
        elif entry.is_file():
            yield Path(entry.path)


def bundle_size_estimate(workspace: Path, cap: int) -> tuple[int, int]:
    """Bytes the bundle would take, cheaply: raw sizes first, stopping once over the cap;
    only then compress (the cap is on the zip), stopping once that is over. -> (bytes, files)."""
    files = iter(bundle_files(workspace))
    seen: list[Path] = []
    raw = 0
    for path in files:
        try:
            raw += path.stat().st_size
        except OSError:
            continue
        seen.append(path)
        if raw > cap:
            break
    else:
        return raw, len(seen)
    total, count = 0, 0
    for path in itertools.chain(seen, files):
        total += _compressed_size(path)
        count += 1
        if total > cap:
            break
    return total, count


def _compressed_size(path: Path) -> int:
    import zlib

    size = 0
    try:
        with path.open("rb") as fh:
            comp = zlib.compressobj(6)
            while chunk := fh.read(1 << 20):
                size += len(comp.compress(chunk))
            size += len(comp.flush())
    except OSError:
        return 0
    return size


@rule("LCH-STORAGE-ROOT", "info", "Which storage root the launch used (cluster config or profile)", "launch")
def lch_storage_root(ctx: RuleContext) -> Iterator[Finding]:
    f = _facts(ctx)
    if f and f.mode == "remote" and f.storage_root:
        note = f"; {f.storage_root_note}" if f.storage_root_note else ""
        yield lch_storage_root.finding(
            "--cluster-config", f"storage root {f.storage_root} from {f.storage_root_source}{note}",
            "to use another store, point --cluster-config (or $IRISRL_CLUSTER_CONFIG) at the cluster's config")
