"""One turn of the reliability pipeline: analyse → generate (streamed) → evaluate → refine."""

from __future__ import annotations

from .pipeline import Pipeline
from .settings import PipelineSettings
from .state import TurnOutcome

__all__ = ["Pipeline", "PipelineSettings", "TurnOutcome"]
