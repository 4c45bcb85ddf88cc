"""`BadConstraint`: a constraint this reward cannot decide (the sample abstains)."""

from __future__ import annotations

from rewards.errors import RewardsError

__all__ = ["BadConstraint"]


class BadConstraint(RewardsError):
    """A constraint that cannot be decided: unknown id, or arguments the reference would
    reject or replace by a random draw. `IFEvalReward` turns it into `bad_reference`."""
