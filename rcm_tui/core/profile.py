"""Which profile runs ("full" or "lean") and why, for `profile = "auto"`.

The size of the model decides where it is known: the local model reports it once loaded, and
a remote provider asks its server (llama-server's `/v1/models` metadata, Ollama's `/api/show`;
see providers/model_size.py). Where no server says, the first turn that runs the model's
structured calls is the evidence: a model whose analysis and judge answers were unusable JSON
is one the heuristics serve better, at a fraction of the calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .llm import LLMProvider
from .models import Session

STRUCTURED_PURPOSES = ("analysis", "judge")
# Share of a turn's structured calls that must be unusable to call the model too small.
UNUSABLE_SHARE = 0.5


@dataclass(frozen=True)
class ProfileChoice:
    name: Literal["full", "lean"]
    # Why, in words for the header and the notice ("135M parameters, reported by llama-server").
    reason: str
    # Decided at run time (auto), rather than set in the configuration.
    decided: bool = True
    # Decided by the model's size (the reason starts with it).
    sized: bool = False


class ProfileTracker:
    """Chooses the profile from the setting, the model's size or the first turn's evidence."""

    def __init__(self, setting: str, small_model_params: int) -> None:
        self.setting = setting
        self.small_model_params = small_model_params
        self._evidence: str | None = None
        self._observed = False
        self._announced: ProfileChoice | None = None

    def choose(self, generator: LLMProvider) -> ProfileChoice:
        if self.setting != "auto":
            name: Literal["full", "lean"] = "lean" if self.setting == "lean" else "full"
            return ProfileChoice(name, f'profile = "{self.setting}" in the settings', False)
        params = getattr(generator, "parameter_count", None)
        if isinstance(params, int) and params > 0:
            source = getattr(generator, "parameter_source", "")
            size = f"{params / 1e6:,.0f}M parameters" + (f", {source}" if source else "")
            small = params < self.small_model_params
            return ProfileChoice("lean" if small else "full", size, sized=True)
        if self._evidence is not None:
            return ProfileChoice("lean", self._evidence)
        return ProfileChoice("full", "the model's size is not reported")

    def observe(self, session: Session, turn: int) -> None:
        """After a turn: the first one that ran structured calls may decide the profile."""
        if self._observed or self.setting != "auto":
            return
        calls = [
            c for c in session.calls if c.turn == turn and c.purpose in STRUCTURED_PURPOSES
        ]
        if not calls:
            return
        self._observed = True
        unusable = [c for c in calls if c.fallback or c.error]
        if len(unusable) >= UNUSABLE_SHARE * len(calls):
            self._evidence = (
                f"{len(unusable)} of {len(calls)} analysis and judge answers on turn {turn} "
                "were unusable"
            )

    def announcement(self, generator: LLMProvider) -> str | None:
        """What to say when the decided profile is new: the lean one, or a change of mind."""
        choice = self.choose(generator)
        if not choice.decided or choice == self._announced:
            return None
        first = self._announced is None
        self._announced = choice
        if first and choice.name == "full":
            return None  # the default; the header says why
        if choice.name == "full":
            return f"full profile: {choice.reason}"
        said = f"has {choice.reason}" if choice.sized else f"— {choice.reason}"
        return (
            f"lean profile: {generator.model} {said}; analysis, scores and summaries use the "
            'heuristics (profile = "full" to use the model for them too)'
        )
