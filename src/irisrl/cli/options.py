"""Shared click options. Every two-word flag accepts both spellings (--num-nodes and
--num_nodes), as operators type the runbook's."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])   # a click command function, decorated in place


def flag(name: str, *extra: str, **kwargs: Any) -> Callable[[F], F]:
    """click.option for `name` ("num-nodes") under both dash and underscore spellings."""
    dashed = "--" + name.replace("_", "-")
    underscored = "--" + name.replace("-", "_")
    decls = [dashed] + ([underscored] if underscored != dashed else []) + list(extra)
    dest = name.replace("-", "_")
    kwargs.setdefault("show_default", "default" in kwargs and kwargs["default"] is not None)
    return click.option(*decls, dest, **kwargs)


json_flag = click.option("--json", "as_json", is_flag=True, help="Print one JSON object for machines.")
# launch's and export's fit gate (ops/fit_gate.py)
allow_queue_flag = flag("allow-queue", is_flag=True,
                        help="Submit even when the gang can never fit the cluster now (see irisrl fit); default: refuse.")
