"""What every step of every turn shares: the providers, the settings, the events, the gate."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from .. import prompts
from ..events import Notice, PipelineEvent
from ..llm import LLMProvider
from ..models import Session
from ..profile import ProfileChoice, ProfileTracker
from ..serving import BackendFacts, CallGate
from .settings import PipelineSettings
from .state import Turn

log = logging.getLogger("rcm_tui.pipeline")

Emit = Callable[[PipelineEvent], None]


class Engine:
    """The providers (one writes replies, one answers the structured calls), the settings,
    the event sink and the save hook, the call gate and the profile: one per session run."""

    def __init__(
        self,
        generator: LLMProvider,
        analyst: LLMProvider,
        settings: PipelineSettings,
        emit: Emit | None = None,
        save: Callable[[Session], None] | None = None,
    ) -> None:
        self.generator = generator
        self.analyst = analyst
        self.settings = settings
        self._emit_cb = emit
        self._save_cb = save
        self.background: set[asyncio.Task[None]] = set()
        # A backend that serves one request at a time must never see two: not even the
        # background consolidation beside the next turn's reply (a llama-cpp-python server
        # cuts the running stream off for the newcomer).
        # A server that does so without saying it (the setting left at its default) is found
        # out by how it fails, and the gate turns serial then (see core/serving.py).
        parallel = all(getattr(p, "parallel_calls", True) for p in (generator, analyst))
        self.gate = CallGate(serial=not parallel)
        self.backend = BackendFacts(self.gate, self.emit)
        self._noticed: set[tuple[str, int, str]] = set()
        self.profile_tracker = ProfileTracker(settings.profile, settings.small_model_params)

    def emit(self, event: PipelineEvent) -> None:
        if self._emit_cb is not None:
            self._emit_cb(event)

    def save(self, session: Session) -> None:
        if self._save_cb is not None:
            self._save_cb(session)

    @property
    def one_call(self) -> bool:
        return self.gate.serial

    @property
    def lean(self) -> bool:
        """Spend model calls on the reply only? (See PipelineSettings.profile.)"""
        return self.profile.name == "lean"

    @property
    def profile(self) -> ProfileChoice:
        """The profile that runs and why (the header shows it)."""
        return self.profile_tracker.choose(self.generator)

    def announce_profile(self) -> None:
        """Say when a profile is decided rather than configured (a small model gets lean)."""
        text = self.profile_tracker.announcement(self.generator)
        if text is not None:
            self.emit(Notice(text))

    def system_prompt(self) -> str:
        if not self.settings.reliability:
            return prompts.PLAIN_SYSTEM_PROMPT
        return prompts.SMALL_MODEL_SYSTEM_PROMPT if self.lean else prompts.SYSTEM_PROMPT

    def status_due(self, number: int) -> bool:
        interval = self.settings.status_interval
        return self.settings.reliability and interval > 0 and number % interval == 0

    def llm_analysis_enabled(self) -> bool:
        return self.settings.reliability and self.settings.llm_analysis and not self.lean

    def llm_judge_enabled(self) -> bool:
        return self.settings.reliability and self.settings.llm_judge and not self.lean

    def fallback_notice(self, turn: Turn, step: str, why: str) -> None:
        log.info("turn %s: %s fell back to heuristics: %s", turn.number, step, why)
        # Once per step and turn on screen (a refined turn judges every attempt); the
        # inspector keeps every call.
        key = (turn.session.id, turn.number, step)
        if key in self._noticed:
            return
        self._noticed.add(key)
        self.emit(
            Notice(
                f"{step}: the model's answer was unusable ({why}); heuristics used for this step",
                "warning",
            )
        )
