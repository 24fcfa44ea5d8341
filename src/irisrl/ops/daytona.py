"""Daytona snapshot hygiene: `irisrl daytona snapshots [--purge --yes]` and the step before
every remote launch of a Daytona-backed (Harbor) run. The rules and the key are
config/daytona.py's (MarinSkyRL's); this module talks to Daytona through its real SDK
(`daytona`, extra `iris`), which honours DAYTONA_API_URL.

What the SDK calls (daytona 0.226.1, daytona/_sync/snapshot.py): `snapshot.list(page, limit)`
is GET {api_url}/snapshots?page=N&limit=M -> {items, total, page, totalPages};
`snapshot.delete(snapshot)` is DELETE {api_url}/snapshots/{id} (by id: no name lookup).

Every page is listed before anything is deleted (deleting while paging, as MarinSkyRL does,
shifts later items onto pages already read, which can hide a stale one). Each SDK call has a
deadline (the SDK sets no HTTP timeout). No SDK, or no DAYTONA_RL_API_KEY: skipped, with the
reason. The key is never printed; error texts are masked with it.
"""

from __future__ import annotations

import datetime
import warnings
from typing import Callable, Mapping, Protocol, Sequence, TypedDict, TypeVar, cast

from irisrl.config.daytona import (GENERIC_KEY, RL_KEY, SNAPSHOT_QUOTA, STALE_AFTER, DaytonaKey, is_harbor,
                                   is_stale, last_active, resolve_rl_key)
from irisrl.config.masking import mask_text
from irisrl.core.deadline import call_with_deadline
from irisrl.ops.output import emit
from irisrl.util.errors import UndeterminedError

PAGE_LIMIT = 100            # MarinSkyRL's page size (the API allows up to 200)
MAX_PAGES = 1000            # a server that never ends its pages still ends here
CALL_TIMEOUT_S = 30.0       # one SDK call (a page, a delete)
SDK_MISSING = ("the daytona SDK is not installed (it comes with irisrl's `iris` extra: "
               "scripts/setup.sh, or pip install -c constraints.txt -e '.[iris]')")

T = TypeVar("T")


class SnapshotRow(TypedDict):
    id: str
    name: str
    harbor: bool
    last_active: str     # ISO 8601: last used, else created
    idle_s: float
    action: str          # "not harbor" | "keep" | "would purge" | "purged" | "failed"


class SnapshotReport(TypedDict):
    status: str          # "listed" | "purged" | "skipped" | "failed"
    reason: str | None   # why skipped / failed
    key: str | None      # which key, from where ("DAYTONA_RL_API_KEY (environment)"); never its value
    api_url: str | None  # None: the SDK's default
    quota: int
    stale_after_s: float
    total: int           # the server's count of the org's snapshots
    harbor: int
    purged: int
    kept: int            # harbor - purged
    would_purge: int     # stale Harbor snapshots found
    snapshots: list[SnapshotRow]
    errors: list[str]


def snapshots(delete: bool = False, *, secrets_env: str | None = None, environ: Mapping[str, str] | None = None,
              now: datetime.datetime | None = None) -> SnapshotReport:
    """List every snapshot of the RL org; with `delete`, delete the stale Harbor ones."""
    report = _empty()
    key = resolve_rl_key(secrets_env, environ)
    if key is None:
        return _skipped(report, f"no {RL_KEY} in the environment or the secrets file (a generic {GENERIC_KEY} "
                                "is not used: the purge deletes across a whole org, and only the RL key names the "
                                "RL org)")
    report["key"] = f"{RL_KEY} ({key.source})"
    report["api_url"] = mask_text(key.api_url, [key.value]) if key.api_url else None   # URL userinfo too
    try:
        client = _client(key)
    except ImportError:
        return _skipped(report, SDK_MISSING)
    except Exception as exc:  # noqa: BLE001 - the SDK's own errors (bad config): reported, masked
        return _failed(report, f"the Daytona client did not start: {_text(exc, key)}")
    moment = now or datetime.datetime.now(datetime.timezone.utc)
    try:
        found, report["total"] = _list_all(client, key)
    except UndeterminedError as exc:
        return _failed(report, exc.message)
    stale = _classify(report, found, moment)
    if delete:
        _delete(report, client, key, stale)
    report["kept"] = report["harbor"] - report["purged"]
    report["status"] = "failed" if report["errors"] else "purged" if delete else "listed"
    return report


def before_launch(sandbox: str, local: bool, secrets_env: str | None = None) -> SnapshotReport | None:
    """The hygiene step of a launch: only for a remote Daytona-backed run; says what it did."""
    if sandbox != "daytona" or local:
        return None
    report = snapshots(delete=True, secrets_env=secrets_env)
    emit(f"daytona snapshots: {summary_line(report)}", err=report["status"] in ("skipped", "failed"))
    return report


def summary_line(report: SnapshotReport) -> str:
    """`total=.. harbor=.. purged=.. kept=.. (quota 40)`, or why nothing was done."""
    if report["status"] == "skipped":
        return f"skipped: {report['reason']}"
    counts = (f"total={report['total']} harbor={report['harbor']} purged={report['purged']} "
              f"kept={report['kept']} (quota {report['quota']})")
    if report["status"] == "listed":
        counts += f", {report['would_purge']} stale Harbor snapshot(s) to purge"
    if report["status"] == "failed":
        counts += f"; failed: {report['reason'] or '; '.join(report['errors'])}"
    return counts


