"""--skyrl-ref: move the image's baked SkyRL checkout to a newer commit before the run
(deps are baked and skyrl-train is editable, so the checkout is live), and purge stale
bytecode so the old .pyc files cannot shadow the new sources.

The controller calls `checkout` on every node; a job that runs no controller (a one-node
`irisrl export`) runs `python -m irisrl.runtime.skyrl_ref --skyrl-ref REF --skyrl-root ROOT
-- COMMAND...`: the same checkout, then COMMAND in its place."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

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


def main(argv: list[str] | None = None) -> int:
    """Check out --skyrl-ref, then exec the command after `--` (exit 1 with the reason if the
    checkout fails: the command never runs on the image's stale SkyRL)."""
    args = list(sys.argv[1:] if argv is None else argv)
    cut = args.index("--") if "--" in args else len(args)
    p = argparse.ArgumentParser(prog="python -m irisrl.runtime.skyrl_ref")
    p.add_argument("--skyrl-ref", required=True)
    p.add_argument("--skyrl-root", required=True)
    opts = p.parse_args(args[:cut])
    command = args[cut + 1:]
    if not command:
        p.error("a command after -- is required")
    try:
        checkout(opts.skyrl_root, opts.skyrl_ref)
    except SkyrlRefError as exc:
        say(f"ERROR: {exc}")
        return 1
    sys.stdout.flush()
    os.execvp(command[0], command)   # replaces this process


if __name__ == "__main__":
    sys.exit(main())
