"""What the configuration makes of a run: the pipeline's settings, the pair of providers a
session runs on, and where an explicit provider choice came from."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .config import LoadedSettings, Settings
from .core.context import Budget
from .core.llm import LLMProvider
from .providers.registry import Choice

if TYPE_CHECKING:
    from .core.turn import PipelineSettings

log = logging.getLogger("rcm_tui.run_settings")

def pipeline_settings(settings: Settings, reliability: bool = True) -> PipelineSettings:
    from .core.turn import PipelineSettings

    ctx = settings.context
    return PipelineSettings(
        reliability=reliability,
        llm_analysis=settings.llm_analysis,
        llm_judge=settings.llm_judge,
        quality_threshold=settings.quality_threshold,
        max_refinement_attempts=settings.max_refinement_attempts,
        consolidation_interval=settings.consolidation_interval,
        status_interval=settings.status_interval,
        budget=Budget(ctx.budget_tokens, ctx.reply_reserve_tokens, ctx.recent_turns,
                      ledger_requirements=ctx.ledger_requirements),
        bloat_moderate=settings.bloat_moderate,
        profile=settings.profile,
        small_model_params=settings.small_model_params,
        ledger_layout=ctx.ledger_layout,
        ledger_refresh_turns=ctx.ledger_refresh_turns,
    )


def explain_choice(choice: Choice, loaded: LoadedSettings) -> Choice:
    """Say where an explicit provider choice came from (flag, environment or file)."""
    if loaded.settings.provider == "auto":
        return choice
    source = loaded.source_of("provider")
    where = {"file": f"set in {loaded.path}", "default": "the default"}.get(source, source)
    return Choice(choice.name, f"chosen by {where}" if source != "file" else where)


@dataclass
class ProviderPair:
    generator: LLMProvider
    analyst: LLMProvider

    async def aclose(self) -> None:
        """Close each provider once (one may both generate and analyse); closing must never
        hide the real outcome, so a failure is only logged."""
        for provider in {id(p): p for p in (self.generator, self.analyst)}.values():
            try:
                await provider.aclose()
            except Exception:
                log.debug("closing provider failed", exc_info=True)
