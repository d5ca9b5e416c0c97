"""Every prompt the layer sends to a model, in one place.

The generation system prompt is the stable head of every call (it never changes within a
session, so providers can keep it in their prefix cache). The ledger block is rebuilt every
turn and goes into the last user message, after the history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .ledger_snapshot import LedgerSnapshot, RejectedItem, RequirementItem

SYSTEM_PROMPT = """\
You are a careful assistant in a long, exploratory conversation. Keep the conversation on track:
- The conversation ledger in the user's latest message is authoritative. Follow every pending
  requirement, keep to the SOLIDIFIED block, and never propose an option listed as rejected
  (you may mention it only as rejected).
- If facts you need are missing, ask one or two precise questions instead of guessing; do not
  give a complete solution before the requirements are known.
- Answer the latest message directly and concisely; do not repeat earlier answers.
- Use what the user said in every earlier turn, not only the first and the latest.
- If the user changes direction, start your reply with [PIVOT]. If the user rejects an option,
  acknowledge it once with [REJECTED: option]."""

STATUS_INSTRUCTION = """\
Open your reply with a status block in exactly this form, then answer:
[STATUS]
Conclusion: <the current conclusion in one sentence>
Rejected: <option (reason); option (reason)> or none
Open: <open decision; open decision> or none
[/STATUS]"""

ANALYSIS_INSTRUCTION = """\
Task: analyse the user's newest message (below) for a requirement ledger. Do not answer it.
Return JSON only, with these keys:
requirements: needs or constraints the user stated in this message (short, in the user's
  words; questions and small talk are NOT requirements);
confirmed: ids of existing requirements the user confirmed; dropped: ids the user withdrew;
rejections: options the user rejected in this message, each {{"option", "reason"}};
reopened: rejected options the user explicitly reconsiders;
pivot: true if the user changed direction; facts: stable facts stated by the user;
trajectory: the current direction in one short sentence, or "";
dialog_state: one of greeting, information_seeking, problem_solving, clarification, closing;
topic_shift: true only if the message starts an unrelated subject; questions: the user's
open questions.

Existing requirements: {requirements}
Rejected options: {rejected}

Newest user message:
<<<
{message}
>>>"""

JUDGE_INSTRUCTION = """\
Task: judge your previous reply (the last assistant message) strictly. Do not rewrite it.
Return JSON only, with numbers from 0 to 1:
clarity, completeness, assumptions (unfounded assumptions; lower is better), verbosity
(needless length; lower is better), middle_turn_reference (uses facts from earlier turns),
requirement_tracking (respects every pending requirement and rejected option),
premature_attempt (true if it gave a full solution before the requirements were known),
addressed: ids of pending requirements the reply addressed, issues: short problems,
suggestions: short fixes,
rejected_options: one entry per rejected option listed below, {{"option": <as listed>,
  "proposes": true or false}}. proposes is true when the reply recommends, suggests, plans or
  uses that option or anything that is it: another name or a variant of it, a member of the
  category, an instance of it (a taxi ride for "taxis", pancakes for "flat foods", a
  second-hand shop for "used clothing"). It is false when the reply does not offer it, or only
  mentions it to exclude it ("since you don't like X", "instead of X", "I left out X", a list
  of the rejected options, a quote of the user).

