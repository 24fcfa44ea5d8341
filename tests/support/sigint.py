"""Children that tests interrupt with SIGINT must not inherit an ignored SIGINT: a shell
starts background jobs (`cmd &`, nohup, many CI runners) with SIGINT ignored, exec keeps
that, and a Python started so never raises KeyboardInterrupt (the test then sees exit 0,
not 130). `sigint_default(argv)` runs argv with SIGINT back at its default first; exec keeps
the pid, so signalling the Popen's pid still reaches the command."""

from __future__ import annotations

import sys

_RESET = "import os,signal,sys;signal.signal(signal.SIGINT,signal.SIG_DFL);os.execvp(sys.argv[1],sys.argv[1:])"


def sigint_default(argv: list[str]) -> list[str]:
    return [sys.executable, "-c", _RESET, *argv]
