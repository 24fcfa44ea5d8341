"""The Iris SDK adapter (`marin-iris`): every Iris import is lazy, inside a function, so
`validate` and `launch --dry-run` never load it. Only the SDK's Python API is used; no CLI
text is parsed and no job id is pasted into SQL or shell text."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TypeVar

from irisrl.backends.base import BUNDLE_CAP_BYTES, AttemptView, Backend, JobSnapshot, JobSummary, LogCursor, LogLine, \
    LogPage, SubmitRequest, TaskView, count_states, page_after
from irisrl.backends.sdk_version import is_stale_client_refusal, stale_client_error
from irisrl.core.deadline import call_with_deadline
from irisrl.core.states import job_state_name, task_state_name
from irisrl.plan.model import LaunchPlan
from irisrl.plan.request import IrisRequest
from irisrl.util.errors import IrisrlError, UndeterminedError

if TYPE_CHECKING:   # the SDK is untyped: these names are its own protobuf / client classes
    from irisrl.backends.fit import ClusterState
    from iris.cluster.types import EnvironmentSpec, JobName
    from iris.rpc.auth import TokenProvider
    from iris.rpc.job_pb2 import JobStatus, TaskAttempt, TaskStatus
    from iris.rpc.vm_pb2 import AutoscalerStatus, WorkerHealthStatus

# The SDK retries a failing RPC for up to 30 minutes; irisrl gives every call a deadline.
ENV_RPC_DEADLINE = "IRISRL_RPC_DEADLINE_S"
READ_DEADLINE_S = 120.0
SUBMIT_DEADLINE_S = 600.0
T = TypeVar("T")


def rpc_deadline(default: float = READ_DEADLINE_S) -> float:
    try:
        return float(os.environ.get(ENV_RPC_DEADLINE, "")) or default
    except ValueError:
        return default


def bounded(what: str, url: str, fn: Callable[[], T], deadline_s: float) -> T:
    """Run one SDK call and give up after `deadline_s` (the SDK's own retry loop keeps going
    in the abandoned thread until the process exits)."""
    def timed_out() -> UndeterminedError:
        return UndeterminedError(f"the Iris controller at {url} did not answer {what} within {deadline_s:.0f}s",
                                 "check that it is up and reachable (irisrl cluster status), then retry")

    return call_with_deadline(fn, deadline_s, timed_out, name=f"irisrl-rpc-{what}")


# What the submit path imports from the SDK (client, stored login, bundle, job names, states).
# Importing them costs ~0.5 s of CPU; a local launch pays that while its controller starts.
SDK_MODULES = ("iris.client.client", "iris.cluster.token_store", "iris.rpc.auth", "iris.cluster.types",
               "iris.rpc.job_pb2", "iris.cluster.client.bundle")


def prefetch_sdk() -> threading.Thread:
    """Import SDK_MODULES in a daemon thread and return it. Join it before this thread imports
    anything else (two threads importing the same packages can deadlock on module locks).
    Failures are left to the caller's own import, which reports them."""
    def run() -> None:
        import importlib

        for name in SDK_MODULES:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - reported by the real import later
                return

    worker = threading.Thread(target=run, name="irisrl-iris-import", daemon=True)
    worker.start()
    return worker


def _job_name(job_id: str) -> "JobName":
    from iris.cluster.types import JobName

    try:
        return JobName.from_wire(job_id)
    except ValueError as exc:
        raise IrisrlError(f"{job_id!r} is not a job id ({exc})", "use /<user>/<job> or a bare job name") from None


def _is_not_found(exc: BaseException) -> bool:
    code = getattr(exc, "code", None)
    return getattr(code, "name", str(code)).upper().endswith("NOT_FOUND")


def _unreachable(url: str, exc: BaseException) -> UndeterminedError:
    return UndeterminedError(f"could not talk to the Iris controller at {url}: {type(exc).__name__}: {exc}",
                             "check the URL / that the cluster is up (irisrl cluster status)")


