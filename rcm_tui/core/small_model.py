"""How the lean profile talks to a small model (SmolLM2-135M and the like).

Measured on the embedded model (`rcm-tui eval`, shared scenarios): the full system prompt's
instructions ("answer concisely", "ask one or two precise questions") came back as replies
about the instructions ("The user asked for a list…, and I provided the answer in a concise
way") and as one short question, which the next turns then repeated word for word — a reply
copied from the history answers nothing new, and requirement coverage fell below plain chat.
So the small profile gets a plain system prompt; its ledger is a short plain list, after
the user's message, of the earlier requirements no reply has met yet (no bracketed block, no
rejected names: a small model echoes a name it is shown every turn), sent again only when it
changed (the history holds it as sent); a reply that proposes a rejected option, answers
prematurely or copies the ledger or the last reply gets a fresh sample of the same prompt
rather than a rewrite request (one proposing a rejected option is stopped at that sentence:
turn/early_stop.py); and of the attempts the one that proposes no rejected option, repeats
nothing and meets the most requirements is shown, among equals the latest. Measured for
the list sent on change and the latest of equals (shared scenarios, 2 busy cores): the
layer's first token came 0.7 s after plain chat's before, 0.3 s after with both (43 prompt
tokens read a turn instead of 60; plain reads 32).
"""

from __future__ import annotations

from . import prompts
from .models import Session
from .quality import Scores

# The newest message's own needs are in its text; these are the earlier ones not yet met.
CHECKLIST_ITEMS = 3


def checklist(session: Session, turn: int) -> str:
    """The small model's ledger: a short plain list, after the user's text, of the earlier
    requirements no reply has met yet (newest first), or "" when there are none or the list
    is the one the latest message that carried a list was sent with."""
    earlier = [r for r in session.open_requirements() if r.source_turn < turn]
    items = [r.text for r in reversed(earlier)][:CHECKLIST_ITEMS]
    if not items:
        return ""
    text = "\n".join([prompts.CHECKLIST_HEADER, *(f"- {item}" for item in items)])
    return "" if text == _last_sent(session, turn) else text


def _last_sent(session: Session, turn: int) -> str | None:
    """The checklist sent with the latest earlier message that carried one."""
    for message in reversed(session.messages):
        if message.role == "user" and message.turn < turn and message.ledger_sent:
            return message.ledger_sent
    return None


def needs_another_attempt(scores: Scores) -> bool:
    """A rejected option proposed, a premature full answer, the ledger or the last reply
    copied: worth another call. A merely weak reply is not (its rewrites measured no better)."""
    return bool(scores.readvocated) or scores.premature_attempt or scores.echoed or scores.repeated


def rank(scores: Scores, attempt: int) -> tuple[bool, bool, bool, int, int]:
    """Which attempt to show: no rejected option, not a repeat, not premature, most
    requirements met; among equals the latest, which the KV cache holds (an earlier one
    shown makes the next turn read it again: 190 tokens and 6.4 s to the first token, once,
    on a busy 2-core machine)."""
    return (
        not scores.readvocated,
        not (scores.repeated or scores.echoed),
        not scores.premature_attempt,
        len(scores.addressed),
        attempt,
    )
