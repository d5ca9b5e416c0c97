"""The deterministic analysers: what a user message says, and what a reply does.

Everything here is pure, instant and network-free. It always runs, in English and Chinese, and
backs up the LLM analyser and judge when they are disabled or answer badly. The rules are
general grammar — modal verbs, negation scope, clause structure, numeric constraints, choice
statements — not lists of sentences seen in tests, so they carry over to phrasings nobody
wrote down. When a rule is unsure it stays silent: a wrong rejection hides an option from the
model for the rest of the conversation, which costs more than a missed one the LLM analyser or
`/reject` can still add.
"""

from .message import analyse_message, rejects_option
from .options import normalise_option, option_matches, same_option
from .premature import is_full_answer_attempt, premature_markers
from .replies import find_readvocacy, find_readvocacy_evidence
from .text import more_specific, requirement_similarity, restates, text_similarity

__all__ = [
    "analyse_message",
    "find_readvocacy",
    "find_readvocacy_evidence",
    "is_full_answer_attempt",
    "more_specific",
    "normalise_option",
    "option_matches",
    "premature_markers",
    "rejects_option",
    "requirement_similarity",
    "restates",
    "same_option",
    "text_similarity",
]
