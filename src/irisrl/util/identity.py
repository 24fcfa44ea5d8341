"""The user part of job ids (`/<user>/<job>`): $IRISRL_USER, else the login name. Checked
before it reaches a job id, a path or a request (issue 16, D7/D4): `../../etc`, spaces,
newlines, quotes or 10,000 characters would make a job id that escapes its directory, and
Iris's and `irisrl logs`'s file names."""

from __future__ import annotations

import os
import re
from typing import Mapping

from irisrl.util.errors import UsageError

USER_MAX = 63
# Login names are wider than DNS labels (dots, underscores, capitals), so this is the job
# name's rule widened by those three; never '/', whitespace, quotes or a leading dot.
_USER_RE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")


def check_user(user: str, source: str = "$IRISRL_USER") -> str:
    """`user` if it is a valid job-id user part, else UsageError naming `source`."""
    if len(user) > USER_MAX or not _USER_RE.fullmatch(user):
        shown = repr(user if len(user) <= 80 else user[:80] + "...")
        raise UsageError(
            f"{source} {shown} ({len(user)} chars) is not a valid user name for job ids: letters, digits, "
            f"'.', '_' and '-', starting and ending with a letter or digit, at most {USER_MAX} chars",
            f"export IRISRL_USER={_suggest(user)}")
    return user


def job_user(environ: Mapping[str, str] | None = None) -> str:
    """The checked user of job ids: $IRISRL_USER, else the login name."""
    env = os.environ if environ is None else environ
    given = env.get("IRISRL_USER")
    if given:
        return check_user(given)
    return check_user(_login_name(), "the login name")


def _login_name() -> str:
    import getpass  # only when $IRISRL_USER is not set

    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "user"


def _suggest(user: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", user).strip("._-")[:USER_MAX].strip("._-")
    return cleaned or "$(whoami)"
