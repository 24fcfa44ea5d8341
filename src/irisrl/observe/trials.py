"""Count completed trials (result.json files) under a trials dir, local or object store.
fsspec loads lazily; a slow or unreachable store gives None within the deadline."""

from __future__ import annotations

import concurrent.futures as cf


def _count(uri: str) -> int:
    import fsspec

    options = {}
    if uri.startswith("s3://"):
        from irisrl.runtime.store import s3_options   # same endpoint/credential rules as the runtime

        options = s3_options()
    fs, root = fsspec.core.url_to_fs(uri, **options)
    root = root.rstrip("/")
    return sum(1 for p in fs.find(root) if p.rsplit("/", 1)[-1] == "result.json")


def count_completed_trials(uri: str, timeout_s: float = 30.0) -> tuple[int | None, str]:
    """(count, note). count is None when the dir cannot be read in time; note says why."""
    pool = cf.ThreadPoolExecutor(max_workers=1)
    future = pool.submit(_count, uri)
    try:
        return future.result(timeout=timeout_s), f"counted result.json under {uri}"
    except cf.TimeoutError:
        return None, f"gave up listing {uri} after {timeout_s:g}s"
    except Exception as exc:  # noqa: BLE001 - any store error means "unknown", said plainly
        return None, f"could not list {uri}: {type(exc).__name__}: {exc}"
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
