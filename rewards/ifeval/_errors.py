"""`BadConstraint`: a constraint this reward cannot decide (the sample abstains)."""

from __future__ import annotations

from rewards.errors import BadReference

__all__ = ["BadConstraint"]

BadConstraint = BadReference
"""A constraint that cannot be decided: unknown id, or arguments the reference would reject
or replace by a random draw. `IFEvalReward` turns it into `bad_reference`. The project's one
bad-reference class (`rewards.errors.BadReference`), under the name this reward's API uses."""
