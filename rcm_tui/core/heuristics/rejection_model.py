"""A small learned judge of rejections, shipped as package data (issue 12).

Hand rules saturate: each freshly written batch of conversations scored 0.37–0.56 rejection
recall before rules were tuned on it. The rules still find *where* an option sits in a clause;
this model judges *whether* the sentence turns that option down, from how the rest of the
sentence reads once the option is masked ("OPT is a relic", "OPT家里已经有一台了，不用再买"),
so what it learns carries over to options it never saw.

Candidates per sentence: the topic each clause opens with and the items of the assistant's
recent lists the sentence names (the options on the table); the options rules extracted are
training examples too. A candidate on the table is added when the model is confident and no
rule read an option of the table in that sentence. The model does not veto rule hits: across
the corpus a rule hit is wrong about one time in sixteen, too rarely to learn when.

The model is a logistic regression over hashed features — word and word-pair features of the
masked sentence, the words right before and after the option, Chinese character n-grams, and
the existing cues (rule family, hedge, negative evaluation, question, proposed by the
assistant). `scripts/train_rejection_model.py` trains it from the ledger corpus and the labels
in `corpus/ledger/rejection_labels.jsonl` to the one minimum of an L2-penalised loss (so a rule
edit that changes a few training candidates moves the weights a little, not the whole model);
inference here is pure Python.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import json
import math
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..ledger_snapshot import LedgerSnapshot
from .options import option_matches, option_spans, same_option, strip_option_noise
from .proposals import clause_topics, hedged, negative_verdict
from .rejections import RejectionHit, RejectionScan, choice
from .sentences import Sentence, strip_discourse, tidy
from .sentiment import sentiment_words, valence_counts
from .text import CJK, CJK_CHAR_RE, REASON_EDGE_PUNCT, STOPWORDS, ZH_ACKNOWLEDGEMENT

MODEL_PATH = Path(__file__).with_name("rejection_model.json.gz")
HASH_BITS = 18
# A candidate no rule read becomes a rejection from this score: high, because a false
# rejection removes an option from every later answer (chosen by leave-one-batch-out
# cross-validation: precision about 0.8 there).
RESCUE_FROM = 0.6
# A condition, a price or a number cut in half ("价格一(万二)") is no option.
_NOT_AN_OPTION_ZH_RE = re.compile(
    r"的话|如果|要是|假如|价格|价钱|预算|评分|[一二三四五六七八九十两百千万]$|"
    # A connective or a verb of opinion opens a clause ("然后帮我找…", "感觉非常好").
    r"^(?:然后|所以|但是|不过|而且|另外|还有|对了|感觉|觉得|认为)$|" + ZH_ACKNOWLEDGEMENT
)
# "Could you get me alternative residences?": more of the kind is asked for, not turned down.
_MORE_OF_THE_KIND = r"\b(?:alternative|another|different|other)\s+"
_PERSONAL = frozenset("i i'm i'd i've we we're we'd you he she they it it's that that's".split())
_ASKING = r"(?:please|pls|let'?s|can\s+you|could\s+you|would\s+you)"
# What keeps an option: a hedge ("not sure", 担心, 可能), a concession ("isn't a dealbreaker",
# "is sufficient", 也不是不行) or what the speaker lacks ("we hold no licence": a fact).
_KEPT_RE = re.compile(
    r"担心|怕|犹豫|不(?:确|肯)定|再看看|再想想|也?不是不|不排斥|不介意|不反对|(?:并无|没有?|毫无)(?:成见|意见)"
    r"|可能|也许|还行|也行|就够(?:用)?了|足够了"
    # Not knowing it yet ("深蓝我没怎么了解过", "never heard of Coolify") or keeping it in
    # reserve ("先留着当备选", "not saying it's bad"): weighed, not turned down.
    r"|没(?:怎么|太)?了解过?|不太?了解|没听说过|不熟悉|留着|备选|备用|不是说(?:它|他|她)?不好"
    r"|\b(?:not\s+familiar|never\s+heard|(?:don'?t|do\s+not)\s+know\s+(?:much\s+)?about|"
    r"as\s+(?:a|the)\s+(?:backup|fallback|back-up|plan\s+b))\b"
    r"|\b(?:not\s+sure|unsure|might|maybe|perhaps|wonder\w*|worried|not\s+against|"
    r"(?:do\s+not|don'?t)\s+mind|open\s+to|no\s+objections?\s+to|not\s+opposed\s+to|"
    r"(?:would|'d)\s+not\s+say\s+no\s+to|wouldn'?t\s+say\s+no\s+to|"
    r"(?:is|are|'s|'re)(?:n'?t|\s+not)\s+(?:a\s+)?(?:deal\s*-?breakers?|an?\s+issue|a\s+problem)|"
    r"(?:is|are|'s|'re)\s+(?:sufficient|enough|acceptable)|"
    r"(?:we|i)\s+(?:have|has|hold|own|'ve\s+got)\s+no)\b",
    re.I,
)

# A modal right after the option makes it the subject of a need.
_CONSTRAINED_RE = re.compile(
    r"\s*(?:一定要|必须|要能|最好|务必)"
    r"|\s+(?:must|has\s+to|have\s+to|should|ought\s+to)\b",
    re.I,
)
# ... or a need right before it asks for it ("also has to be wet", "It has to take Alertmanager
# webhooks", "必须支持微信"), unless the words between turn it away ("has to avoid X", "必须去掉X")
# or only say something about it ("I have to say X is a nightmare").
_NEEDED_BEFORE_RE = re.compile(
    r"(?:\b(?:must|has\s+to|have\s+to|needs?\s+to|got\s+to|gotta)\s+(?:[\w'-]+\s+){0,3}"
    r"|(?:必须|一定要|得要|需要|要能|得能)[\u4e00-\u9fff]{0,4})$",
    re.I,
)
_TURNED_AWAY_RE = re.compile(
    r"[不别没免避换除掉]|\b(?:not|no|never|avoid|without|except|skip|ditch|drop|lose|stop|quit|"
    r"replace|rule|cut|get\s+rid|say|admit|confess|tell|warn|mention|agree|point\s+out)\b",
    re.I,
)
_PREFERRED_OVER_RE = re.compile(r"\s*(?:over|instead\s+of|rather\s+than)\b", re.I)
_EXCEPTION_FRAME_RE = re.compile(r"\s*(?:除了|except\b|apart\s+from\b|other\s+than\b)", re.I)
_WORD_RE = re.compile(rf"[A-Za-z0-9](?:[A-Za-z0-9'+#.-]*[A-Za-z0-9+#])?|[{CJK}]+")
_CJK_RUN_RE = re.compile(rf"[{CJK}]+")
_MASK = "OPT"
# Words that never open or close an option phrase taken from a reply.
_EDGE_WORDS = STOPWORDS | frozenset(
    """not no never don't doesn't isn't won't can't too so because since then than ideas
    options idea option maybe lot bit way time kind sort great good fine once out up off""".split()
)


@dataclass(frozen=True)
class Candidate:
    option: str
    sentence: int
    # "rule:<family>" for an option a rule extracted, "topic" otherwise.
    source: str


@dataclass(frozen=True)
class RejectionModel:
    weights: dict[int, float]
    bias: float

    def probability(self, feats: list[str]) -> float:
        z = self.bias + sum(self.weights.get(h, 0.0) for h in hashed(feats))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_json(self) -> dict[str, Any]:
        return {
            "hash_bits": HASH_BITS,
            "bias": round(self.bias, 5),
            "weights": {str(k): round(v, 5) for k, v in sorted(self.weights.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RejectionModel:
        if data.get("hash_bits") != HASH_BITS:
            raise ValueError("rejection model was trained with another feature hashing")
        return cls({int(k): float(v) for k, v in data["weights"].items()}, float(data["bias"]))


@functools.lru_cache(maxsize=1)
def packaged_model() -> RejectionModel:
    with gzip.open(MODEL_PATH, "rt", encoding="utf-8") as fh:
        return RejectionModel.from_json(json.load(fh))


# The model in use: the packaged one, or one an evaluation trained on other folds.
_active: list[RejectionModel] = []


def use_model(model: RejectionModel | None) -> None:
    """Score with `model` instead of the packaged one (cross-validation); None restores it."""
    _active[:] = [model] if model is not None else []


def current_model() -> RejectionModel:
    return _active[0] if _active else packaged_model()


def hashed(feats: list[str]) -> list[int]:
    mask = (1 << HASH_BITS) - 1
    return [zlib.crc32(f.encode("utf-8")) & mask for f in feats]


def _masked(text: str, option: str) -> str:
    spans = option_spans(option, text)
    if not spans:
        at = text.lower().find(option.lower())
        spans = [(at, at + len(option))] if at >= 0 else []
    for start, end in reversed(spans[:1]):
        text = f"{text[:start]} {_MASK} {text[end:]}"
    return text


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for word in _WORD_RE.findall(text):
        if CJK_CHAR_RE.match(word):
            out.extend(word)  # one token per character: Chinese has no spaces to split on
        else:
            out.append(word if word == _MASK else word.lower())
    return out


def features(text: str, option: str, source: str, *, proposed: bool, question: bool) -> list[str]:
    """What the model sees of one (sentence, candidate option) pair."""
    masked = _masked(text, option)
    tokens = _tokens(masked)
    # Only a rule's family is a feature, not whether a rule read the candidate: that would
    # teach the model to trust the rules and nothing else.
    feats = [f"src:{source}"] if source.startswith("rule:") else []
    feats += [f"w:{t}" for t in tokens]
    feats += [f"b:{a}_{b}" for a, b in itertools.pairwise(tokens)]
    if _MASK in tokens:
        at = tokens.index(_MASK)
        feats += [f"l{i}:{tokens[at - i]}" for i in (1, 2, 3) if at - i >= 0]
        feats += [f"r{i}:{tokens[at + i]}" for i in (1, 2, 3) if at + i < len(tokens)]
        feats.append(f"pos:{min(at, 3)}")
        feats.append(f"after:{min(len(tokens) - at - 1, 6)}")
    else:
        feats.append("unmasked")
    for run in _CJK_RUN_RE.findall(masked):
        feats += [f"c3:{run[i : i + 3]}" for i in range(len(run) - 2)]
    rest = masked.split(_MASK, 1)[-1]
    negative, positive = sentiment_words()
    after = _tokens(rest)
    feats.append(f"negwords:{min(sum(t in negative for t in tokens), 2)}")
    feats.append(f"negwords_after:{min(sum(t in negative for t in after), 2)}")
    feats.append(f"poswords_after:{min(sum(t in positive for t in after), 2)}")
    feats += [
        f"proposed:{proposed}",
        f"question:{question}",
        f"hedge:{hedged(masked)}",
        f"negative_after:{negative_verdict(rest)}",
        f"zh:{bool(CJK_CHAR_RE.search(text))}",
        f"optlen:{min(len(_tokens(option)), 5)}",
        f"optcap:{option[:1].isupper()}",
    ]
    return feats + _option_shape(option)


def _option_shape(option: str) -> list[str]:
    """What the option phrase itself looks like: a name or a noun phrase ("Nextcloud", "强化复合")
    or a piece of a clause a rule cut wrongly ("就是不知道防水行", "同事骑了半年电池")."""
    tokens = _tokens(option)
    if not tokens:
        return []
    feats = [f"o:{t}" for t in tokens]
    feats += [f"o_first:{tokens[0]}", f"o_last:{tokens[-1]}"]
    return feats


_ITEM_SPLIT_RE = re.compile(
    r"\s*(?:[,;:、，；：。.!?()\n]|\bor\b|\band\b|或者|还是|或|和)\s*", re.I
)
_DETERMINER_RE = re.compile(
    r"^(?:(?:a|an|the|some|maybe|also|like|try|consider|options?)\s+)+", re.I
)


_PREPOSITION_RE = re.compile(r"\s+(?:for|in|with|of|at|on|to|from|by|near|like)\s+", re.I)


_NAME_IN_ZH_RE = re.compile(r"[A-Za-z][A-Za-z0-9.+#-]*(?:\s[A-Z0-9][A-Za-z0-9.+#-]*)*")


def proposed_items(proposal: str) -> list[str]:
    """The items of the lists in the assistant's replies ("a cruise, a road trip, or a city
    break in Rome"), without their determiners: the options on the table."""
    items = (_DETERMINER_RE.sub("", p.strip()) for p in _ITEM_SPLIT_RE.split(proposal))
    return [i for i in items if i and len(i.split()) <= 5]


