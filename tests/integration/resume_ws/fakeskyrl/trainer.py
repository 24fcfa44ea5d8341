"""A stand-in for SkyRL's trainer entrypoint (tests/integration/test_resume_iris_local.py): it
reads the Hydra arguments the launch passed, says what SkyRL's trainer.py says on a resume
(load_checkpoints: `Resuming from global_step: N`) or a fresh start, then closes two steps the
way upstream SkyRL's Timer does (no step number in the line)."""

import re
import sys

args = dict(a.lstrip("+").split("=", 1) for a in sys.argv[1:] if "=" in a)
print("FAKE_TRAINER_ARGS " + " ".join(sys.argv[1:]), flush=True)
step = 0
if args.get("trainer.resume_mode") == "from_path":
    m = re.search(r"global_step_(\d+)$", args.get("trainer.resume_path", ""))
    step = int(m.group(1)) if m else -1
    print(f"2026-12-03 10:00:01.000 | INFO     | skyrl_train.trainer:load_checkpoints:1869 - Resuming from global_step: {step}", flush=True)
else:
    print("2026-12-03 10:00:01.000 | INFO     | skyrl_train.trainer:load_checkpoints:1834 - No checkpoint found, starting training from scratch", flush=True)
for _ in range(2):
    print("2026-12-03 10:00:02.000 | INFO     | skyrl_train.utils.utils:__exit__:99 - Finished: 'step', time cost: 1.00s", flush=True)
print("Training complete", flush=True)
