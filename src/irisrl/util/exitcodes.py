"""The one exit-code table shared by every irisrl command (README: "Exit codes")."""

from enum import IntEnum


class Exit(IntEnum):
    OK = 0          # success / no errors / NO-KILL / job succeeded
    FAIL = 1        # errors found, refused by a guard, job failed/killed/worker_failed/unschedulable, KILL
    ABSENT = 2      # job absent
    UNKNOWN = 3     # could not determine: unreadable input, controller unreachable, timeout
    ACTIVE = 4      # job pending or running (status only)
    WATCHDOG_KILL = 5  # the watchdog saw a KILL verdict (watch only)
    SDK_TOO_OLD = 6    # the Iris controller refused this Iris SDK build as too old (launch): upgrade marin-iris
    USAGE = 64      # usage error (bad flags)
    INTERRUPTED = 130  # Ctrl-C: launch/watch detach; the job keeps running