class IrisBackend:
    """One connected controller. `kind` is local | url | config (how it was found)."""

    def __init__(self, url: str, kind: str = "url", timeout_ms: int = 30000, token_provider: "TokenProvider | None" = None,
                 where: str | None = None) -> None:
        from iris.client.client import IrisClient

        self.url = url
        self.kind = kind
        self.where = where or url   # what the ledger records (URL, or the cluster config path)
        self.timeout_ms = timeout_ms
        self.calls = 0  # controller round trips (bench_watch reads it)
        self._token = token_provider
        self.deadline_s = rpc_deadline()
        _require_listening(url)
        self._client = IrisClient.remote(url, timeout_ms=timeout_ms, token_provider=token_provider)
        _quiet_sdk_logs()

    # -- reads ---------------------------------------------------------------------------------
    def snapshot(self, job_id: str, detail: bool = True) -> JobSnapshot:
        """An authoritative read: GetJobStatus (state, error, counts per task state), plus
        ListTasks for per-task detail (rank 0's exit code) when `detail`. watch polls with
        detail=False (one call) and reads the detail once, at the end."""
        name = _job_name(job_id)
        self.calls += 1
        try:
            status = bounded("GetJobStatus", self.url, lambda: self._client.status(name), self.deadline_s)
            tasks = None
            if detail:
                self.calls += 1
                tasks = bounded("ListTasks", self.url, lambda: self._client.list_tasks(name), self.deadline_s)
        except UndeterminedError:
            raise
        except Exception as exc:  # ConnectError NOT_FOUND -> absent; anything else: undetermined
            if _is_not_found(exc):
                return JobSnapshot.missing(job_id)
            raise _unreachable(self.url, exc) from None
        return snapshot_from_status(job_id, status, tasks)

    def list_jobs(self, prefix: str | None = None, running_only: bool = False) -> list[JobSummary]:
        from iris.rpc import job_pb2

        self.calls += 1
        try:
            jobs = bounded("ListJobs", self.url, lambda: self._client.list_jobs(
                state=job_pb2.JOB_STATE_RUNNING if running_only else None, prefix=prefix), self.deadline_s)
        except UndeterminedError:
            raise
        except Exception as exc:
            raise _unreachable(self.url, exc) from None
        return [summary_from_status(j) for j in jobs if not j.parent_job_id]

    def logs(self, job_id: str, cursor: LogCursor = LogCursor(), task_index: int | None = None,
             attempt: int = -1, max_lines: int = 5000) -> LogPage:
        """Lines of the job (or one task) after `cursor` (base.page_after). Every attempt is
        fetched and filtered there: Iris's exact-attempt log scope returns entries without
        their key (marin-iris 0.2.20.dev202606180959)."""
        return page_after(lambda since, limit: self._fetch(job_id, since, limit, task_index), cursor, max_lines,
                          attempt)

    def _fetch(self, job_id: str, since_ms: int, max_lines: int, task_index: int | None) -> list[LogLine]:
        """FetchLogs at or after `since_ms` (inclusive): FetchLogs' since_ms is exclusive, and
        lines of one millisecond can arrive in separate pushes, so the cursor's millisecond is
        asked again (page_after skips what it saw)."""
        from rigging.timing import Timestamp

        target = f"{job_id}/{task_index}" if task_index is not None else job_id
        self.calls += 1
        name = _job_name(target)
        try:
            entries = bounded("FetchLogs", self.url, lambda: self._client.fetch_task_logs(
                name, start=Timestamp.from_ms(since_ms - 1) if since_ms > 1 else None, max_lines=max_lines,
                attempt_id=-1, tail=False), self.deadline_s)
        except UndeterminedError:
            raise
        except Exception as exc:
            if _is_not_found(exc):
                return []
            raise _unreachable(self.url, exc) from None
        return [LogLine(_task_index(e.task_id.to_wire()), e.attempt_id, e.source, e.data, e.timestamp.epoch_ms())
                for e in entries]

    # -- writes --------------------------------------------------------------------------------
    def terminate(self, job_id: str) -> None:
        self.calls += 1
        name = _job_name(job_id)
        try:
            bounded("TerminateJob", self.url, lambda: self._client.terminate(name), self.deadline_s)
        except UndeterminedError:
            raise
        except Exception as exc:
            raise _unreachable(self.url, exc) from None

    def dryrun(self, plan: LaunchPlan, workspace: str | Path | None = None,
               bundle_cap: int = BUNDLE_CAP_BYTES) -> SubmitRequest:
        return dryrun(plan, workspace, bundle_cap)

    def schedule(self, request: SubmitRequest) -> str:
        """LaunchJob with the request's SDK objects and its workspace staged; the job id."""
        from iris.client.client import IrisClient, JobAlreadyExists

        from irisrl.backends.bundle import staged_workspace

        kwargs = submit_kwargs(request.request)
        job_id = request.job_id
        with staged_workspace(request.workspace, request.plan_json, request.bundle_cap, request.bundle) as stage:
            client = IrisClient.remote(self.url, workspace=stage, timeout_ms=max(self.timeout_ms, 180000),
                                       token_provider=self._token)
            try:
                self.calls += 1
                job = bounded("LaunchJob", self.url, lambda: client.submit(**kwargs),
                              max(self.deadline_s, SUBMIT_DEADLINE_S))
            except UndeterminedError:
                raise
            except JobAlreadyExists:
                raise IrisrlError(f"job {job_id} already exists on {self.url}",
                                  "pick a new --job-name (a fresh name per run)") from None
            except ValueError as exc:  # bundle too large, bad name
                raise IrisrlError(f"Iris refused the submission of {job_id}: {exc}",
                                  "see the message; bundle: keep the workspace under the cap") from None
            except Exception as exc:
                if is_stale_client_refusal(exc):   # the controller's client-age check (sdk_version.py)
                    raise stale_client_error(self.url, exc) from None
                raise IrisrlError(f"submitting {job_id} to {self.url} failed: {type(exc).__name__}: {exc}",
                                  "check the controller (irisrl cluster status) and retry") from None
            finally:
                client.shutdown(wait=False)
        return str(job.job_id.to_wire())

    def submit(self, plan: LaunchPlan, workspace: str | Path | None = None,
               bundle_cap: int = BUNDLE_CAP_BYTES) -> str:
        """Submit a LaunchPlan as one gang job; returns the canonical job id."""
        return self.schedule(self.dryrun(plan, workspace, bundle_cap))

    # -- cluster reads for `fit` (raw protos; backends/cluster_state.py turns them into a state) --
    def _read(self, what: str, fn: Callable[[], T], missing_ok: bool = False) -> T | None:
        """One counted, bounded round trip; NOT_FOUND -> None when `missing_ok`."""
        self.calls += 1
        try:
            return bounded(what, self.url, fn, self.deadline_s)
        except UndeterminedError:
            raise
        except Exception as exc:
            if missing_ok and _is_not_found(exc):
                return None
            raise _unreachable(self.url, exc) from None

    def list_workers(self) -> "list[WorkerHealthStatus]":
        """ListWorkers: every registered worker (WorkerHealthStatus: metadata, attributes,
        health, the task ids it holds). Empty on providers without worker daemons (Kubernetes)."""
        return list(self._read("ListWorkers", lambda: self._client.list_workers()) or [])

    def job_status(self, job_id: str) -> "JobStatus | None":
        """GetJobStatus as a raw proto; None when the controller does not know the job."""
        name = _job_name(job_id)
        return self._read("GetJobStatus", lambda: self._client.status(name), missing_ok=True)

    def autoscaler_status(self) -> "AutoscalerStatus":
        """GetAutoscalerStatus (scale groups, their config and slices). The SDK's IrisClient has
        no public wrapper; its cluster client does (iris/cluster/client/remote_client.py)."""
        return self._read("GetAutoscalerStatus", lambda: self._client._cluster_client.get_autoscaler_status().status)

    def read_cluster(self) -> "ClusterState":
        from irisrl.backends.cluster_state import read_cluster_state

        return read_cluster_state(self)

    def close(self) -> None:
        self._client.shutdown(wait=False)

    def __enter__(self) -> "IrisBackend":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _is_backend(backend: IrisBackend) -> Backend:
    return backend   # mypy: IrisBackend satisfies the Backend Protocol


