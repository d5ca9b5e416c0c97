"""What `/model` alone shows: the model in use and why, every provider with its models and
whether it can run here, and which model wrote which turns of this session."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .core.models import Session
from .providers.switching import provider_states

if TYPE_CHECKING:
    from .controller import Controller


def models_by_turn(session: Session) -> list[tuple[int, int, str]]:
    """(first turn, last turn, "provider · model") for each run of replies by one model;
    replies written before models were recorded are left out."""
    runs: list[tuple[int, int, str]] = []
    for message in session.messages:
        if message.role != "assistant" or not message.provider:
            continue
        label = f"{message.provider} · {message.model}" if message.model else message.provider
        if runs and runs[-1][2] == label:
            runs[-1] = (runs[-1][0], message.turn, label)
        else:
            runs.append((message.turn, message.turn, label))
    return runs


def describe_models(c: Controller) -> str:
    lines = [
        "## Model",
        f"Now: **{c.provider_label}** ({c.choice.reason})",
        "",
        "| provider | model | state |",
        "|---|---|---|",
    ]
    for row in provider_states(c.settings):
        # The problem's first clause; /model PROVIDER gives the whole reason (what to set).
        problem = row.problem.split(":")[0] if row.problem else "ready"
        state = "in use" if row.provider == c.choice.name else problem
        lines.append(f"| {row.provider} | {row.models} | {state} |")
    runs = models_by_turn(c.session)
    if runs:
        lines += ["", "Replies of this session:"]
        lines += [
            f"- turn {first}: {label}" if first == last else f"- turns {first}–{last}: {label}"
            for first, last, label in runs
        ]
    lines += [
        "",
        "Switch: `/model PROVIDER:NAME` (`/model openai:gpt-4o`), `/model PROVIDER` (its "
        "configured model) or `/model NAME` (another model of the provider in use). The next "
        "turns use it; a resumed session runs on its last model unless the command line names "
        "one (--provider, --model). Trying a provider that cannot run says what to set.",
    ]
    return "\n".join(lines)
