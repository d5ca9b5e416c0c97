"""What the words around a rejection construction say about its option: a need in disguise
("can't be without X"), the speaker's situation ("we have no X"), the source of a harm ("no
fumes from ABS") and a verdict reported from someone else ("my boss thinks X is a mess")."""

from __future__ import annotations

import re

from .verdicts import PRONOUNS

# "Without X" after a negation or a word of distress says X is needed, not refused: "i cant be
# without the car", "my gran would be so disappointed without live musicians".
_LACK_HURTS_RE = re.compile(
    r"\b(?:can'?t|cannot|couldn'?t|won'?t|wouldn'?t|not|never|no\s+way)\b[^,.;:!?]*$"
    r"|\b(?:disappointed|lost|miserable|stuck|struggle|struggling|impossible|hard|difficult|sad|"
    r"unhappy|upset|useless|helpless)\s+$",
    re.I,
)
# "We have no developers", "I've got no car": the speaker's situation (a fact), no refusal.
_SPEAKER_HAS_RE = re.compile(
    r"\b(?:i|we|our\s+\w+|my\s+\w+|the\s+team)(?:'ve|\s+(?:currently\s+|still\s+)?(?:have|has|"
    r"had|hold|own|got|'ve\s+got))\s+(?:got\s+)?(?:no)?\s*$",
    re.I,
)
_FROM_NAME_RE = re.compile(r"\sfrom\s+(?P<name>[A-Z0-9][\w.+#-]*(?:\s+[A-Z0-9][\w.+#-]*)*)")
_REPORTED_RE = re.compile(
    r"^.*\b(?:thinks?|thought|says?|said|feels?|felt|reckons?|believes?|finds?|found|claims?|"
    r"insists?)\s+(?:that\s+)?(?=\S)",
    re.I,
)


def lack_hurts(before: str) -> bool:
    """The text before "without X" makes doing without X a loss: X is needed."""
    return bool(_LACK_HURTS_RE.search(before))


def speaker_lacks(before: str) -> bool:
    """The text up to "no X" is the speaker having: "we have no X" states what is."""
    return bool(_SPEAKER_HAS_RE.search(before))


def named_source(option: str, rest: str) -> tuple[str, str]:
    """'no fumes from ABS': the named source is the option, the harm its reason."""
    source = _FROM_NAME_RE.search(option)
    return (source.group("name"), f"{option}{rest}") if source else (option, rest)


def reported_subject(subject: str) -> str | None:
    """The subject a reported verdict judges ("my boss thinks Jira" → Jira); None when it is a
    pronoun ("thinks they're cheesy"), which is left to the pronoun reader."""
    said = _REPORTED_RE.search(subject)
    if not said:
        return subject
    judged = subject[said.end() :]
    return None if judged.split()[0].lower() in PRONOUNS else judged
