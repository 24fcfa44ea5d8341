"""irisrl: launch, check and watch multi-node agentic RL runs on Iris.

Kept empty on purpose: the in-container runtime ships `irisrl/runtime` with the job and
imports this package on a stock image, so nothing heavy (or non-stdlib) may live here.
"""

__version__ = "0.1.0"