def _mentions(text: str, items: list[str]) -> list[str]:
    """Proposed items the sentence names (whole, or by the head noun an English item ends
    with: "the boat" for "a boat trip" is not one, "the cruise" for "a cruise" is)."""
    found: list[str] = []
    for item in items:
        spans = option_spans(item, text)
        if not spans and CJK_CHAR_RE.search(item):
            # "HubSpot 免费版": the name in a Chinese item.
            names = _NAME_IN_ZH_RE.findall(item)
            spans = option_spans(names[0], text) if names and len(names[0]) > 2 else []
        elif not spans:
            # The head noun ends the phrase before a preposition: "DJ for the evening" → DJ.
            head = _PREPOSITION_RE.split(item)[0].split()[-1]
            if head.lower() not in _EDGE_WORDS and len(head) > 2:
                spans = option_spans(head, text)
        if spans:
            start, end = spans[0]
            found.append(text[start:end])
    return found


def candidates(
    sentences: list[Sentence], scan: RejectionScan, proposal: str, skip: set[int]
) -> list[Candidate]:
    """Every option the model judges: rule hits first, then clause topics and proposed items
    that no rule hit names."""
    out = [Candidate(h.option, h.sentence, f"rule:{h.family or 'design'}") for h in scan.hits]
    items = proposed_items(proposal)
    for sentence in sentences:
        if sentence.index in skip:
            continue
        taken = [c.option for c in out if c.sentence == sentence.index]
        found = [
            (t, "topic") for clause in sentence.clauses for t in clause_topics(clause, proposal)
        ]
        found += [(m, "mention") for m in _mentions(sentence.text, items)]
        for option, source in found:
            if option and not any(same_option(option, t) for t in taken):
                taken.append(option)
                out.append(Candidate(option, sentence.index, source))
    return out