def dryrun(plan: LaunchPlan, workspace: str | Path | None = None, bundle_cap: int = BUNDLE_CAP_BYTES) -> SubmitRequest:
    """IrisBackend's dry run without a connection (what `launch --dry-run` shows): the
    LaunchJob request and the bundle Iris will be handed."""
    from irisrl.backends.bundle import submit_request

    return submit_request(plan, "iris", workspace, bundle_cap)


def submit_kwargs(request: IrisRequest) -> dict[str, object]:
    """IrisRequest -> IrisClient.submit keyword arguments: the same values, as SDK objects."""
    from iris.cluster.types import CoschedulingConfig, Entrypoint, ResourceSpec, gpu_device
    from iris.rpc import job_pb2

    res = request.resources
    device = gpu_device(res.device.variant, res.device.count) if res.device.type == "gpu" and res.device.count else None
    kwargs: dict[str, object] = dict(
        entrypoint=Entrypoint.from_command(*request.argv),
        name=request.name,
        user=request.user,
        resources=ResourceSpec(cpu=res.cpu, memory=res.memory, disk=res.disk, device=device),
        environment=exact_environment(request.env),
        ports=list(request.ports),
        replicas=request.replicas,
        coscheduling=CoschedulingConfig(group_by=request.group_by) if request.group_by else None,
        max_retries_failure=request.max_retries_failure,
        priority_band=job_pb2.PriorityBand.Value(request.priority_band),
    )
    if request.task_image is not None:
        kwargs["task_image"] = request.task_image
    return kwargs


