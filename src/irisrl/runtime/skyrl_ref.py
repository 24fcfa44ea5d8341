"""--skyrl-ref: move the image's baked SkyRL checkout to a newer commit before the run
(deps are baked and skyrl-train is editable, so the checkout is live), and purge stale
bytecode so the old .pyc files cannot shadow the new sources."""

from __future__ import annotations

import os
import shutil
import subprocess

from irisrl.runtime.log import say


class SkyrlRefError(RuntimeError):
    pass


def _git(root: str, *args: str, timeout: float) -> str:
    try:
        done = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise SkyrlRefError(f"git {' '.join(args)} in {root} took longer than {timeout:g} s") from exc
    except FileNotFoundError as exc:
        raise SkyrlRefError("git is not installed in this image") from exc
    if done.returncode != 0:
        raise SkyrlRefError(f"git {' '.join(args)} in {root} failed: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout.strip()


def purge_bytecode(root: str) -> int:
    removed = 0
    for dirpath, dirnames, filenames in os.walk(root):
        if ".git" in dirnames:
            dirnames.remove(".git")
        for name in list(dirnames):
            if name == "__pycache__":
                shutil.rmtree(os.path.join(dirpath, name), ignore_errors=True)
                dirnames.remove(name)
                removed += 1
        for name in filenames:
            if name.endswith(".pyc"):
                os.remove(os.path.join(dirpath, name))
                removed += 1
    return removed


def _resolve(root: str, ref: str, timeout: float) -> str | None:
    """The commit a ref names; a branch resolves to its freshly fetched origin/<branch>."""
    for candidate in (f"origin/{ref}", ref):
        try:
            return _git(root, "rev-parse", "--verify", "--quiet", f"{candidate}^{{commit}}", timeout=timeout)
        except SkyrlRefError:
            continue
    return None


def checkout(root: str, ref: str, timeout: float = 300.0) -> str:
    """Fetch and check out ref in the SkyRL clone at root; returns the new HEAD sha."""
    if not os.path.isdir(os.path.join(root, ".git")):
        raise SkyrlRefError(f"--skyrl-root {root} is not a git checkout (no .git); pass the image's SkyRL clone")
    _git(root, "fetch", "--quiet", "--tags", "origin", timeout=timeout)
    target = _resolve(root, ref, timeout)
    if target is None:
        # a sha not reachable from any fetched branch: ask the remote for it by name
        _git(root, "fetch", "--quiet", "origin", ref, timeout=timeout)
        target = _resolve(root, "FETCH_HEAD", timeout)
    if target is None:
        raise SkyrlRefError(f"--skyrl-ref {ref!r} does not name a commit in {root} or its origin")
    _git(root, "checkout", "--quiet", "--force", "--detach", target, timeout=timeout)
    sha = _git(root, "rev-parse", "HEAD", timeout=timeout)
    removed = purge_bytecode(root)
    say(f"MarinSkyRL now at {sha} (ref {ref}; purged {removed} stale bytecode entries)")
    return sha
