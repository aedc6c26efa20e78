"""Learners: turn git history, shell history, CI reports and notes into entries.

``rg.learn(scope_id, owner_id=..., sources=["git"])`` runs them through
:class:`~recollect_graph.learners.runner.LearnerRunner`; third-party learners register through
the ``recollect_graph.learners`` entry-point group (see ``docs/learners.md``).
"""

from __future__ import annotations

from recollect_graph.learners.base import (
    Event,
    Extract,
    Learner,
    LearnerError,
    LearnerPluginError,
    Pattern,
    Skip,
    parse_since,
)
from recollect_graph.learners.result import LearnResult
from recollect_graph.learners.runner import LearnerRunner

__all__ = [
    "Event",
    "Extract",
    "LearnResult",
    "Learner",
    "LearnerError",
    "LearnerPluginError",
    "LearnerRunner",
    "Pattern",
    "Skip",
    "parse_since",
]
