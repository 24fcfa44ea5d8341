"""`irisrl --version`: irisrl's version, then the Iris SDK's version and build date (a remote
controller refuses builds older than 14 days: backends/sdk_version.py)."""

from __future__ import annotations


def version_lines() -> list[str]:
    from importlib.metadata import version

    from irisrl.backends.sdk_version import sdk_info

    return [f"irisrl {version('irisrl')}", sdk_info().describe()]
