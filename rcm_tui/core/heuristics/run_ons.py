"""Messages dictated or typed on a phone without punctuation, cut where a full stop would go.

"the first one looks amazing but we looked and its like 400 a night so yeah thats a hard pass
we were thinking more like 180 max a night" is four sentences said as one. Read whole, it is one
requirement and every refusal in it is lost. Only a long stretch with no punctuation inside is
read this way; a punctuated message has its sentences marked already.

The cuts are where speech starts a new clause: a connective that opens one ("so", "also",
"but", "cause", "plus", "anyway"), a subject pronoun or "that's / it's / there's" that follows a
word which cannot introduce it ("…180 max a night | we had a really bad airbnb"), an interjection
("ok", "oh", "yeah", "right") and a request ("can you check…", "what's it near"). A word that
governs what follows ("think", "that", "if", "and", a preposition) never has a cut after it, and
no piece is shorter than three words. A relative clause without its "that" ("the place we
stayed at") is cut like a new sentence: telling the two apart needs a parser, and the piece it
leaves says nothing either way.
"""

from __future__ import annotations

import re

from .text import CJK, CJK_CHAR_RE

# At least this many words, with no punctuation inside, before a stretch counts as a run-on.
RUN_ON_WORDS = 14
# A cut leaves at least this many words on each side.
SHORTEST_PIECE = 3

_PUNCTUATED_RE = re.compile(r"[,;:()\[\]—–]|\s-\s|[.!?](?=\s)")
_WORD_RE = re.compile(r"\S+")

# Words that open a new clause in speech wherever they stand.
_CONNECTIVES = {"so", "also", "but", "cause", "cos", "coz", "plus", "anyway", "anyways"}
_INTERJECTIONS = {"ok", "okay", "oh", "yeah", "yep", "nope", "right", "perfect", "great", "cool"}
# Subjects that start a clause ("we had", "i know", "thats a hard pass").
_SUBJECTS = {
    "i", "we", "they", "he", "she", "its", "it's", "thats", "that's", "theres", "there's",
    "im", "i'm", "we're", "were", "we'd", "i'd", "we've", "i've", "ive", "id", "they're",
    "theyre", "he's", "hes", "she's", "shes", "they've", "weve",
}
_REQUEST_STARTS = {
    ("can", "you"), ("could", "you"), ("would", "you"), ("can", "we"), ("could", "we"),
    ("whats",), ("what's",), ("hows",), ("how's",), ("is", "there"), ("are", "there"),
    ("do", "they"), ("does", "it"), ("lets",), ("let's",),
}
# Words after which no cut is made: what they govern follows them.
_GOVERNS = {
    "that", "which", "who", "if", "when", "where", "what", "how", "why", "whether", "because",
    "as", "than", "until", "before", "after", "since", "unless", "though", "although", "and",
    "or", "nor", "but", "so", "think", "thought", "know", "knew", "guess", "hope", "said",
    "say", "says", "mean", "feel", "felt", "sure", "like", "told", "tell", "tells", "reckon",
    "heard", "read", "realised", "realized", "noticed", "found", "believe", "wish", "bet",
    "me", "us", "him", "her", "them", "to", "of", "for", "with", "in",
    "on", "at", "by", "from", "about", "into", "the", "a", "an", "my", "our", "your", "not",
    "is", "was", "are", "am", "be", "been", "do", "does", "did", "can", "could", "would",
    "will", "should", "must", "just", "even", "also", "really", "very", "too", "then",
    "i", "we", "you", "they", "he", "she", "it",
}
# "so" that grades ("is so big", "not so far") follows a word that governs it; these follow
# "so" in set phrases that are no new clause.
_SO_PHRASES = {"much", "many", "far", "long", "that"}


def _bare(word: str) -> str:
    return word.lower().strip("\"'“”‘’")


# "right" before a place or time is an adverb ("we're not right on the main road", "right
# next to"), no interjection.
_PLACE_AFTER_RIGHT = {
    "on", "by", "next", "in", "at", "there", "here", "now", "away", "off", "outside", "behind",
    "across", "beside", "near", "opposite", "up", "down", "out", "into", "onto", "before",
    "after", "around", "above", "below", "under", "over", "beneath",
}
# Dictation software leaves the spoken full stop as a word ("three nights june 14 to 17 period
# oh and…"); after a determiner it is the noun ("a trial period").
_SPOKEN_STOPS = {"period", "fullstop"}
_DETERMINERS = {"a", "the", "this", "that", "trial", "grace", "notice", "waiting", "cooling"}


def _spoken_stop(words: list[str], i: int) -> bool:
    """Is words[i] a dictated full stop?"""
    return _bare(words[i]).strip(".,") in _SPOKEN_STOPS and (
        i == 0 or _bare(words[i - 1]) not in _DETERMINERS
    )


def _opens_a_clause(words: list[str], i: int) -> bool:
    """True when a new clause may start at words[i]."""
    word = _bare(words[i])
    before = _bare(words[i - 1])
    after = _bare(words[i + 1]) if i + 1 < len(words) else ""
    if _spoken_stop(words, i - 1):
        return True
    if word == "right" and after in _PLACE_AFTER_RIGHT:
        return False
    if word == "and":
        # "…we need a lift and im not a fan of hostels": "and" with a new subject after it.
        return after in _SUBJECTS and before not in _GOVERNS
    if before in _GOVERNS and word not in _INTERJECTIONS:
        return False
    if word == "so":
        return after not in _SO_PHRASES
    if word in _CONNECTIVES or word in _INTERJECTIONS:
        return True
    if (word, after) in _REQUEST_STARTS or (word,) in _REQUEST_STARTS:
        return True
    return word in _SUBJECTS


