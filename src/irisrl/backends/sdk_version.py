"""Which Iris SDK (marin-iris) is installed, how old its build is, and how to read the
controller's refusal of an old one. Light: importlib.metadata and iris/_build_info.py only
(that module is a one-line stamp; the `iris` package's __init__ is empty).

Facts (marin-iris 0.2.20.dev202606180959, iris/cluster/controller/service.py): a root
LaunchJob whose `client_revision_date` is more than FRESHNESS_WINDOW (14 days) before the
controller's today is refused with ConnectError(FAILED_PRECONDITION, "marin-iris client is
too old (build D; minimum M). Run `uv sync` or upgrade marin-iris and retry."). The date is
iris/_build_info.py BUILD_DATE, stamped into every wheel (iris/version.py). Other RPCs are
not checked; controllers irisrl starts itself widen the window (backends/local_cluster.py)."""

from __future__ import annotations

import datetime
import re
import sys
from dataclasses import dataclass
from importlib import metadata

from irisrl.util.errors import IrisrlError
from irisrl.util.exitcodes import Exit

DIST = "marin-iris"
FRESHNESS_DAYS = 14   # iris.cluster.controller.service.FRESHNESS_WINDOW on real controllers
# The controller's refusal: gRPC/Connect status and the words of its message.
REFUSAL_CODE = "FAILED_PRECONDITION"
REFUSAL_TEXT = "client is too old"
_MINIMUM = re.compile(r"minimum (\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True)
class SdkInfo:
    version: str | None       # None: marin-iris is not installed
    build_date: str | None    # YYYY-MM-DD, or None when the build carries no stamp

    def age_days(self, today: datetime.date | None = None) -> int | None:
        if not self.build_date:
            return None
        try:
            built = datetime.date.fromisoformat(self.build_date)
        except ValueError:
            return None
        return ((today or datetime.date.today()) - built).days

    def describe(self, today: datetime.date | None = None) -> str:
        """One line for `irisrl --version`."""
        if self.version is None:
            return f"{DIST}: not installed (needed to launch; {install_hint()})"
        age = self.age_days(today)
        if age is None:
            return f"{DIST} {self.version} (build date unknown)"
        verdict = (f"older than the {FRESHNESS_DAYS} days a remote Iris controller accepts: {upgrade_command()}"
                   if age > FRESHNESS_DAYS else f"a remote Iris controller accepts builds up to {FRESHNESS_DAYS} days old")
        return f"{DIST} {self.version}, built {self.build_date} ({age} days ago; {verdict})"


def sdk_info() -> SdkInfo:
    try:
        version = metadata.version(DIST)
    except metadata.PackageNotFoundError:
        return SdkInfo(None, None)
    try:
        from iris._build_info import BUILD_DATE
    except ImportError:
        return SdkInfo(version, None)
    return SdkInfo(version, str(BUILD_DATE) or None)


def upgrade_command() -> str:
    """The exact command that upgrades the SDK in the interpreter irisrl runs in (only dev
    builds of marin-iris exist, hence --pre)."""
    return f"{sys.executable} -m pip install --upgrade --pre {DIST}"


def install_hint() -> str:
    return f"{sys.executable} -m pip install --pre {DIST}"


def is_stale_client_refusal(exc: BaseException) -> bool:
    """True for the controller's "client is too old" refusal (matched on its status code and
    its words, so an unrelated FAILED_PRECONDITION is not mistaken for it)."""
    code = getattr(exc, "code", None)
    name = str(getattr(code, "name", code) or "").upper()
    return name.endswith(REFUSAL_CODE) and REFUSAL_TEXT in _message(exc)


def stale_client_error(url: str, exc: BaseException) -> IrisrlError:
    """The refusal as one user-facing error: what, which SDK, and the upgrade command."""
    info = sdk_info()
    minimum = _MINIMUM.search(_message(exc))
    floor = f" (it accepts builds from {minimum.group(1)} on)" if minimum else ""
    built = f", built {info.build_date}" if info.build_date else ""
    return IrisrlError(
        f"the Iris controller at {url} refused the submission: this irisrl's Iris SDK ({DIST} {info.version}{built}) "
        f"is too old{floor}; nothing was submitted",
        f"upgrade the SDK and retry: {upgrade_command()}  (then `irisrl --version` shows the new build)",
        Exit.SDK_TOO_OLD)


def _message(exc: BaseException) -> str:
    return str(getattr(exc, "message", "") or exc)
