"""A reply read as a page: its lines with their place (list item, heading, table row), what a
line or section says was left out, quoted speech, and the sentences as the model wrote them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .sentences import (
    BULLET_RE,
    SENTENCE_SPLIT_RE,
)
from .text import CJK_CHAR_RE

# Lines that present items: bullets, numbered items, headings and table rows. A reply lists
# what it offers; an item that names a rejected option offers it unless it says otherwise.
_ITEM_RE = re.compile(r"^\s*(?:[-*•·+]|\d{1,2}[.)、]|#{1,6})\s+|^\s*\|")
# Words that mark an item as what was left out ("| Redis | rejected |", "已排除：Elasticsearch"),
# and, with the softer ones, a lead-in of a list of such items ("What to avoid:").
# A participle right before a lower-case noun describes that noun ("so dropped stitches are
# rarer", "abandoned mines"): no verdict on the item. Before a name, a determiner, a
# preposition or nothing, it is one ("dropped Kafka", "dropped the idea", "dropped (cost)").
_NOT_ATTRIBUTIVE = (
    r"(?!\s+(?!(?:because|since|as|for|from|in|on|after|due|by|it|them|this|that|these|those|"
    r"the|an?|any|all|every|some|its|their|our|your|my|here|there|earlier|already|now|too|"
    r"entirely|completely|altogether|outright|and|or|but|so|then|instead)\b)(?-i:[a-z]{3,}))"
)
_STRONG_EXCLUSION = (
    r"\b(?:reject(?:ed|s)?|rul(?:ed|es|ing)\s+out|excluded?|off\s+the\s+table|"
    r"not\s+(?:recommended|considered|an\s+option|chosen|selected)|left\s+out|no[- ]go|"
    rf"(?:dropped|discarded|scrapped|abandoned){_NOT_ATTRIBUTIVE}|"
    r"vetoed|out\s+of\s+scope)\b|"
    r"~~|[❌✗✘🚫⛔]|排除|不推荐|不考虑|否决|去掉|放弃|弃用|淘汰|不采用"
)
_EXCLUDED_ITEM_RE = re.compile(_STRONG_EXCLUSION, re.I)
# A table cell that is a verdict against its row ("| Kafka | no | too heavy |"); not the first
# cell, which names the row.
_NEGATIVE_CELL_RE = re.compile(
    r"\**(?:no|nope|out|not\s+\w+|n/a|✗|×|x|否|不|不行|不适合)\**\.?(?:\s*[(—–-].*)?", re.I
)
_EXCLUSION_HEADER_RE = re.compile(
    _STRONG_EXCLUSION + r"|\b(?:avoid(?:ed)?|skip(?:ped)?|set\s+aside|"
    r"(?:won'?t|will\s+not|do\s+not|don'?t)\s+(?:propose|recommend|suggest))\b|避开|避免|不选",
    re.I,
)
# A warning: what is named under it, or after it in its line, is what to watch for, not
# what is offered ("**One thing to watch:** many baskets sneak in rum cake", "**提醒**：有啲
# 平台先用機器翻譯"). A tip ("Tips", "小提醒", "温馨提示") may still offer, so it is no warning.
_WARNING = (
    r"\b(?:(?:one|two|a\s+few|some)?\s*things?\s+to\s+(?:watch|avoid|look\s+out\s+for)|"
    r"watch\s+(?:out|for)|beware|caution|warnings?|pitfalls?|red\s+flags?|be\s+careful)\b"
    r"|(?<![小馨])提醒|警惕|当心|小心|避坑|踩坑|谨防"
)
_WARNING_HEADER_RE = re.compile(_WARNING, re.I)
_WARNING_LEAD_RE = re.compile(
    r"^\s*(?:[-*•·+]\s+)?(?:\*\*|__)(?P<lead>[^*_\n]{1,40})(?:\*\*|__)\s*[:：]?", re.I
)
_HEADER_WORDS = 12
_WORD_CHAR_RE = re.compile(r"[^\W\d_]")
_STRUCK_RE = re.compile(r"~~.+?~~")
BOLD_RE = re.compile(r"\*\*.+?\*\*|__.+?__")
# A quotation of what someone said ("You said \"I hate taxis\""): a mention, not an offer. A
# quoted name alone ("the \"Redis\" option") is not speech, so short quotes do not count.
_QUOTE_RE = re.compile(r'"[^"\n]{2,300}"|“[^”\n]{2,300}”|「[^」\n]{2,300}」|『[^』\n]{2,300}』')
_SPEECH_MIN_WORDS, _SPEECH_MIN_CJK = 3, 4


def speech_spans(sentence: str) -> list[tuple[int, int]]:
    spans = []
    for m in _QUOTE_RE.finditer(sentence):
        body = m.group()[1:-1]
        if len(body.split()) >= _SPEECH_MIN_WORDS or len(CJK_CHAR_RE.findall(body)) >= (
            _SPEECH_MIN_CJK
        ):
            spans.append(m.span())
    return spans


@dataclass
class ReplyLine:
    text: str
    item: bool  # a list item, heading or table row
    excluded: bool  # says, or sits under a header that says, it was left out
    # opens on a warning, or sits under one: what it names is to watch for, not offered
    warned: bool = False


def reply_lines(prose: str) -> list[ReplyLine]:
    """Every line with its place in the reply's structure."""
    lines: list[ReplyLine] = []
    heads: list[bool] = []
    header_excludes = header_warns = False
    for raw in prose.splitlines():
        if not _WORD_CHAR_RE.search(raw):
            continue  # a blank line or a table's rule ("|---|---|") says nothing
        item = bool(_ITEM_RE.match(raw))
        text = _ITEM_RE.sub("", raw).replace("|", " ; ") if item else raw
        if not item or raw.lstrip().startswith("#"):
            header_excludes, header_warns = _excludes_below(raw), _warns_below(raw)
        warned = _warns(raw) or (item and header_warns)
        excluded = (
            bool(_EXCLUDED_ITEM_RE.search(raw))
            or warned
            or (item and header_excludes)
            or any(_NEGATIVE_CELL_RE.fullmatch(cell.strip()) for cell in raw.split("|")[2:])
        )
        lines.append(ReplyLine(_STRUCK_RE.sub(" ", text), item, excluded, warned))
        heads.append(bool(_HEADING_RE.match(raw)))
    _exclude_rejected_sections(lines, heads)
    return lines