def candidate_features(candidate: Candidate, sentences: list[Sentence], proposal: str) -> list[str]:
    sentence = sentences[candidate.sentence]
    proposed = bool(proposal) and option_matches(candidate.option, proposal)
    return features(
        sentence.text,
        candidate.option,
        candidate.source,
        proposed=proposed,
        question=sentence.question,
    )


def proposal_text(view: LedgerSnapshot) -> str:
    return "\n".join([*view.earlier_assistant_messages, view.last_assistant_message]).strip()


def _after(text: str, option: str, missing: str = "") -> str:
    """What the sentence says after the option (`missing` when it does not name it)."""
    return text[text.find(option) + len(option) :] if option in text else missing


# What only stresses the verdict ("I'm not driving a rental truck, period.") gives no reason.
_EMPHATIC_CLOSER_RE = re.compile(
    r"^(?:period|full\s+stop|end\s+of\s+(?:story|discussion)|no\s+exceptions?|hard\s+stop)"
    r"(?:\s*[,.;:!—–-]+\s*|\s*$)",
    re.I,
)


def reason_after(text: str, option: str) -> str:
    """The reason a sentence gives after the option it turns down ("X, too slow" → "Too slow")."""
    rest = _EMPHATIC_CLOSER_RE.sub("", _after(text, option).strip(REASON_EDGE_PUNCT))
    return tidy(strip_discourse(rest.strip(REASON_EDGE_PUNCT)), 200)