def exact_environment(env: dict[str, str]) -> "EnvironmentSpec":
    """An EnvironmentSpec that sends exactly `env`: the SDK's own to_proto() would also copy
    HF_TOKEN / WANDB_API_KEY from this process's environment, which the plan did not ask for."""
    from iris.cluster.types import EnvironmentSpec

    class _ExactEnvironment(EnvironmentSpec):  # type: ignore[misc]  # the SDK is untyped
        def to_proto(self):  # type: ignore[no-untyped-def]  # the SDK's EnvironmentSpec proto
            proto = super().to_proto()
            for key in list(proto.env_vars):
                if key not in env:
                    del proto.env_vars[key]
            return proto

    return _ExactEnvironment(env_vars=dict(env))


def _require_listening(url: str) -> None:
    """Fail fast (exit 3) when nothing listens at the controller's address."""
    import socket
    from urllib.parse import urlparse

    parsed = urlparse(url)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        socket.create_connection((parsed.hostname or "127.0.0.1", port), timeout=10).close()
    except OSError as exc:
        raise _unreachable(url, exc) from None


def _quiet_sdk_logs() -> None:
    """The SDK logs INFO lines to stderr (log-server resolution etc.); irisrl prints its own."""
    import logging

    for name in ("iris", "finelog", "rigging", "httpx"):
        logging.getLogger(name).setLevel(logging.WARNING)
    logging.getLogger("finelog.client.log_client").setLevel(logging.WARNING)


def snapshot_from_status(job_id: str, status: "JobStatus", task_list: "list[TaskStatus] | None" = None) -> JobSnapshot:
    tasks = tuple(sorted((_task_view(t) for t in (task_list if task_list is not None else status.tasks)),
                         key=lambda t: t.index))
    rank0 = next((t for t in tasks if t.index == 0), None)
    reasons = [t.pending_reason for t in tasks if t.pending_reason]
    counts = count_states(tasks) if tasks else {str(k): int(v) for k, v in status.task_state_counts.items()}
    gpus, variant = _gpu_of(status)
    return JobSnapshot(
        job_id=status.job_id or job_id,
        state=job_state_name(status.state),
        state_int=int(status.state),
        error=status.error,
        exit_code=rank0.exit_code if rank0 else None,
        failure_count=int(status.failure_count),
        preemption_count=int(status.preemption_count),
        task_count=int(status.task_count or len(tasks)),
        task_states=counts,
        tasks=tasks,
        pending_reason=status.pending_reason or (reasons[0] if reasons else ""),
        finished_ms=_ms(status, "finished_at"),
        gpus_per_task=gpus, gpu_variant=variant,
    )


