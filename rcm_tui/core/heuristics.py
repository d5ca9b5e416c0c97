"""The deterministic analysers: what a user message says, and what a reply does.

Everything here is pure, instant and network-free. It always runs, in English and Chinese, and
backs up the LLM analyser and judge when they are disabled or answer badly. The rules are
general grammar — modal verbs, negation scope, clause structure, numeric constraints, choice
statements — not lists of sentences seen in tests, so they carry over to phrasings nobody
wrote down. When a rule is unsure it stays silent: a wrong rejection hides an option from the
model for the rest of the conversation, which costs more than a missed one the LLM analyser or
`/reject` can still add.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field

from .analysis import Analysis, LedgerView, RejectionFinding, RequirementFinding
from .models import DialogState

# ---------------------------------------------------------------------------------------------
# Text primitives: tokens, similarity
# ---------------------------------------------------------------------------------------------

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_CHAR_RE = re.compile(f"[{_CJK}]")
# Tokens with their offsets: numbers (with thousands separators), latin words, single CJK chars.
_TOKEN_RE = re.compile(rf"\d+(?:[.,]\d+)*|[A-Za-z][A-Za-z0-9]*|[{_CJK}]")


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15",
    "twenty": "20", "thirty": "30", "fifty": "50", "hundred": "100", "thousand": "1000",
}  # fmt: skip

# Function words and conversational filler: they make two phrasings of one requirement look
# different ("we must keep X" / "keep X, please") without changing what is required.
_STOPWORDS = _word_set(
    """a an the and or but if then so of to in on at by for with from as into onto is are was
    were be been being it its this that these those we our ours us you your i me my they them
    their he she his her do does did doing have has had having will would should shall must
    need needs needed can could may might also please just too very really all any some there
    here what which who whom how when where why let s t re ll ve d m use using used want wants
    like around about approximately roughly ok okay yes yeah actually now still even only
    again one more thing well sure maybe perhaps get got make sure ensure always anything
    something everything each every"""
)

_CJK_STOP_CHARS = frozenset("的了是我们你他她它在也都就吧呢吗啊和与及或")


def _singular(token: str) -> str:
    """A crude singular that is applied to both sides of every comparison, so its mistakes
    cancel out ("redis" keeps its s; "microservices" and "microservice" meet)."""
    if len(token) <= 3 or not token.isascii() or not token.isalpha():
        return token
    if token.endswith("ies") and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith("s") and not token.endswith(("ss", "us", "is", "os")):
        return token[:-1]
    return token


def _norm_token(raw: str) -> str:
    token = raw.lower()
    if token[0].isdigit():
        return token.replace(",", "")
    return _NUMBER_WORDS.get(token, _singular(token))


def _tokens(text: str) -> list[str]:
    return [_norm_token(m.group()) for m in _TOKEN_RE.finditer(text)]


def _content_tokens(text: str) -> set[str]:
    """Latin content words (no stopwords) plus CJK character bigrams."""
    out: set[str] = set()
    cjk_run: list[str] = []

    def flush() -> None:
        chars = [c for c in cjk_run if c not in _CJK_STOP_CHARS]
        if len(chars) == 1:
            out.add(chars[0])
        out.update(a + b for a, b in itertools.pairwise(chars))
        cjk_run.clear()

    for match in _TOKEN_RE.finditer(text):
        raw = match.group()
        if _CJK_CHAR_RE.fullmatch(raw):
            cjk_run.append(raw)
            continue
        flush()
        token = _norm_token(raw)
        if token not in _STOPWORDS:
            out.add(token)
    flush()
    return out


def _squash(text: str) -> str:
    return " ".join(text.lower().split())


def text_similarity(a: str, b: str) -> float:
    """Dice overlap of content tokens, 0–1 (CJK compared by character bigrams)."""
    ta, tb = _content_tokens(a), _content_tokens(b)
    if not ta or not tb:
        return 1.0 if _squash(a) and _squash(a) == _squash(b) else 0.0
    return _dice(ta, tb)


def _numbers(tokens: set[str]) -> set[str]:
    return {t for t in tokens if t[0].isdigit()}


def restates(text: str, existing: str) -> bool:
    """True when `text` says again what `existing` already says (adds at most one minor word).

    A changed number is never a restatement: "30 minutes" → "60 minutes" is an update.
    """
    new, old = _content_tokens(text), _content_tokens(existing)
    if not new or not old:
        return False
    if _numbers(new) - _numbers(old):
        return False
    if text_similarity(text, existing) >= 0.75:
        return True
    return len(new & old) >= 2 and len(new - old) <= 1


def _dice(a: set[str], b: set[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def requirement_similarity(a: str, b: str) -> float:
    """How likely two texts state the same requirement, 0–1.

    Like `text_similarity`, plus: a text whose content words all appear in the other (two or
    more of them) scores at least 0.6; and when the two carry different numbers, the rest must
    match closely — "30 minutes" → "60 minutes" is the same rule changed, but "files over
    20 MB" / "images over 5 MB" are two rules.
    """
    ta, tb = _content_tokens(a), _content_tokens(b)
    if not ta or not tb:
        return text_similarity(a, b)
    na, nb = _numbers(ta), _numbers(tb)
    if na and nb and na != nb:
        rest = _dice(ta - na, tb - nb)
        return rest if rest >= 0.8 else min(rest, 0.5)
    score = _dice(ta, tb)
    small, large = sorted((ta, tb), key=len)
    if len(small) >= 2 and small <= large:
        score = max(score, 0.6)
    return score


def more_specific(new: str, old: str) -> bool:
    """Does `new` say more than `old` (more content words, or a number `old` lacks)?"""
    new_tokens, old_tokens = _content_tokens(new), _content_tokens(old)
    if _numbers(new_tokens) - _numbers(old_tokens):
        return True
    return bool(new_tokens - old_tokens) and len(new_tokens) > len(old_tokens)


def _overlap_of(part: set[str], whole: set[str]) -> float:
    return len(part & whole) / len(part) if part else 0.0


# ---------------------------------------------------------------------------------------------
# Options: normalisation and alias-aware matching
# ---------------------------------------------------------------------------------------------

# Well-known short forms. Anything not listed still matches across case, plural, hyphens and
# spacing ("python-magic" / "python magic" / "pythonmagic", "micro-services").
_ALIAS_GROUPS: tuple[tuple[str, ...], ...] = (
    ("postgresql", "postgres", "postgre", "psql"),
    ("mongodb", "mongo"),
    ("kubernetes", "k8s", "kube"),
    ("elasticsearch", "elastic search"),
    ("rabbitmq", "rabbit mq"),
    ("javascript", "js"),
    ("microsoft sql server", "sql server", "mssql"),
    ("dynamodb", "dynamo db"),
    ("microservice", "微服务"),
)

_LEADING_NOISE_RE = re.compile(
    r"^(?:the|a|an|any|our|your|their|this|that|these|those|some|using|use\s+of|plain|whole|"
    r"separate|another|such|other)\s+",
    re.I,
)
_TRAILING_NOISE_RE = re.compile(
    r"\s*(?:\b(?:library|libraries|lib|package|packages|approach|option|options|idea|route|"
    r"solution|thing|things|stuff|architecture|framework|altogether|at\s+all|any\s*more|again|"
    r"please|for\s+now|here|there|entirely|completely|whatsoever|either|too|as\s+well|"
    r"for\s+this|for\s+us)|[了吧呢啊嘛]|方案|架构|这个方案)\s*$",
    re.I,
)
_EDGE_PUNCT = " \t\"'`“”‘’()[]{}<>*_.,;:!?—–-，。！？；：、"


def _strip_option_noise(option: str) -> str:
    phrase = option.strip(_EDGE_PUNCT)
    for _ in range(4):
        shorter = _LEADING_NOISE_RE.sub("", phrase)
        shorter = _TRAILING_NOISE_RE.sub("", shorter).strip(_EDGE_PUNCT)
        if not shorter or shorter == phrase:
            break
        phrase = shorter
    return phrase


def _key(tokens: list[str]) -> str:
    return "".join(tokens)


def _build_alias_index() -> dict[str, tuple[list[str], ...]]:
    index: dict[str, tuple[list[str], ...]] = {}
    for group in _ALIAS_GROUPS:
        variants = tuple(_tokens(name) for name in group)
        for tokens in variants:
            index[_key(tokens)] = variants
    return index


_ALIAS_INDEX = _build_alias_index()


def _join(tokens: list[str]) -> str:
    """Tokens back to a phrase: latin words spaced, CJK characters run together."""
    out = ""
    for token in tokens:
        if out and not (_CJK_CHAR_RE.match(token) or _CJK_CHAR_RE.match(out[-1])):
            out += " "
        out += token
    return out


def normalise_option(option: str) -> str:
    """A comparable key: lower case, singular, no articles or generic heads, canonical alias.

    "the python-magic library" → "python magic"; "Mongo" → "mongodb"; "Microservices" →
    "microservice". Two options are the same option when their keys are equal.
    """
    tokens = _tokens(_strip_option_noise(option))
    variants = _ALIAS_INDEX.get(_key(tokens))
    if variants:
        tokens = variants[0]
    return _join(tokens)


def _option_variants(option: str) -> list[list[str]]:
    tokens = _tokens(_strip_option_noise(option))
    if not tokens:
        return []
    variants = list(_ALIAS_INDEX.get(_key(tokens), ()))
    if tokens not in variants:
        variants.append(tokens)
    # "CouchDB" is often just "Couch": a product name ending in "db" is known by its stem.
    last = tokens[-1]
    if last.endswith("db") and len(last) >= 7:
        variants.append([*tokens[:-1], last[:-2]])
    return variants


@dataclass
class _Token:
    text: str
    start: int
    end: int


@functools.lru_cache(maxsize=512)
def _token_spans(text: str) -> tuple[_Token, ...]:
    # Cached: matching many candidate names against one reply tokenises each sentence once.
    return tuple(
        _Token(_norm_token(m.group()), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)
    )


def _option_spans(option: str, text: str) -> list[tuple[int, int]]:
    """Character spans where the option (or an alias) occurs in text as whole tokens.

    Tokens are compared concatenated, so a different split into words still matches
    ("micro services" / "microservices", "python magic" / "python-magic").
    """
    bare = _strip_option_noise(option)
    if len(_tokens(bare)) == 1 and len(bare) <= 2 and any(c.isupper() for c in bare):
        # "Go", "R", "C": as common words they would match everywhere; require the exact case.
        pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(bare)}(?![A-Za-z0-9])")
        return [m.span() for m in pattern.finditer(text)]
    hay = _token_spans(text)
    spans: list[tuple[int, int]] = []
    for variant in _option_variants(option):
        target = _key(variant)
        for i in range(len(hay)):
            acc = ""
            for j in range(i, len(hay)):
                acc += hay[j].text
                if acc == target:
                    spans.append((hay[i].start, hay[j].end))
                    break
                if not target.startswith(acc):
                    break
    return sorted(set(spans))


def option_matches(option: str, text: str) -> bool:
    """Does `text` mention `option` (case, plural, hyphen/space and short forms tolerated)?"""
    return bool(_option_spans(option, text))


def same_option(a: str, b: str) -> bool:
    """Two rejected-option names that denote the same thing ("Redis" / "the Redis store")."""
    ka, kb = normalise_option(a), normalise_option(b)
    if not ka or not kb:
        return False
    if ka.replace(" ", "") == kb.replace(" ", ""):
        return True
    short, long_ = (a, b) if len(ka) <= len(kb) else (b, a)
    extra = len(_tokens(_strip_option_noise(long_))) - len(_tokens(_strip_option_noise(short)))
    return extra <= 1 and option_matches(short, long_)


# ---------------------------------------------------------------------------------------------
# Sentences and clauses
# ---------------------------------------------------------------------------------------------

# Fenced code: whole blocks, and their bodies (for size and for what the code uses).
_FENCED_CODE_RE = re.compile(r"```.*?(?:```|\Z)", re.S)
_CODE_BLOCK_RE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.S)
_CODE_COMMENT_RE = re.compile(r"(?:#|//|--).*$|/\*.*?\*/|<!--.*?-->")
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[!?])\s+|(?<=\.)\s+(?=[A-Z0-9\"'“(\[])|(?<=[。！？])|\n+")
# Clause boundaries that never fall inside a noun phrase.
_CLAUSE_SPLIT_RE = re.compile(r"\s*(?:;|；|\s[—–]\s|[—–]|\s-\s|:\s|：)\s*")
_QUESTION_START_RE = re.compile(
    r"^(?:what|how|why|where|when|which|who|whom|whose|is|are|was|were|do|does|did|can|could|"
    r"would|will|should|shall|may|might|have|has|isn't|aren't|don't|doesn't|won't|wouldn't|"
    r"shouldn't|any\s+(?:idea|thoughts))\b",
    re.I,
)
_ZH_QUESTION_RE = re.compile(
    r"[吗呢么]\s*$|^(?:怎么|如何|什么|哪|为什么|为何|是否|能不能|可不可以|要不要)"
)


@dataclass
class _Sentence:
    text: str
    index: int
    question: bool
    clauses: list[str] = field(default_factory=list)
    bullet: bool = False


_LIST_HEADER_RE = re.compile(
    r"\b(?:requirements?|constraints?|must[- ]haves?|needs|specs?|specification|criteria|rules|"
    r"non[- ]negotiables?|acceptance)\b|要求|需求|约束|条件",
    re.I,
)
_BULLET_RE = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)])\s+")
_LABEL_RE = re.compile(r"^(?P<label>[A-Za-z][\w /&-]{0,30}?)\s*:\s+(?P<rest>\S.*)$")
_NOT_A_LABEL_RE = re.compile(
    r"^(?:note|fyi|ps|update|context|background|question|q|summary|again|also|and|so|then|"
    r"however|anyway|plus|ok|okay|yes|no|well|first|second|third|finally|lastly|btw|"
    r"important|reminder|remember|correction|edit|actually|to\s+be\s+clear)$",
    re.I,
)


def _split_lines(text: str) -> list[tuple[str, bool]]:
    """(sentence, is a list item) for every sentence, list markers removed."""
    out: list[tuple[str, bool]] = []
    for line in text.splitlines():
        body = _BULLET_RE.sub("", line)
        bullet = body != line
        for sentence in _SENTENCE_SPLIT_RE.split(body):
            if sentence and sentence.strip():
                out.append((sentence.strip(), bullet))
    return out


def _split_sentences(text: str) -> list[str]:
    return [s for s, _ in _split_lines(text)]


def _is_label(label: str) -> bool:
    """'Budget' in 'Budget: under $200' — a noun naming what the value constrains."""
    words = label.split()
    if not 1 <= len(words) <= 3 or _NOT_A_LABEL_RE.match(label) or not _strip_discourse(label):
        return False
    verbish = (_SYSTEM_VERB_RE, _OUTPUT_VERB_RE, _BUILD_VERB_RE, _IMPERATIVE_REJECT_RE)
    return not any(p.match(label) for p in verbish) and not _NEGATIVE_START_RE.match(label)


def _split_clauses(sentence: str) -> list[str]:
    label = _LABEL_RE.match(sentence)
    if label and _is_label(label.group("label")):
        head, *rest = _split_clauses(label.group("rest"))
        return [f"{label.group('label')}: {head}", *rest]
    clauses = _CLAUSE_SPLIT_RE.split(sentence)
    if _CJK_CHAR_RE.search(sentence):
        # Chinese chains clauses with full-width commas where English would start a new one.
        clauses = [part for clause in clauses for part in clause.split("，")]
    return [c.strip(" ,，") for c in clauses if c.strip(" ,，.。")] or [sentence]


def _is_question(sentence: str) -> bool:
    body = sentence.strip()
    if body.endswith(("?", "？")):
        return True
    core = _strip_discourse(body.rstrip(".!。！"))
    if _QUESTION_START_RE.match(core) and not _DONT_START_RE.match(core):
        return True
    return bool(_CJK_CHAR_RE.search(core) and _ZH_QUESTION_RE.search(core))


def _sentences(text: str) -> list[_Sentence]:
    return [
        _Sentence(s, i, _is_question(s), _split_clauses(s), bullet)
        for i, (s, bullet) in enumerate(_split_lines(text))
    ]


_DONT_START_RE = re.compile(r"^(?:do\s+not|don't)\b", re.I)
_NEGATIVE_START_RE = re.compile(r"^(?:no|not|don't|do)\b", re.I)
_TRAILING_PLEASE_RE = re.compile(r"[\s,]+please$", re.I)
_ZH_PARTICLES_RE = re.compile(r"[吧了啊呢]+$")
_COMMA_RE = re.compile(r"[,，]")

# Discourse markers that open a clause without carrying content.
_DISCOURSE_RE = re.compile(
    r"^(?:(?:actually|ok(?:ay)?|so|well|also|and|but|now|then|oh|right|alright|all\s+right|"
    r"yes|yeah|yep|sure|hmm+|great|cool|fine|good|perfect|thanks|thank\s+you|"
    r"one\s+more\s+thing|another\s+thing|by\s+the\s+way|btw|plus|additionally|finally|lastly|"
    r"anyway|in\s+addition|on\s+top\s+of\s+that|remember|note\s+that|"
    r"keep\s+in\s+mind(?:\s+that)?|however|besides|please|kindly|understood|got\s+it|because)"
    r"\b[,，:：!]?\s*"
    # CJK characters are word characters too, so these need no (and allow no) \b.
    r"|(?:另外|还有|然后|那么|好的|嗯|对了|其实|所以|但是|不过|因为|由于|请(?!求))[,，:：!]?\s*)+",
    re.I,
)


def _strip_discourse(clause: str) -> str:
    return _DISCOURSE_RE.sub("", clause.strip()).strip(" ,，")


def _tidy(text: str, limit: int = 160) -> str:
    """A ledger-ready clause: trimmed, no trailing punctuation or 'please', first letter up."""
    body = " ".join(text.split()).strip(" ,;:—–-，。；：")
    body = _TRAILING_PLEASE_RE.sub("", body).rstrip(".!。！ ")
    if len(body) > limit:
        body = body[:limit].rsplit(" ", 1)[0] + "…"
    return body[:1].upper() + body[1:] if body else ""


# ---------------------------------------------------------------------------------------------
# Rejections
# ---------------------------------------------------------------------------------------------

# Phrases that cannot be an option: quantities, pronouns, and the heads of idioms that look like
# rejections ("no problem with X", "no need to", "don't worry", "不用担心").
_BAD_OPTION_STARTS = _word_set(
    """anything something everything nothing more less fewer any all too much many that this
    it them those these me us you yourself myself worry worrying forget problem problems need
    idea matter doubt way rush hurry longer later further sure mind offense offence pressure
    clue issue issues big deal harm reason thanks thank worries to be well good great fine
    yet really quite only just so very one how what why when where whether if"""
)
_ZH_BAD_OPTION_START_RE = re.compile(
    r"^(?:担心|着急|急|说|谢|客气|管|怕|忘|超过|多于|少于|低于|高于|大于|小于|太|让|把|在|给|"
    r"再|还|只|都|这|那|它|一直|总是|每|被|对|跟|和|从|了)"
)
# Where the option phrase ends: a preposition, conjunction or pronoun after the name.
_OPTION_CUT_START_RE = re.compile(
    r"\s+(?:because|since|as|so|for|in|on|at|to|from|with|under|over|inside|within|across|"
    r"during|via|which|that|who|when|if|unless|until|anymore|any\s+more|at\s+all|please|here|"
    r"there|either|though|now|again|yet|ever|but|we|it|they|you|i)\b",
    re.I,
)
# "Ruby on Rails", "Infrastructure as Code", "Bank of America": capitalised words joined by a
# lowercase connector are one name, so the connector is no cut there. A connector followed by
# a lowercase word ("Kafka as a queue", "Redis on the hot path") still ends the name.
_CONNECTED_NAME_RE = re.compile(r"\b[A-Z][\w.+#'-]*(?:\s+(?:on|of|as|for|de)\s+[A-Z][\w.+#'-]*)+")


def _cut_option(raw: str) -> str:
    """The option phrase up to where a preposition/conjunction starts the rest of the clause."""
    protected = [m.span() for m in _CONNECTED_NAME_RE.finditer(raw)]
    for cut in _OPTION_CUT_START_RE.finditer(raw):
        if not any(start < cut.start() < end for start, end in protected):
            return raw[: cut.start()]
    return raw


_LIST_SPLIT_RE = re.compile(r"\s*(?:,|\bor\b|\band\b|\bnor\b|/|、|或者|或|和)\s*", re.I)
# Words that open an item of a rejected list without naming it: "no X and no Y",
# "both X and Y", "neither X nor Y", "don't use either X or Y".
_LIST_ITEM_LEAD_RE = re.compile(r"^(?:(?:no|not|nor|neither|both|either)\s+)+", re.I)
# Before a repeated rejection cue inside one clause: ", no Y", " and no Y", ", forget Y",
# ", not Y", ", don't use Y". Kept apart from the list split above so that a comma before a
# statement ("Drop X, we can use cron") still reads as the reason.
_REJECTION_CHAIN_SPLIT_RE = re.compile(
    r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or|but)\s+)(?=(?:also\s+)?(?:no|not|nor|never|"
    r"forget|drop|ditch|scrap|avoid|rule\s+out|don'?t|do\s+not|won'?t|let'?s\s+not)\b)",
    re.I,
)


def _clean_options(raw: str, *, allow_gerund: bool = True) -> list[str]:
    """Option names from the phrase after a rejection cue, or [] when it is no option."""
    phrase = _cut_option(raw.strip())
    options: list[str] = []
    for part in _LIST_SPLIT_RE.split(phrase):
        option = _strip_option_noise(_LIST_ITEM_LEAD_RE.sub("", part.strip()))
        words = option.split()
        if not option or len(words) > 4:
            continue
        first = words[0].lower()
        if first in _BAD_OPTION_STARTS or first[0].isdigit():
            continue
        if _ZH_BAD_OPTION_START_RE.match(option):
            continue
        if not allow_gerund and first.endswith("ing") and len(words) > 1:
            continue
        if _ASPECT_SUFFIX_RE.search(option):
            continue  # "not AWS-specific" qualifies something else, it rejects no option
        options.append(option)
    return options


_INDEFINITE_RE = re.compile(r"^\s*(?:a|an|any)\s", re.I)
_UPPER_OR_DIGIT_RE = re.compile("[A-Z0-9]")
_NAME_MARK_RE = re.compile(r"[A-Z0-9]|[-.+#]\w")
_NOTHING_BEFORE_RE = re.compile(r"\bnothing\s*$", re.I)
_CHOOSING_VERB_RE = re.compile(
    r"\b(?:use|go\s+with|pick|choose|prefer|switch|store|keep|run)\b", re.I
)
_ZH_NOT_NEGATION_RE = re.compile(r"(?:不仅|并不|不一定)$")
_SO_SPLIT_RE = re.compile(r",?\s+so\s+(?!that\b)", re.I)


def _looks_generic(raw: str, option: str) -> bool:
    """'a document store' names a category; 'MongoDB' names a product."""
    return bool(_INDEFINITE_RE.match(raw)) and not _UPPER_OR_DIGIT_RE.search(option)


def _looks_like_name(option: str) -> bool:
    return bool(_NAME_MARK_RE.search(option)) or bool(_CJK_CHAR_RE.search(option))


_OPT = r"(?P<opt>(?:[^,.;:!?()—–\n]|\.(?=\S))+)"
_NEGATOR = (
    r"(?:do\s+not|don'?t|does\s+not|doesn'?t|did\s+not|didn'?t|won'?t|will\s+not|"
    r"shouldn'?t|should\s+not|must\s+not|mustn'?t|can'?t|cannot|can\s+not|never|not|"
    r"no\s+longer|aren'?t|isn'?t|stop)"
)
_CHOICE_VERB = (
    r"(?:use|using|go\s+with|going\s+with|choose|choosing|pick|picking|adopt|adopting|do|"
    r"doing|rely\s+on|relying\s+on|depend\s+on|depending\s+on|build\s+on|building\s+on|"
    r"want|consider|considering|bother\s+with|switch\s+to|switching\s+to|move\s+to|"
    r"moving\s+to|migrate\s+to|suggest|propose|recommend|bring\s+up|mention|"
    r"(?P<weak>introduce|introducing|bring\s+in|pull\s+in|pulling\s+in|touch|add|adding))"
)
# "you don't need to use Docker" says it is optional, not that it is rejected.
_NEGATED_CHOICE_RE = re.compile(
    rf"\b(?P<neg>{_NEGATOR})\s+(?:be\s+)?(?P<intent>(?:going\s+to|gonna|want\s+to|"
    rf"plan(?:ning)?\s+to)\s+)?(?P<verb>{_CHOICE_VERB})\s+{_OPT}",
    re.I,
)
# A negation that describes rather than decides: "it doesn't use Redis", "if we don't use X".
_DESCRIPTIVE_NEGATOR_RE = re.compile(r"^(?:does|doesn'?t|did|didn'?t|isn'?t|wasn'?t)", re.I)
_THIRD_PERSON_BEFORE_RE = re.compile(
    r"\b(?:it|he|she|they|this|that|which|who|app|code|library|service|function|script|"
    r"system|version|module|tool|package|project|repo|setup)\s*$",
    re.I,
)
# "We don't use Windows servers" reports how things are (a fact), while "we don't want to use",
# "we won't use", "let's not use" decide. Only the plain present of a first-person subject with
# a verb of using is read as a report. "We don't use X anymore" stays a rejection: it states a
# decision to stop that still holds, and proposing X again would go against it.
_HABIT_SUBJECT_BEFORE_RE = re.compile(
    r"(?:^|\b)(?:we|i|our\s+[\w-]+|the\s+team)\s+(?:\w+ly\s+)?$", re.I
)
_HABIT_NEGATOR_RE = re.compile(r"^(?:do\s+not|don'?t)$", re.I)
_HABIT_VERB_RE = re.compile(r"^(?:use|rely\s+on|depend\s+on|build\s+on)$", re.I)
_STOPPED_RE = re.compile(r"\b(?:any\s*more|no\s+longer|again)\b", re.I)
_CONDITION_BEFORE_RE = re.compile(r"\b(?:if|unless|whether|in\s+case|what\s+if|even\s+if)\b", re.I)
# "Definitely not Kafka." / "Go with Postgres, not Mongo."
_BARE_NOT_RE = re.compile(
    r"(?:^(?:(?:definitely|certainly|absolutely|surely|just|nah|nope|no)[,\s]+)?|,\s*|\bbut\s+)"
    r"not\s+(?P<opt>[^,.;:!?()—–\n]+?)\s*[.!]?$",
    re.I,
)
# "Neither Kafka nor RabbitMQ." / "We want neither X nor Y": only standalone or after a verb
# of choosing — "neither X nor Y is installed" describes, it decides nothing.
_NEITHER_RE = re.compile(
    r"^(?:(?:we|i)\s+(?:want|need|(?:will|'ll)\s+(?:use|pick|take))\s+|(?:let'?s\s+)?"
    r"(?:use|pick|choose|take)\s+)?neither\s+(?P<opt>[^,.;:!?()—–\n]+?\s+nor\s+"
    r"[^,.;:!?()—–\n]+?)\s*(?=,|\.|!|;|$|—|–|\s+please\b|\s+either\b|\s+for\s+(?:now|us|this)\b)",
    re.I,
)
_KEEP_OUT_RE = re.compile(rf"^keep\s+{_OPT}\s+out\b", re.I)
_ASPECT_SUFFIX_RE = re.compile(
    r"-(?:specific|only|based|dependent|compatible|bound|related|friendly|aware|like|style)$", re.I
)
# Imperatives that discard something; only at the start of a clause, so "don't forget X" and
# "we use blue-green deploys to avoid downtime" are not rejections.
_IMPERATIVE_REJECT_RE = re.compile(
    r"^(?:(?:let'?s|let\s+us|we(?:'ll|\s+will|\s+should|\s+can|\s+must)?|just|i'd\s+say)\s+)?"
    rf"(?P<verb>forget(?:\s+about)?|drop|ditch|scrap|abandon|avoid|rule\s+out)\s+{_OPT}",
    re.I,
)
_CONTRAST_REJECT_RE = re.compile(rf"\b(?:instead\s+of|rather\s+than)\s+{_OPT}", re.I)
_STANCE_REJECT_RE = re.compile(
    r"\b(?:ruled\s+out|(?:decided|decide|deciding|voted?)\s+against|(?:we're|we\s+are|i'm|"
    rf"i\s+am)\s+against|say\s+no\s+to|steer\s+clear\s+of|stay\s+away\s+from|get\s+rid\s+of)\s+{_OPT}",
    re.I,
)
_NO_OPTION_RE = re.compile(
    r"^no\s+(?P<opt>[^,.;:!?()—–\n]+?)\s*(?=,|\.|!|;|$|—|–|\s-\s|\s+please\b|\s+at\s+all\b|"
    r"\s+for\s+(?:now|us|this)\b|\s+here\b|\s+anymore\b|\s+whatsoever\b)",
    re.I,
)
_STATE_REJECT_RE = re.compile(
    r"^(?P<subj>.+?)\s+(?:is|are|was|were|'s|has\s+been|have\s+been)\s+(?:now\s+|definitely\s+|"
    r"simply\s+|just\s+|also\s+|clearly\s+|totally\s+|completely\s+)?(?:off\s+the\s+table|"
    r"out\s+of\s+the\s+question|ruled\s+out|a\s+no[- ]?go|not\s+an?\s+option|"
    r"no\s+longer\s+an?\s+option|not\s+(?:acceptable|allowed|permitted|viable)|"
    r"a\s+non[- ]starter|a\s+deal[- ]?breaker|banned|forbidden|overkill)\b",
    re.I,
)
_RELEASE_WORDS_RE = re.compile(
    r"\b(?:of|version|release|update|beta|results?|news|issue|episode|edition|patch|report)\b",
    re.I,
)
_IS_OUT_RE = re.compile(r"^(?P<subj>.+?)\s+(?:is|are|'s)\s+(?:now\s+)?out\s*[.!]?$", re.I)
_WONT_WORK_RE = re.compile(
    r"^(?P<subj>.+?)\s+(?:won'?t|will\s+not|doesn'?t|does\s+not|isn'?t\s+going\s+to|"
    r"is\s+not\s+going\s+to)\s+(?:work|fly|cut\s+it)\b",
    re.I,
)
_SUBJECT_LEAD_RE = re.compile(
    r"^(?:(?:so|and|but|then|also|actually|ok(?:ay)?|well|honestly|frankly|now|because|since|"
    r"as|i\s+think|we\s+think|i\s+guess|i\s+believe|i\s+feel|clearly|that\s+means|which\s+means)"
    r"\b[,\s]*)+",
    re.I,
)
# A latin name is ASCII (\w would run on into the Chinese after it: "不用Redis也不用X"), with
# at most a short Chinese head noun after it ("Redis集群"), taken only when nothing ends the
# name sooner.
_ZH_LATIN = r"[A-Za-z0-9][A-Za-z0-9_.+#/-]*"
_ZH_OPT = (
    rf"(?P<opt>{_ZH_LATIN}(?:\s{_ZH_LATIN}){{0,2}}(?:\s*[和、或与及]\s*{_ZH_LATIN})*"
    rf"[{_CJK}]{{0,4}}?|[{_CJK}]{{1,10}}?)"
)
_ZH_OPT_END = r"(?=[了吧呢啊嘛，,。.！!？?；;、：:\s也又还都就]|因为|由于|所以|太|$)"
_ZH_PREFIX_REJECT_RE = re.compile(
    r"(?:不要再?|别再?|不再|不用|不使用|不采用|不考虑|放弃|排除|去掉|弃用|不选)"
    rf"(?:用|使用|采用|选用?|考虑)?\s*{_ZH_OPT}{_ZH_OPT_END}"
)
_ZH_SUFFIX_REJECT_RE = re.compile(
    rf"(?P<opt>{_ZH_LATIN}(?:\s*[和、或与及]\s*{_ZH_LATIN})*[{_CJK}]{{0,4}}?|[{_CJK}]{{2,10}})\s*"
    r"(?:不行|不合适|不可行|不考虑了?|就算了|被排除了?|出局了?|免谈|没戏"
    # "X和Y都不要" / "X也不用了": 不要/不用 after the name, ending the clause.
    r"|(?:都|也)?不(?:要|用)了?(?=[，,。.！!；;]|$))"
)
_ZH_SUBJECT_LEAD_RE = re.compile(
    r"^(?:我们?|我觉得|我认为|我们觉得|感觉|其实|那么?|所以|但是|可是|用|使用)+"
)

# Words between a rejected option and its reason ("the X library, we can't ...").
_REST_NOISE_RE = re.compile(
    r"^(?:\s*(?:library|libraries|lib|package|packages|approach|option|idea|route|solution|"
    r"architecture|framework|stuff|thing|altogether|at\s+all|any\s*more|please|entirely|"
    r"completely|whatsoever|either|for\s+now|here|there|too|as\s+well)\b)+",
    re.I,
)
# What follows a rejected option and says why ("..., we can't install libmagic").
_REASON_LEAD_RE = re.compile(
    r"^[\s,，]*(?:please[\s,]*)?(?:(?:because(?:\s+of)?|since|as|due\s+to|given\s+that|given|so|"
    r"'cause|cause)\b|(?=(?:we|we're|we've|our|it|it's|its|they|there's|that's|this|the\s+team|"
    r"nobody|no\s+one)\b))",
    re.I,
)
_COMMA_CLAUSE_RE = re.compile(
    # A leading "because"/"since" is left to _REASON_LEAD_RE, which drops the conjunction.
    r"^\s*,\s*(?:please[\s,]*)?(?!(?:and|or|but|then|also|please|use|go|keep|switch|"
    r"instead|rather|because|since|as|due|given|'cause|cause)\b)(?P<body>\S+(?:\s+\S+){2,})$",
    re.I,
)
_FINITE_VERB_RE = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|would|could|should|need|needs|lacks?|costs?|"
    r"kills?|breaks?|takes?|makes?|requires?|adds?|hurts?|knows?|wants?)\b|n't\b",
    re.I,
)
_ZH_REASON_LEAD_RE = re.compile(r"^[\s,，]*(?:因为|由于|因|毕竟)?")
# A clause that names what to do instead is an alternative, not a reason.
_ALTERNATIVE_RE = re.compile(
    r"\b(?:instead|the\s+way\s+to\s+go|it\s+is\s*$|go\s+with|let'?s\s+use|prefer|rather|"
    r"switch\s+to|stick\s+(?:with|to)|keep\s+(?:it|them|everything)\s+in|use\s+[A-Z]|"
    r"will\s+(?:use|go|run|stay|talk|communicate|rely|stick|build|be)\b(?!\s+(?:too|very|hard|"
    r"slow|expensive|costly|painful|difficult|overkill|a\s+pain|a\s+nightmare|impossible)))\b"
    r"|\b(?:good|fine)\s+enough\b|\bwill\s+do\b|\bdoes\s+the\s+job\b"
    r"|^(?:use|keep|go|stick|switch|store|put|move)\b|改用|换成|就用|而是|还是用|^用",
    re.I,
)


@dataclass
class _RejectionHit:
    option: str
    reason: str
    sentence: int
    clause: int
    generic: bool
    # In "A, so B is off the table", A: a statement of its own that may hold requirements.
    cause: str = ""
    # The reason was said inside the rejecting clause ("no X because we need Y"): it is mined
    # for strongly worded requirements, since the clause itself is not.
    inline_reason: bool = False


def _reason_after(rest: str, zh: bool) -> str:
    """The stated cause right after the rejected option, or ''."""
    clause = _COMMA_CLAUSE_RE.match(rest)
    if not zh and clause and _FINITE_VERB_RE.search(clause.group("body")):
        # "forget X, the frontend team won't touch it": a comma and a full clause explain.
        body = clause.group("body")
        if not _ALTERNATIVE_RE.search(body):
            return _tidy(body, 200)
    lead = (_ZH_REASON_LEAD_RE if zh else _REASON_LEAD_RE).match(rest)
    if not lead:
        return ""
    reason = rest[lead.end() :].strip(" ,，.。")
    if not reason or (_ALTERNATIVE_RE.search(reason) and not lead.group().strip(" ,，")):
        return ""
    if zh and not lead.group().strip(" ,，") and not rest.lstrip().startswith(("，", ",")):
        return ""
    return _tidy(reason, 200)


def _english_clause_rejections(clause: str) -> list[tuple[str, str, bool]]:
    """(option, text after it, generic) for each option the clause rejects.

    A clause may chain several rejections ("No Redis, no Memcached, because they are
    stateful"; "Forget X, forget Y too"; "No X and no Y"). It is cut before every repeated
    rejection cue and each piece is read on its own — but only when at least two pieces
    reject something, so "Go with Postgres, not Mongo" or "If we use X, no Y" are read whole.
    A piece without a reason of its own shares the reason that ends the chain.
    """
    core = _strip_discourse(clause)
    pieces = [p for p in _REJECTION_CHAIN_SPLIT_RE.split(core) if p.strip()]
    if len(pieces) >= 2:
        per_piece = [_single_clause_rejections(p) for p in pieces]
        if sum(1 for found in per_piece if found) >= 2:
            shared = next((f[-1][1] for f in reversed(per_piece) if f), "")
            return [
                (option, rest if _reason_after(rest, zh=False) else shared, generic)
                for found in per_piece
                for option, rest, generic in found
            ]
    return _single_clause_rejections(core)


def _single_clause_rejections(core: str) -> list[tuple[str, str, bool]]:
    found: list[tuple[str, str, bool]] = []

    def add(raw: str, rest: str, *, allow_gerund: bool = True, need_name: bool = False) -> None:
        for option in _clean_options(raw, allow_gerund=allow_gerund):
            if need_name and not _looks_like_name(option):
                continue
            at = raw.find(option)
            after = raw[at + len(option) :] + rest if at >= 0 else rest
            found.append((option, _REST_NOISE_RE.sub("", after), _looks_generic(raw, option)))

    for m in _NEGATED_CHOICE_RE.finditer(core):
        before = core[: m.start()]
        if (
            _NOTHING_BEFORE_RE.search(before)
            or _DESCRIPTIVE_NEGATOR_RE.match(m.group("neg"))
            or _THIRD_PERSON_BEFORE_RE.search(before)
            or _CONDITION_BEFORE_RE.search(before)
        ):
            continue
        if (
            _HABIT_NEGATOR_RE.match(m.group("neg"))
            and not m.group("intent")
            and _HABIT_VERB_RE.match(" ".join(m.group("verb").split()))
            and _HABIT_SUBJECT_BEFORE_RE.search(before)
            and not _STOPPED_RE.search(core[m.start() :])
        ):
            continue  # a report of the current setup: kept as a fact, see _FACT_RE
        # "don't add comments" is a style rule; "don't add Redis" rejects a product.
        add(m.group("opt"), core[m.end() :], need_name=bool(m.group("weak")))
    bare_not = _BARE_NOT_RE.search(core)
    if bare_not and not _CONDITION_BEFORE_RE.search(core[: bare_not.start()]):
        add(bare_not.group("opt"), "", need_name=True)
    keep_out = _KEEP_OUT_RE.match(core)
    if keep_out:
        add(keep_out.group("opt"), core[keep_out.end() :])
    imperative = _IMPERATIVE_REJECT_RE.match(core)
    if imperative:
        # "avoid blocking the event loop" is a requirement, "avoid ORMs" a rejection.
        add(
            imperative.group("opt"),
            core[imperative.end() :],
            allow_gerund=not imperative.group("verb").lower().startswith("avoid"),
        )
    for m in _STANCE_REJECT_RE.finditer(core):
        if not _NOTHING_BEFORE_RE.search(core[: m.start()]):
            add(m.group("opt"), core[m.end() :])
    for m in _CONTRAST_REJECT_RE.finditer(core):
        # "a summary instead of code" is a wish about the reply, not a rejected option.
        chooses = _CHOOSING_VERB_RE.search(core[: m.start()])
        add(m.group("opt"), core[m.end() :], allow_gerund=False, need_name=not chooses)
    neither = _NEITHER_RE.match(core)
    if neither:
        add(neither.group("opt"), core[neither.end() :])
    bare_no = _NO_OPTION_RE.match(core)
    if bare_no:
        add(bare_no.group("opt"), core[bare_no.end() :])
    for pattern in (_STATE_REJECT_RE, _WONT_WORK_RE, _IS_OUT_RE):
        state = pattern.match(core)
        if state:
            subject = _SUBJECT_LEAD_RE.sub("", state.group("subj").split(",")[-1].strip())
            out = pattern is _IS_OUT_RE
            if out and _RELEASE_WORDS_RE.search(subject):
                continue  # "the new version of Django is out" announces a release
            # "Option A is out" rejects a named option; "the report is out" is news.
            add(subject, core[state.end() :], need_name=out)
    return found


_ZH_DEMONSTRATIVE_RE = re.compile(r"^(?:我们?|咱们)?(?:那个|这个|那种|这种|它)")


def _chinese_clause_rejections(clause: str) -> list[tuple[str, str, bool]]:
    found: list[tuple[str, str, bool]] = []
    for m in _ZH_PREFIX_REJECT_RE.finditer(clause):
        if _ZH_NOT_NEGATION_RE.search(clause[: m.start() + 2]):
            continue
        for option in _clean_options(m.group("opt")):
            found.append((option, clause[m.end() :], False))
    for m in _ZH_SUFFIX_REJECT_RE.finditer(clause):
        if _ZH_DEMONSTRATIVE_RE.match(m.group("opt")):
            continue  # "那个不行": a pronoun, resolved against the last proposal instead
        subject = _ZH_SUBJECT_LEAD_RE.sub("", m.group("opt"))
        for option in _clean_options(subject):
            found.append((option, clause[m.end() :], False))
    return found


_REASON_START_RE = re.compile(r"^(?:because|since|as|given\s+that)\b|^(?:因为|由于|毕竟)", re.I)
_CONSEQUENCE_RE = re.compile(r"^(?:so|therefore|hence|thus)\b|^(?:所以|因此|因而)", re.I)


def _is_reason_clause(clause: str) -> bool:
    """A clause after a rejection that explains it (not one that says what to do instead)."""
    core = _strip_discourse(clause)
    if not core or _ALTERNATIVE_RE.search(core):
        return False
    if _SYSTEM_VERB_RE.match(core) or _BUILD_VERB_RE.match(core) or _OUTPUT_VERB_RE.match(core):
        return False
    return len(core.split()) >= 2 or bool(_CJK_CHAR_RE.search(core))


_LEADING_CAUSE_RE = re.compile(
    # Not "as": "As we discussed, no Kafka" gives no cause.
    r"^(?:because|since|given\s+that)\s+(?P<why>[^,，]{3,}?)[,，]\s*(?P<rest>\S.*)$", re.I
)


def _clause_hits(clause: str) -> list[tuple[str, str, bool]]:
    hits = _chinese_clause_rejections(clause) if _CJK_CHAR_RE.search(clause) else []
    return hits + _english_clause_rejections(clause)


def _sentence_rejections(sentence: _Sentence) -> tuple[list[_RejectionHit], set[int]]:
    """The rejections in one sentence, and the indices of clauses that only give reasons."""
    # (cause before "so", cause in the previous clause, hits, text still to mine)
    per_clause: list[tuple[str, str, list[tuple[str, str, bool]], str]] = []
    for ci, clause in enumerate(sentence.clauses):
        # "A, so B is off the table": A is the cause of rejecting B (and still a statement of
        # its own); "A — so B is off the table" / "A，所以B不行": the clause before is the cause.
        cause = lead = ""
        parts = _SO_SPLIT_RE.split(clause, maxsplit=1)
        if len(parts) == 2 and len(parts[0].split()) >= 2:
            cause, clause = parts[0], parts[1]
        elif ci > 0 and _CONSEQUENCE_RE.match(clause):
            previous = sentence.clauses[ci - 1]
            lead = "" if _ALTERNATIVE_RE.search(previous) else previous
        elif (because := _LEADING_CAUSE_RE.match(clause)) and _clause_hits(because["rest"]):
            # "Because they're stateful, no Redis, no Memcached": the cause comes first and
            # explains every option rejected after it.
            cause, clause = because["why"], because["rest"]
        raw_hits = _clause_hits(clause)
        kept = cause
        bare_not = _BARE_NOT_RE.search(clause)
        if raw_hits and bare_not and bare_not.start() > 0:
            kept = clause[: bare_not.start()]  # "Go with Postgres, not Mongo": the choice stays
        per_clause.append((cause, lead, raw_hits, kept))
    hits: list[_RejectionHit] = []
    reason_clauses: set[int] = set()
    for ci, (cause, lead, raw_hits, kept) in enumerate(per_clause):
        zh = bool(_CJK_CHAR_RE.search(sentence.clauses[ci]))
        for option, rest, generic in raw_hits:
            inline = _reason_after(rest, zh)
            reason = inline or _tidy(cause or lead, 200)
            follower = ci + 1
            if (
                not reason
                and follower < len(per_clause)
                and not per_clause[follower][2]
                and _is_reason_clause(sentence.clauses[follower])
            ):
                reason = _tidy(_strip_discourse(sentence.clauses[follower]), 200)
                reason_clauses.add(follower)
            hits.append(
                _RejectionHit(option, reason, sentence.index, ci, generic, kept, bool(inline))
            )
    return _drop_reasons_taken_for_options(hits), reason_clauses


def _drop_reasons_taken_for_options(hits: list[_RejectionHit]) -> list[_RejectionHit]:
    """'Rule out X, we do not want vendor lock-in': the second negation is X's reason, not a
    second rejected option — a hit without a reason of its own that sits inside another hit's
    reason in the same clause is that reason."""
    return [
        hit
        for hit in hits
        if hit.reason
        or not any(
            other is not hit
            and other.clause == hit.clause
            and other.reason
            and option_matches(hit.option, other.reason)
            for other in hits
        )
    ]


def _dedupe_hits(hits: list[_RejectionHit]) -> list[_RejectionHit]:
    out: list[_RejectionHit] = []
    for hit in hits:
        twin = next((h for h in out if same_option(h.option, hit.option)), None)
        if twin is None:
            out.append(hit)
        elif not twin.reason and hit.reason:
            twin.reason = hit.reason
    return out


@dataclass
class _RejectionScan:
    hits: list[_RejectionHit]
    # Every clause that rejects something, mapped to the cause it states before "so" (which
    # is mined for requirements in place of the clause).
    clauses: dict[tuple[int, int], str]
    # Clauses that only explain a rejection: mined for strongly worded requirements only.
    reason_clauses: set[tuple[int, int]]


def _find_rejections(sentences: list[_Sentence], skip: set[int]) -> _RejectionScan:
    hits: list[_RejectionHit] = []
    reason_clauses: set[tuple[int, int]] = set()
    for sentence in sentences:
        # "should we not use X?" weighs an option, it rejects none.
        if not sentence.question and sentence.index not in skip:
            found, reasons = _sentence_rejections(sentence)
            hits.extend(found)
            reason_clauses.update((sentence.index, ci) for ci in reasons)
    clauses = {(h.sentence, h.clause): h.cause for h in hits}
    hits = _dedupe_hits(hits)
    named = [h for h in hits if not h.generic]
    for hit in hits:
        if not hit.reason:
            hit.reason = _neighbour_reason(sentences, hit.sentence, hits)
    if named:
        # "Let's not use MongoDB ... so a document store is off the table": the category is
        # the reason for the named rejection, not a second option to track.
        for generic in [h for h in hits if h.generic]:
            target = min(named, key=lambda h: abs(h.sentence - generic.sentence))
            if not target.reason:
                target.reason = generic.reason
            hits.remove(generic)
    return _RejectionScan(hits, clauses, reason_clauses)


# A reply that turns down what the assistant just proposed without naming it. Strong forms
# reject on their own ("No way.", "Not that one.", "Let's not use that.", "That's off the
# table."); a bare "no"/"nope"/"nah" rejects only with a judgement after it ("no — too heavy"),
# since on its own it usually answers a question ("No, not really.", "No, that's fine.").
_PRONOUN = r"(?:that|this|it)(?:\s+one)?"
_PRONOUN_STRONG_RE = re.compile(
    r"^(?:(?:no|nope|nah)[,\s]+)?(?:no\s+way|no\s+chance|not\s+a\s+chance|hell\s+no|"
    rf"not\s+{_PRONOUN}|(?:definitely|absolutely|certainly)\s+not(?:\s+{_PRONOUN})?|"
    rf"(?:let'?s|i'?d\s+rather|we'?d\s+rather)\s+not(?:\s+(?:use|go\s+with|pick|choose)\s+"
    rf"{_PRONOUN})?|(?:i|we)\s+(?:don'?t|do\s+not)\s+(?:want|like)\s+{_PRONOUN}|"
    r"(?:that|this|it)(?:'s|\s+is)\s+(?:off\s+the\s+table|out\s+of\s+the\s+question|"
    r"a\s+no[- ]?go|not\s+an\s+option|a\s+non[- ]starter|a\s+no|overkill))"
    r"(?P<tail>(?:[\s,.;!—–-].*)?)$",
    re.I,
)
_PRONOUN_WEAK_RE = re.compile(r"^(?:no|nope|nah)(?P<tail>\s*[,.;!—–-].*)$", re.I)
_ZH_PRONOUN = r"(?:那个|这个|它)(?:方案)?"
_ZH_PRONOUN_REJECT_RE = re.compile(
    r"^(?:我们?|咱们)?(?:(?:就|还是)?(?:不要再?|不用|别用?|不想用|不考虑|不选|放弃)(?:用|使用|选)?"
    rf"{_ZH_PRONOUN}|{_ZH_PRONOUN}(?:不行|不合适|不可行|不考虑了?|就算了|免谈|没戏|不要了?|不用了?))"
    r"[了吧啊呢]*(?P<tail>[，,].*)?[。！!.]?$"
)
# A verdict on the option in the tail of a bare "no": excess, cost, weight, difficulty.
_JUDGEMENT_RE = re.compile(
    r"\b(?:too|overkill|over-?engineered|overly|heavy|heavyweight|expensive|costly|slow|complex|"
    r"complicated|risky|fragile|bloated|clunky|painful|nightmare|hate|dislike|"
    r"can'?t\s+(?:afford|run|operate|maintain|support))\b",
    re.I,
)
# "No, too much detail": a verdict on the reply itself, not on what it proposed.
_ABOUT_THE_REPLY_RE = re.compile(
    r"\b(?:detail|details|explanation|answer|text|verbose|wordy|long|words|reply)\b", re.I
)


# "Not that one — we need something managed": after a plain refusal, a need the option
# does not meet is the reason it was refused.
_NEED_REASON_RE = re.compile(
    r"^(?:(?:we|i|it|this|that)\s+(?:really\s+|still\s+)?(?:need|needs|must|have\s+to|has\s+to|"
    r"require|requires|want)\b|must\b)",
    re.I,
)


def _tail_verdict(raw: str) -> tuple[str, bool, bool]:
    """(tail, judges the option or says why, names an alternative) after a rejection head."""
    tail = _TRAILING_PLEASE_RE.sub("", raw.strip(" ,.;!—–-")).strip(" ,.;!—–-")
    if tail.lower() == "please":
        tail = ""
    about_reply = bool(_ABOUT_THE_REPLY_RE.search(tail))
    judged = bool(_JUDGEMENT_RE.search(tail) or _REASON_START_RE.match(tail)) and not about_reply
    return tail, judged, bool(_ALTERNATIVE_RE.search(tail))


def _proposal_candidates(reply: str) -> list[str]:
    """Names in a reply (capitalised / digit / punctuated words, runs of them kept together),
    without the capitalised common words that only open a sentence."""
    runs: list[list[str]] = []
    last_end = -2
    prose = _FENCED_CODE_RE.sub("\n", reply)
    for m in _WORD_RE.finditer(prose):
        word = m.group()
        if not _NAME_MARK_RE.search(word):
            last_end = -2
            continue
        if runs and m.start() == last_end + 1 and prose[last_end] == " ":
            runs[-1].append(word)  # "SQL Server", "Google Cloud Storage"
        else:
            runs.append([word])
        last_end = m.end()
    names: list[str] = []
    for words in runs:
        while words and words[0][1:].islower() and _is_common_word(words[0]):
            words.pop(0)
        name = " ".join(words)
        if name and not any(same_option(name, n) for n in names):
            names.append(name)
    return names


# A word with inner punctuation kept ("Node.js", "C++", "python-magic"), none at its ends.
_WORD_RE = re.compile(r"[A-Za-z0-9][\w+#]*(?:[.-][\w+#]+)*")


def _is_common_word(word: str) -> bool:
    low = word.lower().strip(".+#-")
    if low in _STOPWORDS or low in _ACK_WORDS or low in _BAD_OPTION_STARTS:
        return True
    verbs = (_SYSTEM_VERB_RE, _OUTPUT_VERB_RE, _BUILD_VERB_RE, _DISCOURSE_RE)
    return any(p.fullmatch(low) for p in verbs) or low.endswith("ly")


def _last_proposal(reply: str) -> str | None:
    """The one option the assistant's reply proposes, or None when it proposes none or
    several (a pronoun cannot then say which was turned down)."""
    proposed: list[str] = []
    for candidate in _proposal_candidates(reply):
        if _proposes_option(reply, candidate):
            proposed.append(candidate)
            if len(proposed) > 1:
                return None  # stop early: long replies name many things
    return proposed[0] if proposed else None


def _pronoun_rejection(sentences: list[_Sentence], view: LedgerView) -> _RejectionHit | None:
    """'No way.' / 'Hmm, no — too heavy.' / '我们不用那个' right after a single proposal."""
    if not sentences or sentences[0].question or not view.last_assistant_message:
        return None
    body = _strip_discourse(sentences[0].text)
    zh = _ZH_PRONOUN_REJECT_RE.match(body)
    if zh:
        reason = (zh.group("tail") or "").strip(" ,，。.！!")
    else:
        # "Nope, that's overkill for us": a bare no and its verdict — read as the weak form
        # first, so the whole verdict becomes the reason.
        weak = _PRONOUN_WEAK_RE.match(body)
        verdict = _tail_verdict(weak.group("tail")) if weak else None
        if verdict is None or not verdict[1]:
            strong = _PRONOUN_STRONG_RE.match(body)
            verdict = _tail_verdict(strong.group("tail")) if strong else None
            if verdict is not None and _NEED_REASON_RE.match(verdict[0]):
                verdict = (verdict[0], True, verdict[2])
            if verdict is None or (verdict[0] and not (verdict[1] or verdict[2])):
                return None  # "Not that I know of", "No, that's fine", "No way, that's perfect"
        tail, judged, _ = verdict
        reason = _REASON_LEAD_RE.sub("", tail, count=1) if judged else ""
    option = _last_proposal(view.last_assistant_message)
    if option is None:
        return None
    # "Not that one, we need something managed": a reason inside the rejecting clause may
    # state a requirement too (after a dash it is a clause of its own, mined anyway).
    own_clause = len(sentences[0].clauses) == 1
    cause = reason if own_clause and _NEED_REASON_RE.match(reason) else ""
    if not reason and len(sentences) > 1 and not sentences[1].question:
        # "Not that one. We need something managed.": the need right after is the reason.
        following = _strip_discourse(sentences[1].text).rstrip(" .!")
        reason = following if _NEED_REASON_RE.match(following) else ""
    return _RejectionHit(option, _tidy(reason, 200), sentences[0].index, 0, False, cause)


def _neighbour_reason(sentences: list[_Sentence], index: int, hits: list[_RejectionHit]) -> str:
    """A rejection without an in-sentence cause usually has it in the sentence before
    ("This is too heavy for five people. Forget microservices.") or right after it."""
    hit_sentences = {h.sentence for h in hits}
    for candidate in (index - 1, index + 1):
        if not 0 <= candidate < len(sentences):
            continue
        sentence = sentences[candidate]
        if sentence.question or (candidate in hit_sentences and candidate < index):
            continue
        body = _strip_discourse(sentence.text)
        if _ALTERNATIVE_RE.search(body) or _choice(body):
            continue  # what to do instead is not why
        if len(body.split()) >= 3 or _CJK_CHAR_RE.search(body):
            return _tidy(body, 200)
    return ""


# ---------------------------------------------------------------------------------------------
# Requirements
# ---------------------------------------------------------------------------------------------

_PRONOUN_MODAL_RE = re.compile(
    r"^(?:we|i|you|it|they|this|that|the\s+(?:app|system|function|service|api|code|endpoint|"
    # "we must" / "we'd like to": a space, or straight into the contraction.
    r"tool|solution))(?:\s+|(?='))(?:really\s+|also\s+|still\s+|definitely\s+|absolutely\s+)?"
    r"(?P<modal>must(?:\s+also)?|need\s+to|needs\s+to|have\s+to|has\s+to|have\s+got\s+to|"
    r"has\s+got\s+to|got\s+to|gotta|should|shall|will\s+need\s+to|'ll\s+need\s+to|"
    r"are\s+required\s+to|is\s+required\s+to|'re\s+required\s+to|want\s+to|'d\s+like\s+to|"
    r"would\s+like\s+to)\s+(?:also\s+)?(?P<rest>.+)$",
    re.I,
)
_STRONG_MODAL_RE = re.compile(
    r"\b(?:must|mustn'?t|need\s+to|needs\s+to|have\s+to|has\s+to|has\s+got\s+to|"
    r"have\s+got\s+to|required?|requires|requirement|mandatory|shall|should|is\s+essential|"
    r"it'?s\s+essential|is\s+critical|make\s+sure|ensure|guarantee)\b"
    # "we need an audit trail" — but not "no need for", "don't need", "need help".
    r"|(?<!no\s)(?<!n't\s)(?<!not\s)\bneeds?\b(?!\s+(?:to|help)\b)"
    r"|必须|需要|要求|一定要|务必|应该|应当|只能|只支持|只允许|不能超过|不超过|不得|至少|最多|记得"
    r"|别忘了|不要忘记|还要|也要|得要|(?<![主重只想不还也])要(?![不是么求问看说知了])",
    re.I,
)
# "need to pick/decide ..." states an open decision, not a constraint.
_DECISION_AFTER_MODAL_RE = re.compile(
    r"^(?:pick|choose|decide|select|figure\s+out|think\s+about|discuss|know|understand|ask|"
    r"learn|explore|find\s+out|work\s+out|compare|evaluate|settle)\b",
    re.I,
)
_WANT_TO_CHAT_RE = re.compile(
    r"^(?:know|understand|ask|learn|see|discuss|talk|explore|check|hear|get\s+your|start|"
    r"begin|try|understand)\b",
    re.I,
)
_NEED_HELP_RE = re.compile(
    r"^(?:i|we)\s*(?:need|want|would\s+like|'d\s+like)\s+(?:some\s+)?help\s+(?:with\s+|"
    r"(?:in\s+)?(?P<ing>creat|build|writ|mak|design|implement)ing\s+|"
    r"to\s+(?P<verb>create|build|write|make|design|implement)\s+)(?P<task>.+)$",
    re.I,
)
# Requests about the conversation itself ("summarise", "sketch that out"): no constraint.
_OUTPUT_VERB_RE = re.compile(
    r"^(?:(?:can|could|would)\s+you\s+)?(?:tell|explain|summari[sz]e|describe|remind|clarify|"
    r"compare|recap|elaborate|walk|go\s+through|talk|help|show|list|outline|suggest|recommend|"
    r"propose|think|brainstorm|answer|review|evaluate|assess|analy[sz]e|estimate|sketch|"
    r"lay\s+out|give|draft|plan|design|present|detail|expand|continue|proceed|start|begin|"
    r"go\s+on|go\s+ahead|keep\s+going|let\s+me\s+know|dive|zoom|consider|look)\b",
    re.I,
)
_INFO_VERB_RE = re.compile(
    r"^(?:tell|explain|summari[sz]e|describe|remind|clarify|compare|recap|elaborate|walk|"
    r"go\s+through|talk|review|evaluate|assess)\b",
    re.I,
)
_SYSTEM_VERB_RE = re.compile(
    r"^(?:store|save|persist|keep|put|place|use|reject|refuse|deny|block|validate|verify|check|"
    r"sanitise|sanitize|escape|log|record|audit|track|support|allow|accept|permit|limit|cap|"
    r"restrict|throttle|rate[- ]limit|encrypt|hash|sign|send|return|respond|include|add|expose|"
    r"publish|handle|retry|cache|index|partition|shard|replicate|back\s+up|expire|delete|purge|"
    r"archive|require|enforce|ensure|make\s+sure|guarantee|target|stick|run|deploy|host|serve|"
    r"export|import|notify|alert|email|paginate|compress|authenticate|authori[sz]e|separate|"
    r"isolate|prefer|default|fall\s+back|stream|batch|schedule|monitor|display|format|lock|"
    r"version|test|document|translate|load|upload|download|migrate|avoid|never|always|"
    r"only|disallow|forbid|prevent|timeout|time\s+out|expose)\b",
    re.I,
)
_BUILD_VERB_RE = re.compile(
    r"^(?:write|create|build|implement|make|generate|code|produce|set\s+up|wire\s+up|provide)\b",
    re.I,
)
_SCOPE_MARKER_RE = re.compile(
    r"\b(?:also|too|as\s+well|additionally|in\s+addition|plus)\b|还要|也要|另外", re.I
)
# "Test coverage is low" starts with a verb-looking noun; an imperative has no finite verb
# right behind its first word.
_NOT_IMPERATIVE_RE = re.compile(
    r"^\S+(?:\s+\S+)?\s+(?:is|are|was|were|has|have|had|will|would|can|could|should|must|"
    r"does|did|seems|looks|sounds|'s)\b|^use\s+cases?\b",
    re.I,
)
_LETS_RE = re.compile(r"^let'?s\s+(?!not\b)(?P<rest>.+)$", re.I)
_LETS_CHAT_RE = re.compile(
    r"^(?:start|begin|talk|discuss|see|look|think|focus|move\s+on|recap|review|continue|"
    r"go\s+back|go\s+through|take|try\s+to\s+understand|brainstorm|explore|get\s+started|"
    r"dig|dive|step\s+back|say)\b",
    re.I,
)
_DONT_FORGET_RE = re.compile(
    r"^(?:don'?t|do\s+not|never)\s+forget\s+(?:to\s+|about\s+|that\s+)?(?P<rest>.+)$|"
    r"^(?:不要忘记|别忘了|记得)(?P<zh>.+)$",
    re.I,
)
_CHOICE_RE = re.compile(
    r"^(?P<a>[^,]{1,40}?)\s*,?\s+it\s+is$"
    r"|^(?P<b>.+?)\s+(?:is|are|seems|sounds)\s+(?:definitely\s+)?(?:the\s+way\s+to\s+go|"
    r"the\s+(?:right|best|better)\s+(?:choice|option|call|fit|bet)|(?:good|fine)\s+enough)"
    r"|^(?P<f>.+?)\s+(?:will\s+do|does\s+the\s+job|works\s+for\s+us)"
    r"|^(?:(?:let'?s|we(?:'ll|\s+will|\s+should)?|i'd|i\s+would)\s+)?(?:go\s+with|stick\s+with|"
    r"settle\s+on|opt\s+for|pick|choose)\s+(?P<c>.+)$"
    r"|^(?:we\s+)?(?:chose|picked|decided\s+on|went\s+with|settled\s+on)\s+(?P<d>.+)$"
    rf"|^(?:我们|咱们|[{_CJK}]{{1,6}}?)?(?:就|还是|决定|改|那就)?(?:用|选|选用|采用)(?P<e>[^，,。]+?)(?:吧|了)?$"
    r"|^(?P<g>.+?)就(?:够了|行了?|可以了?)$",
    re.I,
)
_NOT_A_CHOICE = _word_set("here there this that so where what how now which")
_TRAJECTORY_RE = re.compile(
    r"\b(?:keep\s+(?:it|them|everything|sessions?|data)\s+(?:in|on)|stay\s+(?:with|on)|"
    r"stick\s+(?:with|to)|switch\s+to|move\s+to|migrate\s+to|go\s+with|let'?s\s+use|"
    r"we(?:'ll|\s+will)\s+use)\s+[A-Z]"
    r"|就用|决定用|改用|换成|选用",
    re.I,
)
_NUMBER_PATTERN = (
    r"(?:\d+(?:[.,]\d+)*\s*(?:k|m|bn|million|thousand|billion)?|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|"
    r"a\s+(?:hundred|thousand|million)|dozens?\s+of)"
)
_UNIT_PATTERN = (
    r"(?:%|percent|ms|milliseconds?|secs?|seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|"
    r"months?|years?|kb|mb|gb|tb|pb|bytes?|kib|mib|gib|tib|rps|qps|tps|req/s|writes?|reads?|"
    r"quer(?:y|ies)|transactions?|events?|messages?|users?|customers?|clients?|tenants?|"
    r"accounts?|records?|rows?|items?|files?|uploads?|requests?|calls?|connections?|"
    r"sessions?|engineers?|developers?|devs?|people|persons?|members?|servers?|nodes?|"
    r"instances?|cores?|cpus?|regions?|zones?|usd|eur|dollars?|euros?)"
)
_QUANTITY_RE = re.compile(
    rf"[$€£¥]\s*\d[\d,.]*\s*(?:k|m|bn)?\b|\b{_NUMBER_PATTERN}\s*(?:-\s*|\s+)?"
    rf"(?:[a-z][a-z-]*\s+){{0,2}}{_UNIT_PATTERN}(?![a-z])"
    r"|\d+(?:\.\d+)?\s*(?:MB|GB|KB|TB|个|人|名|年|个月|月|天|小时|分钟|秒|次|万|千|条|倍)",
    re.I,
)
_TEAM_RE = re.compile(
    rf"\b(?:team\s+of|we\s+are|we're|with)\s+(?P<n>{_NUMBER_PATTERN})\s*"
    r"(?P<unit>engineers?|developers?|devs?|people|persons?)?\b"
    rf"|^(?P<n2>{_NUMBER_PATTERN})\s+(?P<unit2>engineers?|developers?|devs?|people|persons?)$"
    rf"|\b(?P<n3>{_NUMBER_PATTERN})[- ](?:person|people|engineer|developer|member)\s+team\b"
    r"|团队(?:有|共)?(?P<n4>\d+|[一二三四五六七八九十]+)(?:个)?人",
    re.I,
)
_PAST_RE = re.compile(
    r"\b(?:was|were|had|did|took|tried|spent|ran|went|got|came|saw|broke|failed|crashed|"
    r"used\s+to|yesterday|last\s+(?:week|month|year|time|night)|ago)\b",
    re.I,
)
_CONSTRAINT_NOUN_RE = re.compile(
    r"\b(?:deadline|budget|sla|slo|quota|limit|cap|ceiling|retention|due\s+date)\b|预算|截止|上限|期限",
    re.I,
)
# "Budget: under $200/month", "Database: PostgreSQL": a spec line.
_LABEL_VALUE_RE = re.compile(r"^[A-Za-z][\w /&-]{0,30}:\s+\S")
_CANNOT_RE = re.compile(
    r"^(?:we|i)\s+(?:can'?t|cannot|can\s+not|(?:are|am|'re|'m)\s+(?:not|un)able\s+to|"
    r"(?:are|'re)\s+not\s+allowed\s+to)\s+(?!use\b)\w+",
    re.I,
)
_ONLY_RE = re.compile(
    r"^(?:only|just|at\s+(?:least|most)|no\s+more\s+than|up\s+to|max(?:imum)?|"
    r"min(?:imum)?|except|excluding|under|below|within)\b",
    re.I,
)
_CAN_YOU_ADD_RE = re.compile(
    r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:also\s+)?(?P<rest>(?:add|include|"
    r"support|handle|validate|log|store|limit|reject|encrypt|write|make\s+(?:it|sure))\b.+)$",
    re.I,
)
_ACK_WORDS = _word_set(
    """yes yeah yep yup no nope ok okay sure thanks thank great cool fine perfect right agreed
    exactly correct both either neither none all maybe probably later nothing done good nice
    hello hi hey bye goodbye whatever hmm understood true false absolutely definitely"""
)
_WH_WORDS_RE = re.compile(r"\b(?:what|how|why|where|when|which|who)\b", re.I)


_NEGATED_REST_RE = re.compile(r"^(?:not|never)\b", re.I)
_NEED_TO_SPLIT_RE = re.compile(r"\b(?:need|needs|have|has)\s+to\s+", re.I)
_WE_WANT_RE = re.compile(r"^(?:we|i)(?:\s+want|\s*'d\s+like|\s+would\s+like)\s+(?!to\b)", re.I)
_ONGOING_RE = re.compile(r"已经|正在|在用|一直|already|currently", re.I)
_ZH_VERB_CHAR_RE = re.compile("[用是要得会能把让]")
_REASON_TAIL_RE = re.compile(r"\s*(?:because|since|as|for|so)\b", re.I)
_CLAUSE_WORDS_RE = re.compile(
    r"\b(?:is|are|was|were|do|does|did|can|will|would|should|i|we|you|it)\b", re.I
)
_TRAILING_SCOPE_RE = re.compile(r"\s+(?:too|as\s+well)$", re.I)
_CAN_YOU_RE = re.compile(r"^(?:can|could|would)\s+you\b", re.I)
_AND_NEED_RE = re.compile(r"\s+and\s+(?:need|want|have|would|should)\b")
_DECLARATIVE_VERB_RE = re.compile(r"\b(?:will|is|are|be|should|use|uses|runs?|goes)\b", re.I)


def _reqs_from_modal(core: str) -> str | None:
    """A clause with a modal of obligation, reduced to what is required."""
    m = _PRONOUN_MODAL_RE.match(core)
    if m:
        rest = m.group("rest")
        modal = m.group("modal").lower()
        if _DECISION_AFTER_MODAL_RE.match(rest):
            return None
        if modal in {"want to", "'d like to", "would like to"} and _WANT_TO_CHAT_RE.match(rest):
            return None
        if _NEGATED_REST_RE.match(rest):
            return _tidy(core)
        return _tidy(rest)
    if not _STRONG_MODAL_RE.search(core):
        return None
    after = _NEED_TO_SPLIT_RE.split(core, maxsplit=1)
    if len(after) == 2 and _DECISION_AFTER_MODAL_RE.match(after[1]):
        return None
    return _tidy(core)


_INDEPENDENT_TAIL_RE = re.compile(
    r",\s+(?!(?:and|or|but|which|who|where|because|since|so|as|with|without|only|e\.g\.|"
    r"including|except)\b)(?:[\w-]+\s+){0,3}?(?:is|are|was|were|will|would|can|could|should|"
    r"'s|'re|seems|looks)\b.*$",
    re.I,
)


def _main_clause(core: str) -> str:
    """'Keep X for now, multi-region is a later problem' → 'Keep X for now'."""
    return _INDEPENDENT_TAIL_RE.sub("", core)


def _requirement_from_clause(
    clause: str, *, strong_only: bool, previous: str | None
) -> tuple[str, float] | None:
    """(text, confidence) when the clause states a need or constraint."""
    core = _main_clause(_strip_discourse(clause))
    if not core:
        return None
    m = _DONT_FORGET_RE.match(core)
    if m:
        return _tidy(m.group("rest") or m.group("zh") or ""), 0.8
    m = _NEED_HELP_RE.match(core)
    if m:
        # "I need help creating X" states the task: "Create X".
        stem = m.group("ing")
        verb = m.group("verb") or (
            stem + ("e" if stem in {"creat", "writ", "mak"} else "") if stem else ""
        )
        if strong_only or not verb:
            return None  # "help with the deploy scripts" names a topic, not a deliverable
        return _tidy(f"{verb} {m.group('task')}"), 0.6
    modal = _reqs_from_modal(core)
    if modal:
        return modal, 0.85
    if strong_only:
        return None
    lets = _LETS_RE.match(core)
    if lets:
        rest = lets.group("rest")
        if _LETS_CHAT_RE.match(rest) or _OUTPUT_VERB_RE.match(rest):
            return None
        core = rest
    if _ONLY_RE.match(core) and previous is None:
        return _tidy(core), 0.7
    if _SYSTEM_VERB_RE.match(core) and not _NOT_IMPERATIVE_RE.match(core):
        return _tidy(core), 0.75
    if _BUILD_VERB_RE.match(core) and _SCOPE_MARKER_RE.search(clause):
        return _tidy(core), 0.7
    if _OUTPUT_VERB_RE.match(core) or _BUILD_VERB_RE.match(core):
        return None
    if _PAST_RE.search(core) or _WH_WORDS_RE.match(core):
        return None  # "it took 5 minutes to build" reports, it does not require
    if _QUANTITY_RE.search(core) or _CONSTRAINT_NOUN_RE.search(core) or _LABEL_VALUE_RE.match(core):
        return _tidy(core), 0.7
    if _CANNOT_RE.match(core):
        return _tidy(core), 0.6
    if _WE_WANT_RE.search(core):
        return _tidy(core), 0.65
    return None


def _use(option: str, said: str) -> str:
    """A chosen option as a requirement, in the language the user wrote it in (Chinese keeps
    the user's clause, which names what the choice is for: "数据库用MySQL")."""
    if _CJK_CHAR_RE.search(said):
        return _tidy(_ZH_PARTICLES_RE.sub("", said.strip(" 。！.!")))
    return f"Use {option}"


def _choice(core: str) -> str | None:
    """The option chosen by "X it is" / "X is the way to go" / "let's go with X", or None."""
    if _FACT_RE.search(core) and _ONGOING_RE.search(core):
        return None  # "我们已经在用GCP" states what is, it chooses nothing
    m = _CHOICE_RE.match(core.rstrip(".!。！ "))
    if not m:
        return None
    picked = _SUBJECT_LEAD_RE.sub("", next(g for g in m.groups() if g)).strip(_EDGE_PUNCT)
    bare = _strip_option_noise(picked)
    if not bare or bare.lower() in _NOT_A_CHOICE or len(picked.split()) > 5:
        return None
    return picked


def _bare_answer(sentence: str, last_reply: str) -> str | None:
    """'Flask.' answering the assistant's question, or 'Django, because we want the admin'
    picking one of the options the assistant offered."""
    body = _strip_discourse(sentence.rstrip(".!。！ "))
    head, tail = [*_COMMA_RE.split(body, maxsplit=1), ""][:2]
    head = _ZH_PARTICLES_RE.sub("", head.strip())
    words = head.split()
    if not 1 <= len(words) <= 3 or _QUANTITY_RE.search(head):
        return None
    if _CJK_CHAR_RE.search(head) and (len(head) > 8 or _ZH_VERB_CHAR_RE.search(head)):
        return None  # a Chinese clause, not a bare name
    asked = "?" in last_reply or "？" in last_reply
    if not asked and not option_matches(head, last_reply):
        return None
    chinese = bool(_CJK_CHAR_RE.search(body))
    if tail and not chinese and not _REASON_TAIL_RE.match(tail):
        return None
    first = words[0].lower().strip(".!")
    if first in _ACK_WORDS or first.endswith("ly") or _WH_WORDS_RE.search(head):
        return None  # "Mostly the database." describes; it names no choice
    if _OUTPUT_VERB_RE.match(head) or _SYSTEM_VERB_RE.match(head) or _BUILD_VERB_RE.match(head):
        return None
    if _CLAUSE_WORDS_RE.search(head):
        return None
    if chinese:
        return f"使用{head.strip()}"  # the clause after a Chinese comma is its own statement
    return f"Use {head.strip()}" + (f", {tail.strip()}" if tail.strip() else "")


def _team_size(clause: str) -> str | None:
    for segment in _COMMA_RE.split(clause):
        m = _TEAM_RE.search(segment.strip(" .!;。！"))
        if not m:
            continue
        number = (m.group("n") or m.group("n2") or m.group("n3") or m.group("n4")).strip()
        unit = m.group("unit") or m.group("unit2") or ""
        if m.group("n4"):
            return f"团队{number}人"
        if m.group("n") and not unit:
            continue  # "we are 5 minutes away" is no team size
        return f"Team of {number} {unit or 'people'}".strip()
    return None


# ---------------------------------------------------------------------------------------------
# Facts, trajectory, confirmations, drops, reopening, pivots, topic shifts, dialog state
# ---------------------------------------------------------------------------------------------

_FACT_RE = re.compile(
    r"^(?:we|i|our\s+(?:team|company|org|stack)|the\s+team)\s+(?:already\s+|currently\s+)?"
    r"(?:runs?|uses?|have|has|operates?|hosts?|deploys?|maintains?|knows?|owns?|are\s+on|"
    r"'re\s+on|works?\s+with)\b"
    # "We don't use Windows servers": the current setup, negatively.
    r"|^(?:we|i|our\s+(?:team|company|org|stack)|the\s+team)\s+(?:currently\s+|really\s+)?"
    r"(?:don'?t|do\s+not|doesn'?t|does\s+not)\s+(?:use|run|have|host|rely\s+on|depend\s+on|"
    r"deploy|own)\b(?!\s+to\b)"
    r"|^(?:we|i)(?:'re|'m|\s+are|\s+am)\s+(?:building|designing|developing|adding|writing|"
    r"creating|working\s+on|migrating|running|making)\b"
    r"|\b(?:law|legal|regulat\w+|compliance|gdpr|hipaa|sox|pci)\b"
    r"|^我们(?:已经|目前|现在)?(?:在用|用的是|使用|运行|有)|团队|法律|法规|合规"
    # "我们没有用X": not in use (a fact); "我们不用X" is read as a decision (a rejection),
    # which is how it is usually meant.
    r"|^我们(?:目前|现在)?没有?(?:在)?(?:用|使用)",
    re.I,
)
_AFFIRM_RE = re.compile(
    r"^(?:yes|yep|yeah|yup|correct|exactly|right|agreed|confirmed|ok(?:ay)?|sure|"
    r"sounds\s+good|that'?s\s+right|that\s+is\s+right|perfect|absolutely|definitely|indeed|"
    r"对|是的|没错|好的|可以|同意|确认)\b",
    re.I,
)
_DROP_RE = re.compile(
    r"(?:^|\b(?:let'?s|please|just|we\s+can)\s+)(?:forget(?:\s+about)?|drop|scrap|remove|"
    r"never\s*mind|skip)\s+(?P<x>.+)$"
    r"|\b(?:we|i)\s+(?:no\s+longer|don'?t|do\s+not)\s+need\s+(?P<y>.+)$"
    r"|\bno\s+need\s+for\s+(?P<z>.+)$"
    r"|^(?P<w>.+?)\s+(?:is|are)\s+(?:no\s+longer\s+(?:needed|required)|not\s+(?:needed|required)"
    r"\s+any\s*more|out\s+of\s+scope)"
    r"|不再需要(?P<v>.+)|(?P<u>.+?)不需要了|去掉(?P<t>.+?)的?要求",
    re.I,
)
_REOPEN_RE = re.compile(
    r"\b(?:reconsider(?:ing)?|revisit(?:ing)?|back\s+on\s+the\s+table|after\s+all|"
    r"bring\s+back|go\s+back\s+to|un-?reject|another\s+(?:look|chance)|open\s+to)\b"
    r"|\b(?:maybe|perhaps|let'?s|try|use|consider)\b.*\bagain\b"
    r"|重新考虑|再考虑|重新评估|又可以|还是用|回到",
    re.I,
)
_PIVOT_RE = re.compile(
    r"\b(?:change\s+of\s+(?:plans?|direction)|scratch\s+that|on\s+second\s+thoughts?|"
    r"different\s+(?:direction|approach|route)|rethink|start\s+over|"
    r"back\s+to\s+the\s+drawing\s+board|(?:i|we)(?:'ve)?\s+changed\s+(?:my|our)\s+minds?|pivot)\b"
    r"|换个思路|改变主意|换个方向|推翻|重新来|算了",
    re.I,
)
_TOPIC_CUE_RE = re.compile(
    r"\b(?:new\s+topic|another\s+(?:question|topic)|different\s+(?:question|topic|subject)|"
    r"unrelated(?:\s+question)?|switching\s+(?:gears|topics?|to)|change\s+(?:of\s+)?"
    r"(?:subject|topic)|on\s+(?:a|an)\s+(?:other|unrelated|different|separate)\s+note|"
    r"moving\s+on\s+to|something\s+(?:else|different)\s+entirely|totally\s+different)\b"
    r"|换个话题|另一个问题|另外一个问题|顺便问一下|题外话|说点别的|换一个话题",
    re.I,
)
_GREETING_RE = re.compile(
    r"^(?:hi|hello|hey|good\s+(?:morning|afternoon|evening)|greetings|howdy|你好|您好|嗨)\b",
    re.I,
)
_CLOSING_RE = re.compile(
    r"\b(?:that'?s\s+(?:all|it|everything)|bye|goodbye|see\s+you|we'?re\s+done|i'?m\s+done|"
    r"thanks?(?:\s+you)?(?:\s+so\s+much)?[,!.]?\s*(?:that'?s\s+all|bye|$)|that\s+helps)\b"
    r"|谢谢|再见|就这样|没有了",
    re.I,
)
_CLARIFY_RE = re.compile(
    r"^(?:i\s+mean|what\s+i\s+meant|to\s+clarify|i\s+meant|that'?s\s+not\s+what|no,\s+i|"
    r"just\s+to\s+be\s+clear|let\s+me\s+clarify|我的意思是|也就是说|不是.*我是说)",
    re.I,
)
_UNSURE_RE = re.compile(
    r"\b(?:not\s+sure\s+(?:about|whether|if)|(?:don'?t|do\s+not)\s+know\s+(?:if|whether)|"
    r"undecided\s+(?:on|about)|haven'?t\s+decided)\b|不确定|不知道.*是否|还没决定",
    re.I,
)
_OPEN_DECISION_RE = re.compile(
    r"\b(?:need|needs|have|has)\s+to\s+(?P<what>(?:pick|choose|decide|select|figure\s+out)\b.+)$",
    re.I,
)


def _affirmed_ids(sentences: list[_Sentence], view: LedgerView, choices: list[str]) -> list[str]:
    """Existing requirements the user affirms ("yes, 20 MB is the limit")."""
    live = [(rid, text) for rid, text, status in view.requirements if status != "dropped"]
    if not live:
        return []
    ids: list[str] = []
    for rid, text in live:
        if any(option_matches(c, text) for c in choices):
            ids.append(rid)
    first = sentences[0].text if sentences else ""
    if not _AFFIRM_RE.match(first.strip()):
        return ids
    said = set().union(*(_content_tokens(s.text) for s in sentences if not s.question))
    said -= _content_tokens("yes ok okay right correct exactly agreed sure confirmed perfect")
    if said:
        targets = [(rid, _content_tokens(t)) for rid, t in live]
    else:
        # A bare "yes" answers the assistant's last question: confirm what that question named.
        asked = " ".join(
            s for s in _split_sentences(view.last_assistant_message) if s.rstrip().endswith("?")
        )
        said = _content_tokens(asked)
        targets = [(rid, _content_tokens(t)) for rid, t in live]
    for rid, tokens in targets:
        if rid in ids or not tokens:
            continue
        shared = tokens & said
        names_most = len(shared) >= 2 and len(shared) / len(tokens) >= 0.5
        # "OK, PostgreSQL it is": everything said is part of the requirement.
        all_of_it = bool(said) and said <= tokens and len(said) <= 3
        if names_most or all_of_it:
            ids.append(rid)
    return ids


def _dropped(sentences: list[_Sentence], view: LedgerView) -> tuple[list[str], set[int]]:
    """Requirement ids the user withdraws, and the sentences that said so."""
    live = [(rid, text) for rid, text, status in view.requirements if status != "dropped"]
    ids: list[str] = []
    used: set[int] = set()
    for sentence in sentences:
        if sentence.question:
            continue
        for clause in sentence.clauses:
            m = _DROP_RE.search(_strip_discourse(clause))
            if not m:
                continue
            named = next(g for g in m.groups() if g)
            wanted = _content_tokens(named) - _content_tokens("requirement part bit thing feature")
            if not wanted:
                continue
            for rid, text in live:
                if rid not in ids and _overlap_of(wanted, _content_tokens(text)) >= 0.67:
                    ids.append(rid)
                    used.add(sentence.index)
    return ids, used


# "Let's not go back to Kafka", "I don't want to reconsider Kafka": the cue, refused.
_REFUSED_REOPEN_RE = re.compile(
    r"(?:\b(?:not|never|no\s+need\s+to|no\s+reason\s+to)|n't)\s+(?:\w+\s+){0,2}?"
    r"(?:reconsider|revisit|go\s+back|bring\s+back|return|another\s+look)",
    re.I,
)


def _reopened(sentences: list[_Sentence], view: LedgerView, hits: list[_RejectionHit]) -> list[str]:
    out: list[str] = []
    rejected_now = [h.option for h in hits]
    for option in view.reopenable:
        if any(same_option(option, o) for o in out + rejected_now):
            continue
        for sentence in sentences:
            text = sentence.text
            if (
                option_matches(option, text)
                and _REOPEN_RE.search(text)
                and not _REFUSED_REOPEN_RE.search(text)
            ):
                out.append(option)
                break
    return out


def _topic_shift(text: str, view: LedgerView) -> bool:
    if not _TOPIC_CUE_RE.search(text):
        return False
    earlier = [m for m in view.recent_user_messages if m.strip() != text.strip()]
    if not earlier:
        return False
    now = _content_tokens(text)
    before = set().union(*(_content_tokens(m) for m in earlier))
    return _overlap_of(now, before) < 0.2 if now else False


def _question_text(sentence: str) -> str:
    body = _strip_discourse(sentence)
    return _tidy(body, 140)


@dataclass
class _Findings:
    requirements: list[RequirementFinding] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    trajectory: str = ""
    choices: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    production_request: bool = False  # asks for work to be done (→ problem solving)
    answered: bool = False

    def add_requirement(self, text: str, confidence: float) -> None:
        if text and not any(text_similarity(text, r.text) >= 0.8 for r in self.requirements):
            self.requirements.append(RequirementFinding(text, round(confidence, 2)))

    def add_fact(self, text: str) -> None:
        if text and not any(text_similarity(text, f) >= 0.8 for f in self.facts):
            self.facts.append(text)


def _scan_statements(
    sentences: list[_Sentence],
    scan: _RejectionScan,
    reason_sentences: set[int],
    skip_sentences: set[int],
    view: LedgerView,
) -> _Findings:
    found = _Findings()
    rejection_clauses = scan.clauses
    in_list = False  # inside the items of a "Requirements:" list
    for sentence in sentences:
        if sentence.index in skip_sentences:
            continue
        if sentence.text.endswith((":", "：")) and _LIST_HEADER_RE.search(sentence.text):
            in_list = True
            continue
        in_list = in_list and sentence.bullet
        if sentence.question:
            _scan_question(sentence, found)
            continue
        before = len(found.requirements)
        if sentence.index == 0:
            answer = _bare_answer(sentence.text, view.last_assistant_message)
            if answer:
                found.add_requirement(answer, 0.6)
                found.answered = True
                found.trajectory = _tidy(sentence.text)
                continue
        previous: str | None = None
        for ci, clause in enumerate(sentence.clauses):
            rejected = (sentence.index, ci) in rejection_clauses
            if rejected and rejection_clauses[(sentence.index, ci)]:
                clause, rejected = rejection_clauses[(sentence.index, ci)], False
            previous = _scan_clause(
                clause,
                found,
                rejected=rejected,
                after_rejection=(sentence.index, ci - 1) in rejection_clauses,
                strong_only=sentence.index in reason_sentences
                or (sentence.index, ci) in scan.reason_clauses,
                previous=previous,
            )
        rejects = any(s == sentence.index for s, _ in rejection_clauses)
        if in_list and len(found.requirements) == before and not rejects:
            # Every item under "Requirements:" is one, however terse ("EU hosting only").
            found.add_requirement(_tidy(sentence.text), 0.7)
    for hit in scan.hits:
        if hit.inline_reason:
            _scan_clause(
                hit.reason,
                found,
                rejected=False,
                after_rejection=False,
                strong_only=True,
                previous=None,
            )
    return found


def _scan_question(sentence: _Sentence, found: _Findings) -> None:
    core = _strip_discourse(sentence.text.rstrip("?？ "))
    m = _CAN_YOU_ADD_RE.match(core)
    if m and _SCOPE_MARKER_RE.search(core):
        # "Can you add error handling for large files too?" asks for more scope.
        rest = _TRAILING_SCOPE_RE.sub("", m.group("rest"))
        found.add_requirement(_tidy(rest), 0.55)
        found.production_request = True
        return
    if _OUTPUT_VERB_RE.match(core) or _CAN_YOU_RE.match(core):
        found.production_request = True
    found.questions.append(_question_text(sentence.text))


def _scan_clause(
    clause: str,
    found: _Findings,
    *,
    rejected: bool,
    after_rejection: bool,
    strong_only: bool,
    previous: str | None,
) -> str | None:
    """Record what one clause states; return the requirement text it produced (for a
    following fragment such as "only PNG, JPEG and PDF" to attach to)."""
    core = _strip_discourse(clause)
    if not core:
        return previous
    fact = _AND_NEED_RE.split(core, maxsplit=1)[0]
    if _FACT_RE.search(fact) and not _STRONG_MODAL_RE.search(fact):
        found.add_fact(_tidy(fact))
    team = _team_size(core)
    if team:
        found.add_fact(team)
        if not strong_only:
            found.add_requirement(team, 0.6)
        return previous
    m = _OPEN_DECISION_RE.search(core)
    if m:
        found.questions.append(_tidy(m.group("what"), 140))
    if _UNSURE_RE.search(core):
        found.questions.append(_tidy(core, 140))
        return previous
    if rejected:
        return previous
    if previous is not None and _REASON_START_RE.match(clause.strip()):
        return previous  # "..., because tax law requires it" explains, it adds nothing
    picked = _choice(core)
    if picked:
        found.choices.append(picked)
        found.trajectory = _tidy(core)
        if not strong_only:
            found.add_requirement(_use(picked, core), 0.75)
        return previous
    if _TRAJECTORY_RE.search(core):
        found.trajectory = _tidy(core)
    if previous is not None and _ONLY_RE.match(core):
        merged = f"{previous} — {_tidy(core)[:1].lower()}{_tidy(core)[1:]}"
        found.requirements = [r for r in found.requirements if r.text != previous]
        found.add_requirement(merged, 0.8)
        return merged
    if not _INFO_VERB_RE.match(core) and (
        _OUTPUT_VERB_RE.match(core) or _BUILD_VERB_RE.match(core)
    ):
        found.production_request = True  # "sketch it", "write the script"; not "explain X"
    result = _requirement_from_clause(clause, strong_only=strong_only, previous=previous)
    if result is None and after_rejection and not strong_only and _looks_declarative(core):
        # "We're not doing gRPC; the APIs will be plain REST": what comes instead is decided.
        result = (_tidy(core), 0.7)
    if result is None:
        return None
    text, confidence = result
    parts = _split_conjoined(text)
    for part in parts:
        found.add_requirement(part, confidence)
    found.production_request = True
    return parts[-1]


# "Sessions must expire after 30 minutes and be revocable by admins": two predicates after one
# subject and modal are two requirements, each kept with the shared head. "Accept PNG and JPEG"
# or "keep access logs and audit trails" join nouns and stay one.
_SHARED_HEAD_RE = re.compile(
    r"^(?P<head>.*?\b(?:must|should|shall|needs?\s+to|has\s+to|have\s+to|is\s+required\s+to|"
    r"are\s+required\s+to|will\s+need\s+to)(?:\s+(?:also|always|never|not))?\s+)(?P<body>.+)$",
    re.I,
)
_AND_SPLIT_RE = re.compile(r"\s+and\s+(?:also\s+)?", re.I)
# Words that can only start a predicate.
_PREDICATE_ONLY_START_RE = re.compile(
    r"^(?:be|have|not|never|stay|remain|become|get|always)\b", re.I
)
# A verb that may also be a noun ("log", "audit") starts a predicate only when an object or
# adverbial follows it: "log every request", not "audit trails".
_OBJECT_AFTER_VERB_RE = re.compile(
    r"^\S+\s+(?:the|a|an|all|every|each|any|it|them|its|their|our|your|this|that|these|those|"
    r"to|in|on|into|with|by|after|before|within|at|for|from|per|up|out|back|\d)\b",
    re.I,
)


def _starts_predicate(words: str) -> bool:
    if len(words.split()) < 2:
        return False
    if _PREDICATE_ONLY_START_RE.match(words):
        return True
    verb = _SYSTEM_VERB_RE.match(words) or _BUILD_VERB_RE.match(words)
    return bool(verb) and bool(_OBJECT_AFTER_VERB_RE.match(words))


def _split_conjoined(text: str) -> list[str]:
    """One requirement per predicate when 'and' joins full predicates sharing a subject."""
    shared = _SHARED_HEAD_RE.match(text)
    head, body = (shared.group("head"), shared.group("body")) if shared else ("", text)
    verbs = (_SYSTEM_VERB_RE, _BUILD_VERB_RE, _PREDICATE_ONLY_START_RE)
    if not shared and not any(p.match(text) for p in verbs):
        return [text]  # neither "<subject> must …" nor an imperative
    parts: list[str] = []
    start = 0
    for m in _AND_SPLIT_RE.finditer(body):
        left, right = body[start : m.start()], body[m.end() :]
        if len(left.split()) >= 2 and _starts_predicate(right):
            parts.append(left)
            start = m.end()
    if not parts:
        return [text]
    parts.append(body[start:])
    return [_tidy(head + part) if head else _tidy(part) for part in parts]


def _looks_declarative(core: str) -> bool:
    return len(core.split()) >= 3 and bool(_DECLARATIVE_VERB_RE.search(core))


def _dialog_state(
    text: str, found: _Findings, hits: list[_RejectionHit], asked: bool
) -> DialogState:
    stripped = text.strip()
    acted = bool(found.requirements or hits)
    if _GREETING_RE.match(stripped) and len(stripped.split()) <= 8 and not acted:
        return "greeting"
    if _CLOSING_RE.search(stripped) and not acted and not found.questions:
        return "closing"
    if _CLARIFY_RE.match(stripped) or (asked and (found.answered or acted) and not found.questions):
        return "clarification"
    if acted or found.production_request:
        return "problem_solving"
    return "information_seeking"


def _without_confirmed(
    findings: list[RequirementFinding], confirmed: list[str], view: LedgerView
) -> list[RequirementFinding]:
    """ "Yes, 20 MB is the limit" confirms R1; it is neither a new requirement nor a
    restatement of it."""
    texts = [_content_tokens(text) for rid, text, _ in view.requirements if rid in confirmed]
    return [
        f
        for f in findings
        if not any(_overlap_of(_content_tokens(f.text), t) >= 0.5 for t in texts)
    ]


def _was_on_the_table(option: str, view: LedgerView, text: str) -> bool:
    """Rejecting what was being discussed is a change of direction; rejecting something
    nobody proposed is just a constraint."""
    earlier = [m for m in view.recent_user_messages if m.strip() != text.strip()][-3:]
    return any(option_matches(option, c) for c in [view.last_assistant_message, *earlier] if c)


# How much of one text the rules read. A message or reply longer than this is mostly pasted
# material (logs, code, documents); what the user asks of it sits at its start or its end.
# Bounding it keeps every rule's cost bounded too: some cues look back over the whole text,
# and a 1 MB paste must not freeze the app for minutes.
MESSAGE_HEAD, MESSAGE_TAIL = 4000, 2000
REPLY_HEAD, REPLY_TAIL = 12000, 4000


def _bounded(text: str, head: int, tail: int) -> str:
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n\n{text[-tail:]}"


def analyse_message(text: str, turn: int, view: LedgerView) -> Analysis:
    """Everything the deterministic rules can read from one user message (instant, offline).

    `turn` is accepted for symmetry with the LLM analyser; the rules themselves do not depend
    on it.
    """
    del turn
    # Pasted code is material to discuss, not statements: "return x" is no requirement.
    sentences = _sentences(_FENCED_CODE_RE.sub("\n", _bounded(text, MESSAGE_HEAD, MESSAGE_TAIL)))
    analysis = Analysis(source="heuristic")
    if not sentences:
        return analysis
    dropped_ids, drop_sentences = _dropped(sentences, view)
    scan = _find_rejections(sentences, drop_sentences)
    if not scan.hits:
        pronoun = _pronoun_rejection(sentences, view)
        if pronoun:
            scan.hits.append(pronoun)
            scan.clauses[(pronoun.sentence, 0)] = pronoun.cause
    hits = scan.hits
    reason_sentences = {
        s.index
        for s in sentences
        for h in hits
        if h.sentence != s.index and h.reason and s.text.strip(" .").endswith(h.reason)
    }
    asked = "?" in view.last_assistant_message or "？" in view.last_assistant_message
    found = _scan_statements(sentences, scan, reason_sentences, drop_sentences, view)

    analysis.rejections = [RejectionFinding(h.option, h.reason) for h in hits]
    analysis.reopened = _reopened(sentences, view, hits)
    analysis.dropped_ids = dropped_ids
    analysis.confirmed_ids = [
        rid for rid in _affirmed_ids(sentences, view, found.choices) if rid not in dropped_ids
    ]
    analysis.requirements = _without_confirmed(found.requirements, analysis.confirmed_ids, view)
    analysis.facts = found.facts
    analysis.trajectory = found.trajectory
    analysis.questions = list(dict.fromkeys(q for q in found.questions if q))
    analysis.pivot = bool(_PIVOT_RE.search(text)) or any(
        _was_on_the_table(h.option, view, text) for h in hits
    )
    analysis.topic_shift = _topic_shift(text, view)
    analysis.dialog_state = _dialog_state(text, found, hits, asked)
    return analysis


# ---------------------------------------------------------------------------------------------
# Re-advocacy: does a reply propose an option the user rejected?
# ---------------------------------------------------------------------------------------------

# Cues right before a mention, nearest wins; a longer cue ending at the same place beats a
# shorter one, so "don't use X" / "不用X" read as negative although they contain "use" / "用".
_NEGATIVE_BEFORE_RE = re.compile(
    # "no need to reconsider X" before the bare "no", so the longer cue is found at all.
    r"\b(?:no\s+need\s+to\s+(?:\w+\s+)?(?:use|add|revisit|reconsider|go\s+back\s+to|return\s+to)|"
    r"no|not|without|instead\s+of|rather\s+than|unlike|except(?:\s+for)?|other\s+than|"
    r"apart\s+from|besides|avoid(?:s|ing)?|drop(?:s|ping|ped)?|skip(?:ping)?|forget(?:ting)?"
    r"(?:\s+about)?|ditch(?:ing)?|replac(?:e|ing)|(?:migrat|mov)(?:e|ing)\s+(?:away\s+)?from|"
    r"away\s+from|off|against|rul(?:e|ed|ing)[\s-]+out|reject(?:ed|ing)?|exclud(?:e|ed|ing)|"
    r"no\s+longer|compared\s+(?:with|to)|than|versus|vs\.?|"
    r"(?:don'?t|do\s+not|won'?t|will\s+not|shouldn'?t|can'?t|cannot|never)\s+"
    r"(?:\w+\s+)?(?:use|using|need|want|add|go\s+with|recommend|suggest|propose|"
    r"go\s+back\s+to|return\s+to|revisit|reconsider|bring\s+back))\b"
    r"|不用|不要|别用?|不使用|不采用|既然不用|放弃了?|排除了?|除了|而不是|没有|不考虑|去掉|不再",
    re.I,
)
_POSITIVE_BEFORE_RE = re.compile(
    r"\b(?:use|using|into|to|with|via|in|on|onto|consider|considering|recommend|suggest|try|"
    r"adopt|adopting|add|adding|introduce|pick|choose|go\s+with|leverage|switch\s+to|"
    r"move\s+to|migrate\s+to|like|such\s+as|prefer|put|store|keep|back(?:ed)?\s+by|run|"
    r"deploy|i'd\s+(?:go\s+with|use|pick)|opt\s+for|let|alternatively|otherwise|or\s+else|"
    r"how\s+about|what\s+about|"
    # "let's go back to Kafka", "we could revisit Kafka": going back to an option proposes it.
    r"go(?:ing)?\s+back\s+to|return(?:ing)?\s+to|revisit(?:ing)?|reconsider(?:ing)?|"
    r"bring(?:ing)?\s+back|"
    r"(?:answer|choice|option|solution|pick|recommendation|bet|candidate|approach|fix|tool)\s+"
    r"(?:here\s+)?(?:is|would\s+be))\b"
    r"|建议(?:使用|用|采用)?|推荐|可以(?:用|考虑|使用)|使用|采用|改用|换成|迁移到|放到|存到|存入|放进|选择|考虑|"
    r"拆成|拆分成|改成|做成|引入|上|用",
    re.I,
)
_POSITIVE_AFTER_RE = re.compile(
    r"^\W{0,3}(?:(?:would|will|could)\s+(?:also\s+|equally\s+)?(?:be|work|handle|fit|give)|"
    r"(?:is|are|remains?)\s+(?:the\s+|a\s+)?(?:usual|best|natural|obvious|simplest|easiest|"
    r"right|ideal|recommended|standard|go-to|better|good|great|solid|strong|perfect|"
    r"sensible|clear)\b|fits|handles|gives\s+you|shines|excels|works\s+(?:well|best|great)|"
    r"is\s+(?:ideal|perfect|better|best|great)\s+for|"
    # "a Redis cache in front would help"
    r"(?:[\s-]+[\w-]+){0,4}\s+(?:would|could|will|can)\s+(?:really\s+)?(?:help|work|shine|"
    r"solve|simplify|handle|fit|be\s+(?:ideal|best|better|great|perfect|simpler|faster|easier|"
    r"the\s+(?:\w+est|best|right|way|answer|choice|pick)|(?:a\s+)?(?:good|great|natural|solid|"
    r"easy|quick|fast|sensible))|make\s+(?:\w+\s+){0,3}(?:much\s+|far\s+|a\s+lot\s+)?"
    r"(?:easier|simpler|faster|trivial|safer|cleaner))\b)|"
    r"(?:is|are)\s+(?:purpose[- ]built|designed|made|built|tailor[- ]made)\s+for|"
    # "Kafka might be worth revisiting", "Kafka deserves another look"
    r"^\W{0,3}(?:might|may|could|would|is|are)\s+(?:well\s+)?(?:be\s+)?worth\s+(?:revisiting|"
    r"reconsidering|another\s+look|a\s+(?:second\s+)?look|a\s+try)|"
    r"^\W{0,3}deserves?\s+(?:another|a\s+second|a\s+fresh)\s+look"
    r"|^(?:更好|最好|更合适|是最佳|是首选|很合适|非常适合|比较合适)",
    re.I,
)
_NEGATIVE_AFTER_RE = re.compile(
    r"^\W{0,3}(?:(?:is|was|has\s+been|were|are|had\s+been)\s+(?:now\s+|already\s+)?"
    r"(?:ruled\s+out|rejected|off\s+the\s+table|out|excluded|dropped|not\s+an?\s+option|"
    r"not\s+allowed|no\s+longer\s+an?\s+option|not\s+on\s+the\s+table|out\s+of\s+the\s+question|"
    r"a\s+no[- ]?go)|,?\s*(?:which|that)\s+you\s+(?:rejected|ruled\s+out|excluded|dropped)|"
    r"out\s+of\s+(?:the\s+picture|it|this|the\s+stack|scope)|"
    r"(?:is|was)\s+not\s+(?:wanted|welcome))"
    r"|^(?:被排除|已经排除|不行|不考虑|已被否决|被否决|已排除)",
    re.I,
)
# "..., but you ruled it out": an acknowledgement that covers the mentions before it.
_ACK_LATER_RE = re.compile(
    r"\b(?:(?:you|we)\s+(?:rejected|ruled\s+out|excluded|dropped|said\s+no\s+to)\s+"
    r"(?:it|that|this|them)|(?:it|that|this|which)\s+(?:was|is|has\s+been|had\s+been)\s+"
    r"(?:ruled\s+out|rejected|off\s+the\s+table|excluded))\b",
    re.I,
)
_NEGATOR_BEFORE_CUE_RE = re.compile(
    r"(?:\b(?:not|never|no|without)|n't)\s+(?:\w+\s+){0,1}$|(?:不|别|没)$", re.I
)
_READV_CLAUSE_SPLIT_RE = re.compile(r"\s*(?:;|；|:\s|：|[—–]|\s-\s|,|，|\(|\))\s*")


# "Option 2: Redis" — a list of proposals.
_PROPOSAL_LABEL_RE = re.compile(
    r"\b(?:option|alternative|candidate|recommendation|suggestion|choice|pick|answer|proposal)"
    r"\s*[\w.)-]{0,3}\s*[:：]\s*$|(?:建议|推荐|方案\s*\w?)\s*[:：]\s*$",
    re.I,
)
# "..., I would reconsider it": the reply argues for the option it just named.
_URGE_REOPEN_RE = re.compile(
    r"\b(?:i|we|you)\s*(?:would|'d|should|could|might\s+want\s+to)\s+(?:really\s+)?"
    r"(?:reconsider|revisit)\b|建议重新考虑",
    re.I,
)


CUE_WINDOW = 200


def _cue_before(prefix: str) -> str | None:
    """'neg' / 'pos' for the cue nearest the end of `prefix` (within a few words), or None."""
    if len(prefix) > CUE_WINDOW:
        # Only cues a few words before the mention count: look no further back than that
        # (cut at a word boundary), so a long clause costs no more than a short one.
        cut = len(prefix) - CUE_WINDOW
        space = prefix.find(" ", cut)
        prefix = prefix[space + 1 :] if space >= 0 else prefix[cut:]
    best: tuple[int, int, str] | None = None  # (end, -start, kind)
    for kind, pattern in (("neg", _NEGATIVE_BEFORE_RE), ("pos", _POSITIVE_BEFORE_RE)):
        for m in pattern.finditer(prefix):
            gap = prefix[m.end() :]
            if len(gap.split()) > 4 or len(_CJK_CHAR_RE.findall(gap)) > 6:
                continue
            candidate = (m.end(), -m.start(), kind)
            if best is None or candidate[:2] > best[:2]:
                best = candidate
    if best is None:
        return None
    _, neg_start, kind = best
    if kind == "pos" and _NEGATOR_BEFORE_CUE_RE.search(prefix[:-neg_start]):
        return "neg"
    return kind


def _mention_proposes(clause: str, start: int, end: int) -> bool | None:
    """True: proposes; False: mentions it as rejected; None: a neutral mention."""
    before, after = clause[:start], clause[end:]
    if _NEGATIVE_AFTER_RE.match(after):
        return False
    kind = _cue_before(before)
    if kind == "neg":
        return False
    if kind == "pos" or _POSITIVE_AFTER_RE.match(after):
        return True
    return None


def find_readvocacy(reply: str, rejected_options: list[str]) -> list[str]:
    """The rejected options that `reply` proposes again (not those it mentions as rejected)."""
    reply = _bounded(reply, REPLY_HEAD, REPLY_TAIL)
    proposed: list[str] = []
    for option in rejected_options:
        if not option.strip() or any(same_option(option, p) for p in proposed):
            continue
        if _proposes_option(reply, option):
            proposed.append(option)
    return proposed


def _code_uses(code: str, option: str) -> bool:
    """Code that imports or calls the option proposes it; a comment that names it does not."""
    for line in code.splitlines():
        statement = _CODE_COMMENT_RE.sub("", line)
        if statement.strip() and option_matches(option, statement):
            return True
    return False


def _proposes_option(reply: str, option: str) -> bool:
    if any(_code_uses(block, option) for block in _CODE_BLOCK_RE.findall(reply)):
        return True
    for sentence in _split_sentences(_FENCED_CODE_RE.sub("\n", reply)):
        if not option_matches(option, sentence):
            continue
        ack = _ACK_LATER_RE.search(sentence)
        if _URGE_REOPEN_RE.search(sentence):
            return True
        clauses = _READV_CLAUSE_SPLIT_RE.split(sentence)
        offset = 0
        for clause in clauses:
            position = sentence.find(clause, offset)
            offset = max(offset, position + len(clause))
            prefix = sentence[:position]
            # "Option 2: Redis" proposes; "Rejected options: Redis" does not.
            labelled = bool(_PROPOSAL_LABEL_RE.search(prefix)) and _cue_before(prefix) != "neg"
            for start, end in _option_spans(option, clause):
                if ack and position + start < ack.start():
                    continue
                verdict = _mention_proposes(clause, start, end)
                if verdict or (verdict is None and labelled and start < 3):
                    return True
    return False


# ---------------------------------------------------------------------------------------------
# Premature full answers
# ---------------------------------------------------------------------------------------------

# Turns at the start of a conversation where a complete solution is premature on its own: the
# facts it needs have usually not been given yet.
EARLY_TURNS = 2
_SUBSTANTIAL_CODE_LINES = 15
_SUBSTANTIAL_CODE_CHARS = 600
_PLAN_MIN_STEPS = 5

_FULL_SOLUTION_RE = re.compile(
    r"\b(?:here(?:'s|\s+is)\s+(?:the|a|your)\s+(?:complete|full|final|finished|entire|whole|"
    r"working|production[- ]ready)\s+(?:\w+\s+)?(?:implementation|code|solution|version|program|"
    r"script|module|app(?:lication)?|plan|design|answer)|(?:complete|full|final|entire|"
    r"production[- ]ready)\s+(?:implementation|solution|source\s+code|code\s+listing)|"
    r"final\s+answer|putting\s+it\s+all\s+together|the\s+full\s+code|ready\s+to\s+(?:deploy|ship)"
    r"\s+as[- ]is)\b"
    r"|完整(?:的)?(?:代码|实现|方案|解决方案|程序)|最终(?:的)?(?:方案|答案|版本|代码)",
    re.I,
)
_STEP_RE = re.compile(
    r"(?:^|(?<=\s))(?:step\s+)?(?P<n>\d{1,2})[.)]\s+(?P<body>.+?)(?=(?:\s(?:step\s+)?\d{1,2}[.)]\s)|$)"
    r"|第(?P<zh>[一二三四五六七八九十\d]+)步",
    re.I | re.M,
)


def _solution_markers(reply: str) -> list[str]:
    markers: list[str] = []
    blocks = _CODE_BLOCK_RE.findall(reply)
    sizes = [(len([ln for ln in b.splitlines() if ln.strip()]), len(b)) for b in blocks]
    big = [
        lines
        for lines, chars in sizes
        if lines >= _SUBSTANTIAL_CODE_LINES or chars >= _SUBSTANTIAL_CODE_CHARS
    ]
    if big:
        markers.append(f"complete code block ({max(big)} lines)")
    elif sum(lines for lines, _ in sizes) >= 2 * _SUBSTANTIAL_CODE_LINES:
        markers.append(f"code blocks totalling {sum(lines for lines, _ in sizes)} lines")
    phrase = _FULL_SOLUTION_RE.search(reply)
    if phrase:
        markers.append(f'full-solution phrase "{phrase.group().strip()}"')
    prose = _CODE_BLOCK_RE.sub(" ", reply)
    steps = [m for m in _STEP_RE.finditer(prose)]
    statements = [m for m in steps if m.group("zh") or not m.group("body").rstrip().endswith("?")]
    if len(statements) >= _PLAN_MIN_STEPS:
        markers.append(f"numbered plan ({len(statements)} steps)")
    return markers


def is_full_answer_attempt(reply: str) -> bool:
    """Does the reply present a complete solution (long code, 'complete implementation', a
    5+-step plan)? Used for the first-full-answer-attempt metric."""
    return bool(_solution_markers(reply))


def premature_markers(reply: str, open_requirement_count: int, turn: int) -> list[str]:
    """The full-solution markers of a reply that is premature, else [].

    A full solution is premature while requirements are still open, or in the first
    EARLY_TURNS turns, when the facts it depends on have usually not been given yet.
    """
    markers = _solution_markers(reply)
    if not markers or (open_requirement_count <= 0 and turn > EARLY_TURNS):
        return []
    return markers