def _praised(text: str, option: str) -> bool:
    """Praise and no complaint after the option ("Heroku is great, we know it well"), or a
    wish for it in its clause ("I would like to go to something about Music", "周边的景点我还是
    挺感兴趣的")."""
    after = _tokens(_after(text, option, missing=text))
    negative, positive = valence_counts(after)
    if positive > 0 and negative == 0:
        return True
    clause = next((c for c in _CLAUSE_RE.split(text) if option in c), "")
    return bool(_WANTED_RE.search(clause)) and not _NEGATED_RE.search(clause)


def _chosen(text: str, option: str) -> bool:
    """A clause picks the option ("lets go with zulip, I'll ask IT for a test server"): the
    one chosen is not the one turned down, however the rest of the sentence reads."""
    # A question picks nothing ("Basecamp lacks time tracking then?").
    stated = (c.group(1) for c in _CLAUSE_END_RE.finditer(text) if c.group(2) not in ("?", "？"))
    picked = (choice(piece.strip()) for piece in stated)
    # "kinesis on-demand it is": the option named in what is picked.
    return any(p and (same_option(option, p) or option_matches(option, p)) for p in picked)


_CLAUSE_RE = re.compile(r"[,，。.;；!！?？]")
_CLAUSE_END_RE = re.compile(r"([^,，。.;；!！?？]+)([,，。.;；!！?？]?)")
_WANTED_RE = re.compile(
    r"\b(?:i|we)(?:'d|\s+would)\s+(?:really\s+)?(?:like|love)\b|\binterested\s+in\b|\bkeen\s+on\b"
    r"|\b(?:want|wanna)\s+to\s+(?:go|visit|see|try|book)\b|\btake\s+(?:me|us)\s+to\b"
    # "I require a psychologist", "We need a plumber": the need names what is wanted.
    r"|\b(?:i|we)\s+(?:really\s+|just\s+|still\s+)?(?:require|need|want)\s+(?:a|an|the|some)\b"
    # "我要从酒店打出租到动物园": where the user is going.
    r"|感兴趣|想去|想吃|想看|想玩|想试|喜欢|爱吃|(?:要|想)(?:从[\u4e00-\u9fff]{1,12}?)?(?:打车|打出租|打的|坐车|开车|坐地铁)?(?:去|到)",
    re.I,
)
_NEGATED_RE = re.compile(
    r"不(?![过错少])|没|别|n't\b|\b(?:not|no|never|hate|rather\s+not)\b|讨厌", re.I
)


