"""`irisrl cluster up|status|down --local`: irisrl's own local Iris cluster (loopback only,
fake whole 8-GPU nodes). irisrl never stops or restarts a remote cluster."""

from __future__ import annotations

import json

import click

from irisrl.cli.options import flag, json_flag
from irisrl.util.errors import IrisrlError, UsageError
from irisrl.util.exitcodes import Exit

REMOTE_REFUSAL = ("irisrl manages only the local cluster it starts itself",
                  "remote clusters are never stopped or restarted from irisrl (it would kill every running job); "
                  "use --local")


@click.group(epilog="""\b
Examples:
  irisrl cluster up --local --nodes 2
  irisrl cluster status
  irisrl cluster down --local""")
def cluster() -> None:
    """Start, inspect and stop irisrl's local Iris cluster."""


@cluster.command(epilog="""\b
Examples:
  irisrl cluster up --local                 # 2 fake H100x8 nodes
  irisrl cluster up --local --nodes 4 --gpus-per-node 8""")
@click.option("--local", is_flag=True, help="Required: the local cluster (the only kind irisrl starts).")
@flag("nodes", default=2, type=click.IntRange(1, 64), help="Fake whole nodes; gangs of 1..N can be admitted.")
@flag("gpus-per-node", default=None, type=click.IntRange(1, 64), help="Fake GPUs per node (default: the profile's).")
@flag("profile", default="cw-us-east-02a", help="Cluster profile whose per-node resources the fake nodes advertise.")
def up(local: bool, nodes: int, gpus_per_node: int | None, profile: str) -> None:
    """Start a persistent local Iris controller in the background (127.0.0.1 only)."""
    if not local:
        raise IrisrlError(*REMOTE_REFUSAL, exit_code=Exit.USAGE)
    from irisrl.ops.cluster_admin import cluster_up

    started = cluster_up(nodes, gpus_per_node, profile)
    state = started.state
    click.echo(f"local cluster up at {state.url} (pid {state.pid}, {state.nodes} nodes x {state.gpus_per_node} "
               f"{started.gpu_variant}, {started.seconds:.1f}s)")
    click.echo(f"state: {started.state_dir}  log: {state.log}")
    click.echo("next:  irisrl launch --local ...   stop: irisrl cluster down --local")


@cluster.command(epilog="""\b
Examples:
  irisrl cluster status
  irisrl cluster status --json

Exit: 0 up, 1 not up.""")
@json_flag
def status(as_json: bool) -> None:
    """Show the local cluster irisrl started (URL, pid, nodes, whether it answers)."""
    from irisrl.ops.cluster_admin import cluster_status

    data = cluster_status()
    listening = data["up"]
    if as_json:
        click.echo(json.dumps(data, indent=2))
    elif listening:
        click.echo(f"local cluster up at {data['url']} (pid {data['pid']}, {data['nodes']} nodes x "
                   f"{data['gpus_per_node']} GPUs, up {data['uptime_s']:.0f}s)")
    elif data["process"] == "other":
        click.echo(f"the local cluster recorded at {data['url']} is gone: pid {data['pid']} is another process now; "
                   "remove the stale record with: irisrl cluster down --local (it signals nothing)")
    elif data["recorded"]:
        click.echo(f"local cluster recorded at {data['url']} (pid {data['pid']}) is not answering; "
                   "clean up with: irisrl cluster down --local")
    else:
        click.echo("no local cluster is up (start one: irisrl cluster up --local)")
    raise click.exceptions.Exit(Exit.OK if listening else Exit.FAIL)


@cluster.command(epilog="""\b
Examples:
  irisrl cluster down --local

Signals only the controller irisrl recorded at `cluster up`, and only while its pid still
runs that controller (same command line and start time); a stale record is removed
without signalling anything.""")
@click.option("--local", is_flag=True, help="Required: stop the local cluster irisrl started.")
def down(local: bool) -> None:
    """Stop the local controller irisrl started (and every task it runs)."""
    if not local:
        raise IrisrlError(*REMOTE_REFUSAL, exit_code=Exit.USAGE)
    from irisrl.ops.cluster_admin import cluster_down

    stopped = cluster_down()
    if stopped is None:
        click.echo("no local cluster recorded by irisrl; nothing to stop")
        return
    state = stopped.state
    if stopped.outcome == "stopped":
        click.echo(f"local cluster at {state.url} (pid {state.pid}) stopped")
    elif stopped.outcome == "other":
        click.echo(f"pid {state.pid} is no longer the local controller irisrl started (another process has it "
                   f"now); it was not signalled. Removed the stale record of {state.url}.")
    else:
        click.echo(f"the local cluster recorded at {state.url} (pid {state.pid}) was no longer running; "
                   "removed its stale record")


__all__ = ["cluster", "UsageError"]
