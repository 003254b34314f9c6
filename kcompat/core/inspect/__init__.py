"""Reading what a real cluster says about a control-plane component (pure core, no UI).

``read_input`` reads one file of any supported kind, ``combine_readings`` turns many into one
selection, ``compare_observed`` checks /metrics against the engine's prediction.
"""

from .combine import Combined, GivenBinary, combine_readings
from .compare import Comparison, Disagreement, compare_observed, predicted_on_metrics
from .detect import read_input
from .model import CONTROL_PLANE, InspectError, Reading

__all__ = [
    "CONTROL_PLANE",
    "Combined",
    "Comparison",
    "Disagreement",
    "GivenBinary",
    "InspectError",
    "Reading",
    "combine_readings",
    "compare_observed",
    "predicted_on_metrics",
    "read_input",
]