Pending requirements: {requirements}
Rejected options (must not be proposed): {rejected}"""

REFINE_INSTRUCTION = """\
Rewrite your reply to fix:
{issues}
Keep what was right; never propose a rejected option ({rejected}); be concise. Only the reply."""

READVOCATED_ISSUE = "proposes {option}, which the user rejected"
READVOCATED_KIND_ISSUE = "proposes {found}, which is {option}: the user rejected it"


def readvocated_issue(option: str, found: str | None = None) -> str:
    """The issue a rewrite is given; it names what the reply said when that was not the option
    itself (a small model told "flat foods" does not see that its pancakes are meant)."""
    if found and found.casefold() != option.casefold():
        return READVOCATED_KIND_ISSUE.format(found=found, option=option)
    return READVOCATED_ISSUE.format(option=option)
REPEATED_ISSUE = "repeats the previous answer instead of answering the new message"
ECHOED_ISSUE = "copies the conversation ledger instead of answering the message"

CONSOLIDATION_INSTRUCTION = """\
Task: summarise the conversation above (turns {first} to {last}) in at most {words} words, so
that nothing important from any turn is lost. Keep every requirement, number, decision,
rejected option (with its reason) and open question, especially from the middle turns. Plain
sentences, no preamble. Do not continue the conversation."""

SOLIDIFY_INSTRUCTION = """\
Write the SOLIDIFIED block for this conversation: what is decided so far, from the whole
conversation and the ledger. Use exactly this form:
CONCLUSION: <the current conclusion>
REJECTED: <each rejected option with its reason, who rejected it and at which turn>
OPEN QUESTIONS: <what is still undecided>
Be brief and factual; invent nothing."""

# For backends without a JSON mode (the Anthropic Messages API): said in the system prompt.
JSON_ONLY_INSTRUCTION = (
    "Answer with a single JSON value only: no prose, no Markdown fences. "
    "It must match this JSON schema:\n{schema}"
)

RECAP_HEADER = "Welcome back — here is where this session stood."

# The system prompt of plain chat: the baseline the layer is measured against (eval, bench).
PLAIN_SYSTEM_PROMPT = "You are a helpful assistant."
# The lean profile's system prompt (see small_model.py): what a small model was tuned to read;
# anything longer is echoed rather than followed.
SMALL_MODEL_SYSTEM_PROMPT = "You are a helpful assistant."
# Heads the consolidated summary of the turns no longer sent verbatim.
SUMMARY_HEADER = "Summary of the conversation up to turn {turn}:"
# `rcm-tui bench --provider …` loads the model with this before the clock starts.
WARM_UP_PROMPT = "Say OK."


LEDGER_HEADER = "[Conversation ledger — authoritative]"
# The small-model profile's ledger: plain words after the user's message (see small_model.py).
CHECKLIST_HEADER = "Also keep in mind what I said before:"
UPDATE_HEADER = "[Ledger of turn {turn} above still holds]"
# Closes the requirements of a long ledger: those not repeated still hold.
MORE_REQUIREMENTS = (
    "- and {count} earlier requirements ({ids}), stated before: not repeated here, still in "
    "force"
)
# Lines of the ledger blocks no answer of the model's own has reason to contain: a reply with
# one of them is parroting the prompt (small models do).
LEDGER_MARKERS = (
    LEDGER_HEADER, "[/ledger]", "above still holds]", "Requirements to respect:",
    "Rejected options — do NOT propose", "Newly rejected — do NOT propose",
)


def ledger_block(
    ledger: LedgerSnapshot,
    *,
    status_requested: bool,
    more_requirements: tuple[int, str] | None = None,
) -> str:
    """The per-turn block placed right before the newest user message, highest priority first.
    `more_requirements`: (how many, their ids) of the requirements a long ledger does not
    repeat (see ledger_bound.py)."""
    lines = [LEDGER_HEADER]
    if ledger.solidified:
        lines += ["SOLIDIFIED (decided; keep to it):", ledger.solidified.strip()]
    if ledger.rejected:
        lines.append("Rejected options — do NOT propose these again:")
        lines += [rejected_item(r) for r in ledger.rejected]
    requirements = ledger.live_requirements
    if requirements:
        lines.append("Requirements to respect:")
        lines += [requirement_item(r.id, r.text) for r in requirements]
    if more_requirements:
        lines.append(MORE_REQUIREMENTS.format(count=more_requirements[0], ids=more_requirements[1]))
    if ledger.trajectory:
        lines.append(f"Current direction: {ledger.trajectory}")
    # A fact a requirement already states is said once: every line is re-read each turn.
    said = " ".join(r.text for r in requirements).casefold()
    facts = [f for f in ledger.facts if f.casefold() not in said]
    if facts:
        lines.append("Facts: " + "; ".join(facts))
    if ledger.open_questions:
        lines.append("Open questions: " + "; ".join(ledger.open_questions))
    if status_requested:
        lines.append(STATUS_INSTRUCTION)
    lines.append("[/ledger]")
    return "\n".join(lines)


def requirement_item(requirement_id: str, text: str) -> str:
    """One requirement as a ledger line; the as-sent layout looks for it in earlier blocks."""
    return f"- {requirement_id}: {text}"


def rejected_item(rejected: RejectedItem) -> str:
    """One rejected option as a ledger line; the as-sent layout looks for it in earlier blocks."""
    reason = rejected.reason
    return f"- {rejected.option}" + (f" (reason: {reason})" if reason else "")


def ledger_update_block(
    *,
    new_rejected: Sequence[RejectedItem],
    rejected_names: list[str],
    since_turn: int,
    status_requested: bool,
) -> str:
    """The short block of the "as sent" layout: the full ledger of `since_turn` still holds."""
    lines = [UPDATE_HEADER.format(turn=since_turn)]
    if new_rejected:
        lines.append("Newly rejected — do NOT propose these again:")
        lines += [rejected_item(r) for r in new_rejected]
    if rejected_names:
        lines.append("Do not propose: " + ", ".join(rejected_names))
    if status_requested:
        lines.append(STATUS_INSTRUCTION)
    return "\n".join(lines)


def format_requirements(requirements: Sequence[RequirementItem]) -> str:
    if not requirements:
        return "none"
    return "; ".join(f"{r.id}: {r.text}" for r in requirements)


def format_rejected(rejected: Sequence[RejectedItem]) -> str:
    return ", ".join(r.option for r in rejected) or "none"


# JSON schemas for the structured calls; providers pass them on as JSON mode or a grammar.
# Lists and strings are bounded so a grammar-constrained answer fits in max_tokens.
def _short_list(items: int, chars: int) -> dict[str, Any]:
    return {"type": "array", "maxItems": items, "items": {"type": "string", "maxLength": chars}}


_IDS = _short_list(8, 8)
ANALYSIS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "requirements": {
            "type": "array",
            "maxItems": 3,
            "items": {
                "type": "object",
                "properties": {
                    "text": {"type": "string", "maxLength": 100},
                    "confidence": {"type": "number"},
                },
                "required": ["text"],
            },
        },
        "confirmed": _IDS,
        "dropped": _IDS,
        "rejections": {
            "type": "array",
            "maxItems": 2,
            "items": {
                "type": "object",
                "properties": {
                    "option": {"type": "string", "maxLength": 40},
                    "reason": {"type": "string", "maxLength": 100},
                },
                "required": ["option"],
            },
        },
        "reopened": _short_list(2, 40),
        "pivot": {"type": "boolean"},
        "facts": _short_list(3, 100),
        "trajectory": {"type": "string", "maxLength": 100},
        "dialog_state": {
            "type": "string",
            "enum": [
                "greeting",
                "information_seeking",
                "problem_solving",
                "clarification",
                "closing",
            ],
        },
        "topic_shift": {"type": "boolean"},
        "questions": _short_list(2, 100),
    },
    "required": ["requirements", "rejections", "pivot", "dialog_state"],
}

_SCORE = {"type": "number", "minimum": 0, "maximum": 1}
JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "clarity": _SCORE,
        "completeness": _SCORE,
        "assumptions": _SCORE,
        "verbosity": _SCORE,
        "middle_turn_reference": _SCORE,
        "requirement_tracking": _SCORE,
        "premature_attempt": {"type": "boolean"},
        "addressed": _IDS,
        "issues": _short_list(3, 100),
        "suggestions": _short_list(3, 100),
        "rejected_options": {
            "type": "array",
            "maxItems": 8,
            "items": {
                "type": "object",
                "properties": {
                    "option": {"type": "string", "maxLength": 60},
                    "proposes": {"type": "boolean"},
                },
                "required": ["option", "proposes"],
            },
        },
    },
    "required": [
        "clarity",
        "completeness",
        "assumptions",
        "verbosity",
        "middle_turn_reference",
        "requirement_tracking",
        "premature_attempt",
    ],
}
