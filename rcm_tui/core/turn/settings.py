"""What a pipeline is set to do; the defaults are the config's, stated once."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...config import Settings
from ..context import Budget

# The settings' defaults are the config's (documented in config.example.toml).
_CONFIG = Settings()


@dataclass
class PipelineSettings:
    reliability: bool = True
    llm_analysis: bool = _CONFIG.llm_analysis
    llm_judge: bool = _CONFIG.llm_judge
    # "lean" spends model calls only on the reply (and a fresh sample on re-advocacy, a
    # premature answer or a copy; see small_model.py); analysis, judging and summaries are
    # heuristic. "auto" picks lean for a model
    # below `small_model_params` parameters, whose structured answers measured worse than the
    # heuristics (SmolLM2-135M: every judge verdict out of range, most analysis ungrounded).
    profile: str = _CONFIG.profile
    small_model_params: int = _CONFIG.small_model_params
    # "as_sent": history keeps each user message with the ledger block it was sent with and
    # the newest gets only what changed (see prompt_ledger.ledger_update); "auto" uses it on
    # backends that serve one call at a time, where re-reading a prompt costs wall-clock.
    ledger_layout: str = _CONFIG.context.ledger_layout
    ledger_refresh_turns: int = _CONFIG.context.ledger_refresh_turns
    quality_threshold: float = _CONFIG.quality_threshold
    max_refinement_attempts: int = _CONFIG.max_refinement_attempts
    consolidation_interval: int = _CONFIG.consolidation_interval
    status_interval: int = _CONFIG.status_interval
    budget: Budget = field(
        default_factory=lambda: Budget(
            _CONFIG.context.budget_tokens,
            _CONFIG.context.reply_reserve_tokens,
            _CONFIG.context.recent_turns,
            ledger_requirements=_CONFIG.context.ledger_requirements,
        )
    )
    bloat_moderate: float = _CONFIG.bloat_moderate
    analysis_max_tokens: int = 400
    # Room for the scores, three issues and a verdict per rejected option (8 at most).
    judge_max_tokens: int = 420
    summary_words: int = 180