def _cut_from_a_name(option: str, text: str) -> bool:
    """ "汉庭酒店(北" or "簋街总店" of "胡大饭馆(簋街总店)": a piece of a name with its branch in
    brackets, not the name."""
    opened = option.count("(") + option.count("（")
    closed = option.count(")") + option.count("）")
    start = text.find(option)
    return opened != closed or (start > 0 and text[start - 1] in "(（")


def _rescuable(option: str, proposal: str, *, text: str) -> bool:
    """Only an option the assistant put on the table is added: a sentence's opening words are
    an option far less often, and across the corpus the model was not precise enough on them
    (scripts/train_rejection_model.py --cv)."""
    return plausibly_rejected(option, text) and bool(proposal) and option_matches(option, proposal)


def _needed(text: str, option: str) -> bool:
    """A need in the option's clause asks for it: "also has to be wet", "必须支持微信"."""
    at = text.find(option)
    if at < 0:
        return False
    before = _CLAUSE_RE.split(text[:at])[-1]
    need = _NEEDED_BEFORE_RE.search(before)
    return need is not None and not _TURNED_AWAY_RE.search(need.group())


def plausibly_rejected(option: str, text: str) -> bool:
    """Could `text` turn `option` down at all? Not when it praises it, asks for it, states a need
    about it or hedges, nor when the "option" is a pronoun, an adverb or a condition."""
    if _praised(text, option) or _chosen(text, option):
        return False
    words = option.strip(" .,!?;:").lower().split()
    if not words or words[0] in _EDGE_WORDS or words[-1] in _EDGE_WORDS:
        return False  # "If", "too heavy", "Sounds good": no option
    if _NOT_AN_OPTION_ZH_RE.search(option) or _cut_from_a_name(option, text):
        return False  # "下雨的话": a condition
    asked_for = rf"\b{_ASKING}\s+(?:(?:also|just|now|then|still|too)\s+)?{re.escape(option)}\b"
    if re.search(_MORE_OF_THE_KIND + re.escape(option), text, re.I):
        return False
    if words[0] in _PERSONAL or re.search(asked_for, text, re.I):
        return False  # "I just wanted…", "Please look in Pleasanton": a subject or a verb
    after = _after(text, option)
    if _CONSTRAINED_RE.match(after) or _needed(text, option):
        return False  # "地面一定要防滑", "the crate must fit": a need about it, not a refusal
    if _PREFERRED_OVER_RE.match(after):
        return False  # "prefer grafana over it": the one preferred, over the one turned down
    if _EXCEPTION_FRAME_RE.match(after):
        return False  # "婚庆公司除了金夫人，其他都可以": the kind, of which one is excepted
    # "I'm not against Kafka", "徒步的话，我担心…可能有点累", "Certified is sufficient": a
    # hedge or a concession keeps the option; on data it was not trained on, the model's
    # additions in such sentences were mostly wrong (dev6-dev8).
    return not _KEPT_RE.search(text)


