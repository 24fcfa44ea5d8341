"""The run ledger: one SQLite row per launch under $IRISRL_HOME/ledger.sqlite.

Stores the masked plan JSON only (LaunchPlan.to_dict() masks secret env values), never a
secret value. Every query is parameterised: job ids never become SQL text."""

from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from irisrl.core.series import series_of
from irisrl.util.errors import UndeterminedError
from irisrl.util.paths import irisrl_home, probe_free_space

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id TEXT NOT NULL,
  series TEXT,
  config_path TEXT,
  config_sha256 TEXT,
  hparams_fingerprint TEXT,
  model TEXT,
  train_data TEXT,            -- JSON list
  nodes INTEGER,
  image TEXT,
  skyrl_ref TEXT,
  rendezvous_dir TEXT,
  cluster TEXT,               -- controller URL (or cluster config path) the job went to
  cluster_kind TEXT,          -- local | url | config
  sandbox TEXT,               -- daytona | none
  submitted_at REAL,
  last_state TEXT,
  last_seen_at REAL,
  plan_json TEXT              -- masked LaunchPlan JSON
);
CREATE INDEX IF NOT EXISTS runs_job ON runs(job_id);
CREATE INDEX IF NOT EXISTS runs_series ON runs(series);
"""

COLUMNS = ("id", "job_id", "series", "config_path", "config_sha256", "hparams_fingerprint", "model",
           "train_data", "nodes", "image", "skyrl_ref", "rendezvous_dir", "cluster", "cluster_kind",
           "sandbox", "submitted_at", "last_state", "last_seen_at")


def default_ledger_path() -> Path:
    return irisrl_home() / "ledger.sqlite"


class Ledger:
    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_ledger_path()

    def _connect(self) -> sqlite3.Connection:
        """For reads (and updates of rows that may not exist): an absent ledger is an empty one
        and is not created, so `irisrl runs` writes nothing (issue 16, D11)."""
        return open_db(self.path, create=False)

    def check_writable(self) -> None:
        """Before a submit: the ledger opens and there is room to record the launch, so a job is
        never submitted untracked (issue 16, D8/D11). Raises LedgerUnusable (exit 3)."""
        check_db_writable(self.path)

    def record_launch(self, plan: Any, cluster: str, cluster_kind: str, state: str = "pending") -> int:
        """Remember a submitted plan. `plan` is a LaunchPlan; only its masked JSON is stored."""
        data = plan.to_dict()
        now = time.time()
        series = data.get("series") or (data.get("tags") or {}).get("series") or series_of(data["job_name"])
        row = (data["job_id"], series, data.get("config_path"), data.get("config_sha256"),
               data.get("hparams_fingerprint"), data.get("model_path"), json.dumps(data.get("train_data", [])),
               data.get("num_nodes"), data.get("image"), data.get("skyrl_ref"), data.get("rendezvous_dir"),
               cluster, cluster_kind, (data.get("tags") or {}).get("sandbox", "none"), now, state, now,
               json.dumps(data, sort_keys=True))
        with closing(open_db(self.path, create=True)) as conn, conn:
            cur = conn.execute(
                "INSERT INTO runs (job_id, series, config_path, config_sha256, hparams_fingerprint, model,"
                " train_data, nodes, image, skyrl_ref, rendezvous_dir, cluster, cluster_kind, sandbox,"
                " submitted_at, last_state, last_seen_at, plan_json)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", row)
            return int(cur.lastrowid or 0)

    def update_state(self, job_id: str, state: str) -> None:
        """Set the last seen state on the newest row of this job (no-op if irisrl never launched it)."""
        with closing(self._connect()) as conn, conn:
            conn.execute("UPDATE runs SET last_state = ?, last_seen_at = ? WHERE id ="
                         " (SELECT MAX(id) FROM runs WHERE job_id = ?)", (state, time.time(), job_id))

    def runs(self, series: str | None = None) -> list[dict[str, Any]]:
        sql = f"SELECT {', '.join(COLUMNS)} FROM runs"
        args: tuple[Any, ...] = ()
        if series is not None:
            sql += " WHERE series = ?"
            args = (series,)
        with closing(self._connect()) as conn:
            return [_row(r) for r in conn.execute(sql + " ORDER BY id", args)]

    def latest(self, job_id: str) -> dict[str, Any] | None:
        with closing(self._connect()) as conn:
            r = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM runs WHERE job_id = ? ORDER BY id DESC LIMIT 1",
                             (job_id,)).fetchone()
        return _row(r) if r else None

    def plan_for(self, job_id: str) -> dict[str, Any] | None:
        """The masked plan JSON of the newest launch of `job_id` (health and progress read it)."""
        with closing(self._connect()) as conn:
            r = conn.execute("SELECT plan_json FROM runs WHERE job_id = ? ORDER BY id DESC LIMIT 1",
                             (job_id,)).fetchone()
        return json.loads(r["plan_json"]) if r and r["plan_json"] else None

    def plan_by_row(self, row_id: int) -> dict[str, Any] | None:
        with closing(self._connect()) as conn:
            r = conn.execute("SELECT plan_json FROM runs WHERE id = ?", (row_id,)).fetchone()
        return json.loads(r["plan_json"]) if r and r["plan_json"] else None

    def find_by_name(self, job_name: str) -> list[str]:
        """Job ids irisrl launched whose last path segment is `job_name` (bare-name lookup)."""
        with closing(self._connect()) as conn:
            rows = conn.execute("SELECT DISTINCT job_id FROM runs WHERE job_id LIKE '/%' ORDER BY id DESC").fetchall()
        return [r["job_id"] for r in rows if r["job_id"].rsplit("/", 1)[-1] == job_name]

    def series_history(self, series: str) -> list[tuple[str, str]]:
        """(job_id, hparams_fingerprint) of earlier launches of a series, oldest first."""
        with closing(self._connect()) as conn:
            rows = conn.execute("SELECT job_id, hparams_fingerprint FROM runs WHERE series = ? ORDER BY id",
                                (series,)).fetchall()
        return [(r["job_id"], r["hparams_fingerprint"] or "") for r in rows]

    def rendezvous_users(self, rendezvous_dir: str) -> list[str]:
        norm = rendezvous_dir.rstrip("/")
        with closing(self._connect()) as conn:
            rows = conn.execute("SELECT job_id FROM runs WHERE rtrim(rendezvous_dir, '/') = ? ORDER BY id",
                                (norm,)).fetchall()
        return [r["job_id"] for r in rows]

    def daytona_job_ids(self) -> set[str]:
        with closing(self._connect()) as conn:
            rows = conn.execute("SELECT DISTINCT job_id FROM runs WHERE sandbox = 'daytona'").fetchall()
        return {r["job_id"] for r in rows}


# ---------------------------------------------------------------- opening the file, safely
# A corrupt file (random bytes, truncated, a directory) or a full disk is a clear error with
# exit 3, never an sqlite3 traceback (issue 16, D8/D11). Kept apart from the queries above.

WRITE_RESERVE_BYTES = 1 << 20   # room a launch's row (a plan JSON is tens of KiB) + journal needs


class LedgerUnusable(UndeterminedError):
    """The ledger file cannot be read or written: what, where and how to fix it."""

    def __init__(self, path: Path, exc: BaseException, writing: bool = False, note: str = "") -> None:
        reason = f"{exc.__class__.__name__}: {exc}"
        if _is_full(exc):
            fix = f"free space on the filesystem of {path.parent} (or point $IRISRL_HOME elsewhere)"
        else:
            fix = (f"move it aside (mv {path} {path}.bad): irisrl then starts an empty ledger and the old "
                   "rows stay in the moved file")
        verb = "written" if writing else "read"
        super().__init__(f"the run ledger {path} cannot be {verb} ({reason}){note}", fix)


def _is_full(exc: BaseException) -> bool:
    import errno

    return getattr(exc, "errno", None) == errno.ENOSPC or "disk is full" in str(exc)


class _GuardedConnection(sqlite3.Connection):
    """Every statement's sqlite3 error becomes LedgerUnusable (a corrupt page can surface at
    any query, not only at open)."""
    ledger_path = Path()

    def execute(self, *args: Any, **kwargs: Any) -> sqlite3.Cursor:
        try:
            return super().execute(*args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise LedgerUnusable(self.ledger_path, exc) from None

    def executescript(self, script: str) -> sqlite3.Cursor:
        try:
            return super().executescript(script)
        except sqlite3.DatabaseError as exc:
            raise LedgerUnusable(self.ledger_path, exc) from None


def open_db(path: Path, create: bool) -> sqlite3.Connection:
    """A connection with the schema. `create`: make the file (and its dir) when absent; else an
    absent ledger reads as an empty in-memory one."""
    exists = path.exists()
    if not exists and not create:
        target: str | Path = ":memory:"
    else:
        if exists and not path.is_file():
            raise LedgerUnusable(path, IsADirectoryError(f"{path} is not a regular file"))
        target = path
    try:
        if target != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(target, timeout=10, factory=_GuardedConnection)
    except (OSError, sqlite3.DatabaseError) as exc:
        raise LedgerUnusable(path, exc, writing=create) from None
    assert isinstance(conn, _GuardedConnection)
    conn.ledger_path = path
    conn.row_factory = sqlite3.Row
    try:
        conn.executescript(SCHEMA)
    except LedgerUnusable:
        conn.close()
        raise
    return conn


def check_db_writable(path: Path) -> None:
    """The ledger opens (created if absent) and its directory takes WRITE_RESERVE_BYTES
    (util/paths.probe_free_space): a full disk fails here, before any submit."""
    try:
        open_db(path, create=True).close()
    except LedgerUnusable as exc:
        raise UndeterminedError(exc.message + "; nothing was submitted", exc.fix) from None
    try:
        probe_free_space(path.parent, WRITE_RESERVE_BYTES)
    except OSError as exc:
        raise LedgerUnusable(path, exc, writing=True, note="; nothing was submitted") from None


def _row(r: sqlite3.Row) -> dict[str, Any]:
    data = dict(r)
    if isinstance(data.get("train_data"), str):
        data["train_data"] = json.loads(data["train_data"])
    return data
