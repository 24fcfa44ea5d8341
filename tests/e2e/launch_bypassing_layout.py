"""Test-only entry point (run as a subprocess by test_local_launch.py): build the plan for
`launch --local ...` flags past layout errors (tests/plan_bypass.py) and submit it through the
ops API, as `irisrl launch` would. Prints which errors were bypassed; exits with the launch's code."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/: plan_bypass

from plan_bypass import build_plan_past_layout_errors, bypassed_rules  # noqa: E402


def main(argv: list[str]) -> int:
    from irisrl.cli.launch_options import parse_launch_flags
    from irisrl.cli.render_summary import render_summary
    from irisrl.ops import LaunchSettings, launch, output
    from irisrl.util.errors import IrisrlError

    args = parse_launch_flags(argv)   # launch's own flags and defaults
    plan, findings, _ = build_plan_past_layout_errors(args.inputs, args.target, args.show.dry_run)
    if plan is None:
        print("plan not built:", [f.rule for f in findings if f.severity == "error"], file=sys.stderr)
        return 1
    print(f"warning: test-only layout bypass: submitting despite {', '.join(bypassed_rules(findings))}", file=sys.stderr)
    try:
        with output.using(output.to_terminal):   # what it does, and the summary, as the CLI shows them
            settings = LaunchSettings(args.target, allow_queue=args.allow_queue, on_summary=render_summary)
            return launch(plan, settings).exit_code
    except IrisrlError as err:
        print(f"error: {err.message}\nfix: {err.fix}", file=sys.stderr)
        return err.exit_code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
