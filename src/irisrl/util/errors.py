"""User-facing errors: what went wrong, where, and how to fix it. The CLI renders them
without a traceback and exits with their code."""

from __future__ import annotations

from irisrl.util.exitcodes import Exit


class IrisrlError(Exception):
    """An error the user can act on. `fix` says how; `exit_code` follows the exit table."""

    def __init__(self, message: str, fix: str = "", exit_code: int = Exit.FAIL) -> None:
        super().__init__(message)
        self.message = message
        self.fix = fix
        self.exit_code = int(exit_code)


class UsageError(IrisrlError):
    def __init__(self, message: str, fix: str = "") -> None:
        super().__init__(message, fix, Exit.USAGE)


class UndeterminedError(IrisrlError):
    """Unreadable input, unreachable controller, timeout: exit 3."""

    def __init__(self, message: str, fix: str = "") -> None:
        super().__init__(message, fix, Exit.UNKNOWN)