def _gpu_of(status: "JobStatus") -> tuple[int, str]:
    """(GPUs per task, variant) from a JobStatus' resources; (0, "") when it has none (ListJobs'
    rows carry no resources: service.py _job_to_proto sets none, GetJobStatus does)."""
    if not status.HasField("resources") or status.resources.device.WhichOneof("device") != "gpu":
        return 0, ""
    gpu = status.resources.device.gpu
    return int(gpu.count), str(gpu.variant)


def summary_from_status(j: "JobStatus") -> JobSummary:
    """ListJobs' JobStatus -> JobSummary (timestamps and size for `fleet` / `cost`)."""
    gpus, variant = _gpu_of(j)
    return JobSummary(j.job_id, job_state_name(j.state), {str(k): int(v) for k, v in j.task_state_counts.items()},
                      task_count=int(j.task_count), gpus_per_task=gpus, gpu_variant=variant,
                      submitted_ms=_ms(j, "submitted_at"), started_ms=_ms(j, "started_at"),
                      finished_ms=_ms(j, "finished_at"), error=str(j.error))


def _ms(proto: "JobStatus | TaskStatus | TaskAttempt", name: str) -> int | None:
    """A Timestamp field's epoch ms, None when unset (Iris leaves it unset until the event)."""
    if not proto.HasField(name):
        return None
    ms = int(getattr(proto, name).epoch_ms)
    return ms if ms > 0 else None


def _attempt_view(a: "TaskAttempt") -> AttemptView:
    """Iris's TaskAttempt (iris/rpc/job.proto; the controller fills it in service.py task_to_proto:
    state, exit_code, error, started_at / finished_at when set)."""
    finished = _ms(a, "finished_at")
    return AttemptView(attempt_id=int(a.attempt_id), state=task_state_name(a.state),
                       exit_code=int(a.exit_code) if finished is not None else None, error=a.error,
                       started_ms=_ms(a, "started_at"), finished_ms=finished)


def _task_view(t: "TaskStatus") -> TaskView:
    attempts = list(t.attempts)
    last = attempts[-1] if attempts else None
    finished = last is not None and last.HasField("finished_at") and last.finished_at.epoch_ms > 0
    exit_code = int(last.exit_code) if last is not None and finished else (int(t.exit_code) if t.HasField("finished_at") else None)
    started = any(a.HasField("started_at") and a.started_at.epoch_ms > 0 for a in attempts)
    return TaskView(index=_task_index(t.task_id), state=task_state_name(t.state), exit_code=exit_code,
                    attempts=len(attempts), worker=t.worker_id, error=t.error,
                    pending_reason=t.pending_reason or _status_message(t), started=started,
                    attempt_views=tuple(_attempt_view(a) for a in attempts))


def _status_message(t: "TaskStatus") -> str:
    """Why a waiting / building task is not running yet, from the backend: newer Iris adds
    TaskStatus.status_message (field 29: the Kubernetes pod's container-waiting reason, e.g.
    ImagePullBackOff, or Kueue's admission verdict; marin-community/marin
    lib/iris/src/iris/rpc/job.proto@01e95db28e9bb01ae7373f5f6a2378a38aa45776). The installed
    marin-iris 0.2.20.dev202606180959 has no such field: empty."""
    return str(getattr(t, "status_message", "") or "")


def _task_index(task_id: str) -> int:
    tail = task_id.rsplit("/", 1)[-1].split(":", 1)[0]
    return int(tail) if tail.isdigit() else -1