def apply_model(
    sentences: list[Sentence], scan: RejectionScan, view: LedgerSnapshot, skip: set[int]
) -> None:
    """Add the option of the table a sentence turns down when no rule read it, or when the
    rules read only words that were not on the table ("小牛那款我同事骑了半年电池就不行了":
    the rule took "同事骑了半年电池", the model takes 小牛)."""
    model = current_model()
    proposal = proposal_text(view)
    best: dict[int, tuple[float, Candidate]] = {}
    # A question weighs an option ("What's the operational burden of Envoy?"): never added.
    asked = {s.index for s in sentences if s.question}
    for cand in candidates(sentences, scan, proposal, skip | asked):
        if cand.source.startswith("rule:"):
            continue
        text = sentences[cand.sentence].text
        if not _rescuable(cand.option, proposal, text=text):
            continue
        p = model.probability(candidate_features(cand, sentences, proposal))
        if p >= RESCUE_FROM and p > best.get(cand.sentence, (0.0, cand))[0]:
            best[cand.sentence] = (p, cand)
    for index, (_, cand) in sorted(best.items()):
        if any(same_option(cand.option, h.option) for h in scan.hits):
            continue
        ruled = [h for h in scan.hits if h.sentence == index]
        if any(
            option_matches(h.option, proposal) or not CJK_CHAR_RE.search(h.option) for h in ruled
        ):
            continue  # the rules read an option of the table here, or an English phrase: theirs
        # Chinese has no spaces: the rules' cut was wrong when it holds nothing of the table.
        scan.hits[:] = [h for h in scan.hits if h not in ruled]
        reason = reason_after(sentences[index].text, cand.option)
        # "Swimming... honestly water and me are not friends": the option, not its dots.
        option = strip_option_noise(cand.option) or cand.option
        scan.hits.append(RejectionHit(option, reason, index, 0, False, "", False, "model"))
        scan.clauses[(index, 0)] = ""
        # The rest of the sentence explains the rejection: only a strongly worded need is read.
        scan.reason_clauses.update((index, ci) for ci in range(1, len(sentences[index].clauses)))


__all__ = [
    "RESCUE_FROM",
    "Candidate",
    "RejectionModel",
    "apply_model",
    "candidate_features",
    "candidates",
    "current_model",
    "features",
    "packaged_model",
    "plausibly_rejected",
    "proposal_text",
    "proposed_items",
    "reason_after",
    "use_model",
]
