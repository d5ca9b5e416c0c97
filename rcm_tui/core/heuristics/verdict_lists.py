"""Verdicts given line by line on a list of options (issue 12).

People answer a list of options with a list of verdicts, each option named at the start of its
line and judged after a dash or a colon:

    1. Church hall — basically free but freezing. Out.
    2. Red Lion back room — possible
    3. Fairway golf club — Mum won't set foot in there, long story
    二手书：不要，上次收了一箱没人买

Sentence by sentence, such a line reads as a bare noun phrase ("Church hall", taken for a need)
followed by a verdict with no subject ("Out.") or with a pronoun for one ("… in there"). Read
by the line, the verdict belongs to the option that heads it: the line turns that option down
when its comment is a bare refusal (a closed class: out, nope, pass, 不要, 算了 …) or when the
rules, reading the comment alone, turn down a pronoun (it, there, that one, 那里) or the option
itself. A line judged any other way ("possible", "lovely, but pricey") turns nothing down.
A line that turns its option down or only weighs it states no requirement ("Church hall",
"Out", "Possible" were read as needs); a line of terms ("Hybrid: 2 days a week") still does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .options import option_matches
from .rejections import RejectionHit, RejectionScan, find_rejections
from .sentences import Sentence, parse_sentences

# A list marker, the option, a dash or colon, the comment. The option is short and has no
# sentence punctuation; an en/em dash may be spaced or not, a hyphen must be spaced
# ("Wi-Fi — fine" keeps its hyphen).
_LINE_RE = re.compile(
    r"^\s*(?P<marker>(?:\d{1,2}[.)、]|[-*•·]|[a-zA-Z][.)]|[（(]\d{1,2}[)）])\s*)?"
    r"(?P<head>[^\n—–:：?？!！。.,，]{1,60}?)(?:\s+-{1,2}\s+|\s*[—–]{1,2}\s+|\s+[—–]{1,2}\s*|"
    r"[—–]{2}|\s*[:：])\s*(?P<comment>\S.*)$"
)
_HEAD_WORDS_MAX = 6
_REFUSAL_EN = (
    r"out|no|nope|nah|pass|hard\s+pass|skip|no\s+way|no-?go|no\s+go|nixed|vetoed|ruled\s+out|"
    r"scratch\s+that|not\s+for\s+(?:us|me)|not\s+happening|never\s+again|dealbreaker|"
    r"deal-?breaker|not\s+an\s+option|forget\s+it|crossed\s+off|x|✗|✘|❌|👎"
)
_REFUSAL_ZH = (
    r"不要|不行|算了|免了|pass|不考虑|排除|否|划掉|不去|不用|拉倒|没戏|不予考虑|唔要|唔得|拒绝"
)
# A comment piece that is a refusal and nothing else ("Out.", "nope!", "不要了").
_REFUSAL_PIECE_RE = re.compile(
    rf"^(?:(?:{_REFUSAL_EN})|(?:{_REFUSAL_ZH})[了吧啦啊]*)[.!。！~～\s]*$", re.I
)
_PIECE_SPLIT_RE = re.compile(r"(?<=[.!。！;；])\s*|[,，]\s*")
# What a comment calls the option when it does not name it again.
_POINTER_RE = re.compile(
    r"^(?:it|that|this|them|those|these|there|here|that\s+one|this\s+one|that\s+place|"
    r"the\s+place|它|这个|那个|那里|那儿|那边|这里|这家|那家|佢|嗰度|呢度)$",
    re.I,
)
# The same pronouns inside a comment ("we hate it there", "它太贵了不考虑").
_POINTER_WORD_RE = re.compile(
    r"\b(?:that\s+one|this\s+one|that\s+place|it|that|this|them|there)\b|它|那里|那儿|那边|这家|那家",
    re.I,
)
# A comment that only weighs the option ("possible", "lovely, but pricey", "还行"): with a
# refusal, the lines that state no requirement ("Hybrid: 2 days a week" still does).
_WEIGHING_RE = re.compile(
    r"^(?:(?:quite|very|really|pretty|so|maybe|probably|perhaps)\s+)?(?:possible|possibly|maybe|"
    r"perhaps|ok|okay|fine|good|great|nice|lovely|decent|meh|love\s+it|like\s+it|yes|yep|not\s+sure|"
    r"unsure|tbd|promising|interesting|shortlisted|pricey|expensive|cheap|👍|🤔|可以|行|还行|不错|"
    r"待定|考虑中|再看看|一般)(?:[,，.。!！]|\s*$)",
    re.I,
)
# A field of a form or a word about the answer itself, not an option ("Budget: no", "Dates — …",
# "Short version: no", "Bottom line: no").
_FIELD_RE = re.compile(
    r"^(?:budget|dates?|time|when|where|who|price|cost|notes?|p\.?s|update|edit|context|"
    r"background|question|answer|status|summary|tl;?dr|version|verdict|decision|thoughts?|reply|"
    r"response|conclusion|line|point|thing|预算|时间|日期|地点|备注|人数|结论|答案|回复)$",
    re.I,
)


@dataclass(frozen=True)
class VerdictLine:
    option: str
    comment: str
    rejected: bool
    reason: str


def _is_list_line(marker: str | None, lines_like_it: int) -> bool:
    return bool(marker) or lines_like_it >= 2


def _head_ok(head: str) -> bool:
    """An option's name: a few words, not a form's field ("Budget", "Quick update")."""
    words = head.split()
    return 0 < len(words) <= _HEAD_WORDS_MAX and not _FIELD_RE.match(words[-1])


def _pieces(comment: str) -> list[str]:
    return [p.strip() for p in _PIECE_SPLIT_RE.split(comment) if p and p.strip()]


def _reason(comment: str) -> str:
    """The comment without its refusal pieces: what the user said against the option."""
    kept = [p for p in _pieces(comment) if not _REFUSAL_PIECE_RE.match(p)]
    return ", ".join(kept).strip(" .。")


def _refuses_bare(comment: str) -> bool:
    return any(_REFUSAL_PIECE_RE.match(p) for p in _pieces(comment))


def _refuses_pointer(option: str, comment: str) -> bool:
    """The rules, reading the comment with its first pronoun replaced by the option ("Mum
    won't set foot in there" → "… in Fairway golf club"), turn the option down."""
    named = _POINTER_WORD_RE.sub(option, comment, count=1)
    if named == comment:
        return False
    hits = find_rejections(parse_sentences(named), set()).hits
    return any(option_matches(option, h.option) or option_matches(h.option, option) for h in hits)


def _points(option: str) -> bool:
    return bool(_POINTER_RE.match(option.strip(" .,!?")))


def verdict_lines(text: str) -> list[VerdictLine]:
    """The lines of `text` that judge the option they start with, in order."""
    matches = [m for m in map(_LINE_RE.match, text.splitlines()) if m]
    matches = [m for m in matches if _head_ok(m.group("head"))]
    lines = []
    for m in matches:
        option, comment = m.group("head").strip(), m.group("comment").strip()
        bare = _refuses_bare(comment)
        if not bare and not _is_list_line(m.group("marker"), len(matches)):
            continue
        rejected = bare or _refuses_pointer(option, comment)
        lines.append(VerdictLine(option, comment, rejected, _reason(comment) if rejected else ""))
    # One line "Note: no" is no list of verdicts; a refusal on its own line still is one.
    if len(lines) == 1 and not lines[0].rejected:
        return []
    return lines


def _squeezed(text: str) -> str:
    return re.sub(r"[\s—–:：-]+", " ", text.casefold()).strip(" .。")


def _opens(sentence: Sentence, option: str) -> bool:
    return _squeezed(sentence.text).startswith(option)


def _line_sentences(lines: list[VerdictLine], sentences: list[Sentence]) -> list[list[int]]:
    """The sentences each line was parsed into, found in order: a line's first sentence holds
    its option, the ones after it are parts of its comment."""
    found: list[list[int]] = []
    at = 0
    for line in lines:
        whole = _squeezed(f"{line.option} {line.comment}")
        option = _squeezed(line.option)
        starts = (i for i in range(at, len(sentences)) if _opens(sentences[i], option))
        first = next(starts, None)
        if first is None:
            found.append([])
            continue
        indices = [sentences[first].index]
        at = first + 1
        while at < len(sentences) and _squeezed(sentences[at].text) in whole:
            indices.append(sentences[at].index)
            at += 1
        found.append(indices)
    return found


def read_verdict_lists(text: str, sentences: list[Sentence], scan: RejectionScan) -> set[int]:
    """Apply each list line's verdict to the scan (a pronoun the line's comment turned down
    replaced by the option heading the line); return the sentences of verdict lines, which
    state no requirement."""
    verdict_sentences: set[int] = set()
    lines = verdict_lines(text)
    for line, indices in zip(lines, _line_sentences(lines, sentences), strict=True):
        if not indices:
            continue
        if line.rejected or _WEIGHING_RE.match(line.comment):
            verdict_sentences.update(indices)
        if not line.rejected:
            continue
        scan.hits = [
            h
            for h in scan.hits
            if not (
                h.sentence in indices
                and (_points(h.option) or option_matches(line.option, h.option))
            )
        ]
        scan.hits.append(
            RejectionHit(line.option, line.reason, indices[0], 0, False, family="verdict_list")
        )
        scan.clauses.setdefault((indices[0], 0), "")
    return verdict_sentences