def is_run_on(sentence: str) -> bool:
    """A long stretch with no punctuation inside, from a writer who does not punctuate: one
    who opens with a capital and closes with a full stop has marked the sentence already."""
    text = sentence.strip()
    body = text.rstrip(".!?")
    punctuates = text[:1].isupper() and body != text
    return (
        not punctuates
        and len(body.split()) >= RUN_ON_WORDS
        and not _PUNCTUATED_RE.search(body)
        and not CJK_CHAR_RE.search(body)
    )


# Chinese typed without punctuation ("欧乐B那个圆头转的我之前用过刷得我牙龈疼了好几天我是不会再碰了
# 然后价格的话最好三百块以内"): a connective opens a clause, and so does 我 / 我们 after a
# character that cannot govern it (给我, 跟我, 让我, 说我 keep theirs).
ZH_RUN_ON_CHARS = 16
_ZH_PUNCTUATED_RE = re.compile(r"[，。！？、；：,.!?;:()（）\s]")
_ZH_CUT_RE = re.compile(
    rf"(?<=[{CJK}])(?=然后|但是|不过|所以|而且|另外|对了|还有就是|因为|(?<![主只还总就])要是|那就|可是)"
    # A limit opens its own clause: "…电话都打不通最多三千吧", "…预算两千" (not 最好/必须, which
    # follow their topic: "酒店最好在地铁站附近").
    r"|(?<=[\u4e00-\u9fff])(?<![的个我在])(?=预算(?!内|之内)|最多(?=[\d一二三四五六七八九十两几百千]))"
    # "…不敢找之前我爸找过一个", "…不太感冒以前单位那辆": a time adverb opening a story, not a
    # postposition ("三点以前", "下班之前", "出发前").
    r"|(?<=[\u4e00-\u9fff])(?<![点号天月年周日时班发门前后])(?=(?:之前|以前|上次|上回)"
    r"(?:我|他|她|单位|公司|家里|同事|朋友))"
    rf"|(?<=[{CJK}A-Za-z0-9])(?<![给跟和对被把让叫说是为向帮替使令与同当请得])(?=我们?[^的们])"
    # "哈弗我不太感冒", "那种师傅我是一个都不敢找": 我 and a negation comment on the topic
    # put before them, which must stay in their clause.
    r"(?!我们?(?:是|也|都|就|真的?|实在|确实|根本|压根|从来|向来|绝对|死活|一[个点滴口次]都)*(?:不|没|别|一律))"
)
# A piece shorter than this stays with the one before it.
ZH_SHORTEST_PIECE = 4


def _zh_pieces(sentence: str) -> list[str]:
    """The cuts, a piece too short to stand ("对了", "哦") joined to the one after it."""
    pieces: list[str] = []
    carried = ""
    for piece in _ZH_CUT_RE.split(sentence):
        piece = carried + piece
        carried = piece if len(piece) < ZH_SHORTEST_PIECE else ""
        if not carried and piece:
            pieces.append(piece)
    if carried:
        pieces = [*pieces[:-1], pieces[-1] + carried] if pieces else [carried]
    return _topics_to_their_verdicts(pieces)


# A piece that is only the speaker's verdict ("我看就算了吧", "我觉得还是免了")…
_ZH_SPEAKERS_VERDICT_RE = re.compile(
    r"^我们?(?:看|觉得|想了想|想想)?(?:还是|就|也|都|直接|先|干脆)*"
    r"(?:算了|免了|拉倒|pass|不要了|不用了|不考虑了?)[吧啊了呀]*$"
)
# …is about the topic the piece before it ends on: "…足够了那个即热的 / 我看就算了吧".
_ZH_TRAILING_TOPIC_RE = re.compile(
    rf"(?:那个|这个|那种|这种)(?:(?!那个|这个|那种|这种)[{CJK}A-Za-z0-9]){{1,8}}$"
)


def _topics_to_their_verdicts(pieces: list[str]) -> list[str]:
    """A topic cut off from the verdict on it goes back to open the verdict's piece."""
    for i in range(1, len(pieces)):
        topic = _ZH_TRAILING_TOPIC_RE.search(pieces[i - 1])
        if topic and topic.start() > 0 and _ZH_SPEAKERS_VERDICT_RE.match(pieces[i]):
            pieces[i - 1], pieces[i] = pieces[i - 1][: topic.start()], topic.group() + pieces[i]
    return pieces


def _is_zh_run_on(sentence: str) -> bool:
    return (
        len(CJK_CHAR_RE.findall(sentence)) >= ZH_RUN_ON_CHARS
        and not _ZH_PUNCTUATED_RE.search(sentence.strip().rstrip("。！？!?."))
    )


def run_on_pieces(sentence: str) -> list[str]:
    """`sentence` cut where speech starts a new clause; itself when it is no run-on."""
    if _is_zh_run_on(sentence):
        return _zh_pieces(sentence)
    if not is_run_on(sentence):
        return [sentence]
    words = _WORD_RE.findall(sentence)
    cuts = [0]
    for i in range(SHORTEST_PIECE, len(words) - SHORTEST_PIECE + 1):
        if i - cuts[-1] >= SHORTEST_PIECE and _opens_a_clause(words, i):
            cuts.append(i)
    bounds = zip(cuts, [*cuts[1:], len(words)], strict=True)
    pieces = [words[start:end] for start, end in bounds]
    return [" ".join(p[:-1] if len(p) > 1 and _spoken_stop(p, len(p) - 1) else p) for p in pieces]
