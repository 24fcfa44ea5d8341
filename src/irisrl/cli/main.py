"""Root command. Subcommands load lazily so that `validate` and `launch --dry-run` import
nothing heavy (iris, ray, fsspec, huggingface_hub, matplotlib)."""

from __future__ import annotations

import importlib
import sys

import click

from irisrl.util.errors import IrisrlError
from irisrl.util.exitcodes import Exit

# command name -> "module:attribute"; each module owns one command (or group).
COMMANDS: dict[str, str] = {
    "validate": "irisrl.cli.validate_cmd:validate",
    "launch": "irisrl.cli.launch_cmd:launch",
    "fit": "irisrl.cli.fit_cmd:fit",
    "port": "irisrl.cli.port_cmd:port",
    "smoke-config": "irisrl.cli.smoke_cmd:smoke_config",
    "cluster": "irisrl.cli.cluster_cmd:cluster",
    "status": "irisrl.cli.job_cmds:status",
    "watch": "irisrl.cli.job_cmds:watch",
    "kill": "irisrl.cli.job_cmds:kill",
    "runs": "irisrl.cli.job_cmds:runs",
    "health": "irisrl.cli.observe_cmds:health",
    "logs": "irisrl.cli.observe_cmds:logs",
    "progress": "irisrl.cli.observe_cmds:progress",
    "fleet": "irisrl.cli.fleet_cmds:fleet",
    "cost": "irisrl.cli.fleet_cmds:cost",
    "export": "irisrl.cli.export_cmd:export",
    "checkpoints": "irisrl.cli.checkpoints_cmd:checkpoints",
    "finish": "irisrl.cli.finish_cmd:finish",
    "daytona": "irisrl.cli.daytona_cmd:daytona",
}

HELP = """Launch, check and watch multi-node agentic RL runs (SkyRL/GRPO) on Iris.

\b
Examples:
  irisrl validate examples/configs/dense8b_disagg.yaml --workspace examples/workspace --num-nodes 7
  irisrl launch --rl_config examples/configs/dense8b_disagg.yaml --workspace examples/workspace --num-nodes 7 --dry-run
  irisrl launch --local --rl_config examples/configs/smoke_colocated.yaml --workspace examples/workspace --num-nodes 2
  irisrl fit --rl_config examples/configs/dense8b_disagg.yaml --workspace examples/workspace --num-nodes 7 --local
  irisrl status /alice/dense8b-r1 --json
  irisrl health --log rank0.log.gz --log rank1.log
  irisrl export /alice/dense8b-r1 --dry-run
  irisrl finish /alice/dense8b-r1 --json

Exit codes: 0 ok, 1 errors/failed/KILL, 2 job absent, 3 could not determine,
4 pending or running (status) / would queue (fit), 5 watchdog KILL (watch), 6 the controller
refused this Iris SDK as too old (launch), 64 usage error, 130 interrupted (launch, watch).
"""


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        command: click.Command = getattr(importlib.import_module(module_name), attr)
        return command


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """irisrl's version, then the Iris SDK's version and build date (ops/about.py)."""
    if not value or ctx.resilient_parsing:
        return
    from irisrl.ops.about import version_lines

    for line in version_lines():
        click.echo(line)
    ctx.exit()


@click.group(cls=LazyGroup, help=HELP, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show irisrl's version and the Iris SDK's version and build date, and exit.")
def cli() -> None:
    from irisrl.cli.render_summary import Spinner
    from irisrl.ops import output

    # ops/ is a library that logs by default; for the CLI its lines and waits are the terminal's
    click.get_current_context().with_resource(output.using(output.to_terminal, Spinner()))


def _print_error(err: IrisrlError) -> None:
    click.echo(f"error: {err.message}", err=True)
    if err.fix:
        click.echo(f"fix:   {err.fix}", err=True)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI with the project's exit-code table (usage errors exit 64, not 2)."""
    try:
        rc = cli.main(args=argv, prog_name="irisrl", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as exc:  # pragma: no cover - click>=8.2
        click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        rc = Exit.USAGE
    except click.UsageError as exc:
        exc.show()
        rc = Exit.USAGE
    except click.exceptions.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):   # click turns Ctrl-C into Abort
            click.echo("interrupted", err=True)
            rc = Exit.INTERRUPTED
        else:
            click.echo("aborted", err=True)
            rc = Exit.FAIL
    except click.exceptions.Exit as exc:
        rc = exc.exit_code
    except click.ClickException as exc:
        exc.show()
        rc = Exit.USAGE if exc.exit_code == 2 else exc.exit_code
    except IrisrlError as exc:
        _print_error(exc)
        rc = exc.exit_code
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        rc = Exit.INTERRUPTED
    except BrokenPipeError:
        rc = Exit.OK
    sys.exit(int(rc or 0))