# ---------------------------------------------------------------- the SDK
# What irisrl reads of the daytona SDK (0.226: Daytona.snapshot.list -> PaginatedSnapshots of
# Snapshot), as Protocols: the SDK may be absent, so it is cast once where it is made.


class _Snapshot(Protocol):
    @property
    def id(self) -> object: ...
    @property
    def name(self) -> object: ...
    @property
    def last_used_at(self) -> object: ...
    @property
    def created_at(self) -> object: ...


class _Page(Protocol):
    @property
    def items(self) -> Sequence[_Snapshot]: ...
    @property
    def total(self) -> int: ...
    @property
    def total_pages(self) -> int: ...


class _Snapshots(Protocol):
    def list(self, page: int, limit: int) -> _Page: ...
    def delete(self, snapshot: _Snapshot) -> object: ...


class _Client(Protocol):
    @property
    def snapshot(self) -> _Snapshots: ...


def _client(key: DaytonaKey) -> _Client:
    from daytona import Daytona, DaytonaConfig   # ImportError: skipped

    with warnings.catch_warnings():
        # polling mode: no socket.io connection (sandbox events), which listing and deleting never use
        warnings.simplefilter("ignore", DeprecationWarning)
        return cast(_Client, Daytona(DaytonaConfig(api_key=key.value, api_url=key.api_url, use_deprecated_polling=True)))


def _call(fn: Callable[[], T], what: str, key: DaytonaKey) -> T:
    def timeout() -> BaseException:
        return UndeterminedError(f"Daytona did not answer {what} within {CALL_TIMEOUT_S:g} s")

    try:
        return call_with_deadline(fn, CALL_TIMEOUT_S, timeout, name="irisrl-daytona")
    except UndeterminedError:
        raise
    except Exception as exc:  # noqa: BLE001 - the SDK wraps HTTP errors in its own types
        raise UndeterminedError(f"Daytona refused {what}: {_text(exc, key)}") from None


def _list_all(client: _Client, key: DaytonaKey) -> tuple[list[_Snapshot], int]:
    """Every snapshot on every page, and the server's total."""
    found: list[_Snapshot] = []
    total = 0
    for page in range(1, MAX_PAGES + 1):
        result = _call(lambda: client.snapshot.list(page=page, limit=PAGE_LIMIT), f"the snapshot list (page {page})",
                       key)
        found += list(result.items)
        total = int(result.total)
        if page >= int(result.total_pages) or not result.items:
            break
    return found, total


def _delete(report: SnapshotReport, client: _Client, key: DaytonaKey, stale: list[tuple[_Snapshot, SnapshotRow]]) -> None:
    for snapshot, row in stale:
        try:
            _call(lambda: client.snapshot.delete(snapshot), f"deleting {row['name']} ({row['id']})", key)
        except UndeterminedError as exc:
            row["action"] = "failed"
            report["errors"].append(exc.message)
            continue
        row["action"] = "purged"
        report["purged"] += 1


# ---------------------------------------------------------------- the rules applied


def _classify(report: SnapshotReport, found: list[_Snapshot], now: datetime.datetime) -> list[tuple[_Snapshot, SnapshotRow]]:
    """One row per snapshot (report["snapshots"]); the stale Harbor ones, to delete."""
    stale: list[tuple[_Snapshot, SnapshotRow]] = []
    for snapshot in found:
        name, used = str(snapshot.name), _when(snapshot.last_used_at)
        created = _when(snapshot.created_at) or now   # no timestamp at all: never stale
        active = last_active(used, created)
        row = SnapshotRow(id=str(snapshot.id), name=name, harbor=is_harbor(name), last_active=active.isoformat(),
                          idle_s=round((now - active).total_seconds(), 1), action="not harbor")
        if row["harbor"]:
            report["harbor"] += 1
            row["action"] = "would purge" if is_stale(name, used, created, now) else "keep"
            if row["action"] == "would purge":
                stale.append((snapshot, row))
        report["snapshots"].append(row)
    report["would_purge"] = len(stale)
    return stale


def _when(value: object) -> datetime.datetime | None:
    """The SDK's timestamps (datetime; ISO text in some builds) as aware UTC datetimes."""
    if value is None or value == "":
        return None
    moment = value if isinstance(value, datetime.datetime) else datetime.datetime.fromisoformat(
        str(value).replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


def _empty() -> SnapshotReport:
    return SnapshotReport(status="listed", reason=None, key=None, api_url=None, quota=SNAPSHOT_QUOTA,
                          stale_after_s=STALE_AFTER.total_seconds(), total=0, harbor=0, purged=0, kept=0,
                          would_purge=0, snapshots=[], errors=[])


def _skipped(report: SnapshotReport, reason: str) -> SnapshotReport:
    report["status"], report["reason"] = "skipped", reason
    return report


def _failed(report: SnapshotReport, reason: str) -> SnapshotReport:
    report["status"], report["reason"] = "failed", reason
    return report


def _text(exc: BaseException, key: DaytonaKey) -> str:
    return mask_text(f"{type(exc).__name__}: {str(exc).strip()[:300]}", [key.value])