# A heading, or a line that is all bold: the title of the section below it.
_HEADING_RE = re.compile(r"^\s*(?:#{1,6}\s+\S|\*\*[^*]+\*\*:?\s*$|__[^_]+__:?\s*$)")
_SECTION_LINES = 8


def _exclude_rejected_sections(lines: list[ReplyLine], heads: list[bool]) -> None:
    """A heading whose short section says it was rejected ("### Option 2: Travis CI" over
    "- **Rejected**: pricing") names an option left out, not one offered: as in a decision
    record, which lists every option considered and its verdict."""
    starts = [i for i, head in enumerate(heads) if head]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        body = lines[start + 1 : end]
        if len(body) <= _SECTION_LINES and any(_EXCLUDED_ITEM_RE.search(b.text) for b in body):
            lines[start].excluded = True


def _lead_in(line: str) -> str | None:
    """The body of a short lead-in or heading (it ends in a colon, is a Markdown heading or is
    all in bold: "Ruled out:", "**What I left out**"), or None."""
    body = line.strip().strip("#*_ ").strip()
    short = len(body.split()) <= _HEADER_WORDS and len(CJK_CHAR_RE.findall(body)) <= 2 * (
        _HEADER_WORDS
    )
    lead_in = body.endswith((":", "：")) or bool(_HEADING_RE.match(line))
    return body if short and lead_in else None


def _excludes_below(line: str) -> bool:
    """A lead-in that introduces what was left out ("Ruled out:")."""
    body = _lead_in(line)
    return body is not None and bool(_EXCLUSION_HEADER_RE.search(body))


def _warns_below(line: str) -> bool:
    """A lead-in that introduces warnings ("**提醒**：", "Watch out for:")."""
    body = _lead_in(line)
    return body is not None and bool(_WARNING_HEADER_RE.search(body))


def _warns(line: str) -> bool:
    """A line that opens on a bold warning ("**Watch out:** …")."""
    lead = _WARNING_LEAD_RE.match(line)
    return bool(lead and _WARNING_HEADER_RE.search(lead.group("lead")))


def reply_sentences(text: str) -> list[str]:
    """The sentences of a reply's line as the model wrote them.

    Not the ledger's splitter: that one reads a user's message, so it drops bold-only lines
    and strips emphasis as formatting. In a reply the formatting is what offers: "**Redis**"
    on its own line, "a **charcoal** sofa".
    """
    body = BULLET_RE.sub("", text)
    return [s.strip() for s in SENTENCE_SPLIT_RE.split(body) if s and s.strip()]
