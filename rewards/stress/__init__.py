"""`rewards stress`: every component of a reward config attacked with the classes real
policies find (shared/ATTACK-CLASSES.md), on the user's own rows, before it trains anything.

A component's probes live beside it (`rewards/math/_probes.py` ...) as a `ProbeSet`; a plugin
declares its own as a `probes` attribute. A component without probes is reported unprobed,
never safe. docs/stress.md says what each class means and how to read the report."""

from rewards.stress._probe import ATTACK_CLASSES, INVISIBLE, Probe, ProbeSet, Row, with_completion
from rewards.stress._render import plot, render
from rewards.stress._run import (
    BUILTIN_PROBES,
    ComponentResult,
    GateResult,
    ProbeResult,
    StressReport,
    as_dict,
    probe_set_for,
    stress_config,
    stress_reward,
)
from rewards.stress._signatures import SIGNATURES, hack_metrics, hack_signatures

__all__ = [
    "ATTACK_CLASSES",
    "BUILTIN_PROBES",
    "INVISIBLE",
    "SIGNATURES",
    "ComponentResult",
    "GateResult",
    "Probe",
    "ProbeResult",
    "ProbeSet",
    "Row",
    "StressReport",
    "as_dict",
    "hack_metrics",
    "hack_signatures",
    "plot",
    "probe_set_for",
    "render",
    "stress_config",
    "stress_reward",
    "with_completion",
]
