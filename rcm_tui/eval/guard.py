"""`rcm-tui eval-guard FILE`: how well the re-advocacy guard catches replies that propose again
an option the user rejected, and how often it flags a reply that only mentions one.

FILE is JSON Lines, one item per line:
  conversation  the turns before the reply: the user's messages as strings, or
                [{"role": "user"|"assistant", "content": ...}]
  rejected      the options the user rejected (strings, or {"option": ...}); only the option
                name is handed to the guard, as the ledger holds nothing more
  reply         the assistant reply to judge
  proposes      the rejected options the reply proposes (a list), or true / false
  kind, how     labels to break the figures down by (e.g. kind "mention_only", how "member")
  lang          optional ("en", "zh"); "zh" when the reply has Chinese, if absent

Two modes, both on the heuristic path (no model is called):
- given (always): the guard is handed `rejected`, so only the guard is measured;
- end to end (`--end-to-end`): the conversation is played through the pipeline with the
  deterministic analyser (the scripted assistant turns as the offline provider's replies),
  then the reply is scored against the ledger that conversation produced.

A reply counts as flagged when the guard names any rejected option. Figures: recall (flagged
among proposing replies), precision (proposing among flagged), false flags on mention-only
replies (items whose kind or how says "mention"), each per `how` and per language.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.heuristics import find_readvocacy
from ..core.models import Message, Session
from ..core.turn import Pipeline, PipelineSettings
from ..providers.offline import OfflineProvider, scripted_reply

_CJK = re.compile(r"[\u4e00-\u9fff]")


class GuardDataError(ValueError):
    """A line of the guard data set that cannot be used; the message says which and why."""


@dataclass
class GuardItem:
    line: int
    item_id: str
    conversation: list[tuple[str, str]]
    rejected: list[str]
    reply: str
    proposes: bool
    kind: str
    how: str
    lang: str

    @property
    def mention_only(self) -> bool:
        return not self.proposes and "mention" in f"{self.kind} {self.how}".lower()


def _turns(raw: Any) -> list[tuple[str, str]]:
    turns: list[tuple[str, str]] = []
    for entry in raw or []:
        if isinstance(entry, str):
            turns.append(("user", entry))
        elif isinstance(entry, dict) and "role" in entry:
            turns.append((str(entry["role"]), str(entry.get("content", ""))))
        elif isinstance(entry, dict):
            # {"user": ..., "assistant": ...}, as in a replay script
            turns += [(role, str(entry[role])) for role in ("user", "assistant") if role in entry]
    return turns


def _item(number: int, data: Any) -> GuardItem:
    if not isinstance(data, dict) or "reply" not in data or "proposes" not in data:
        raise GuardDataError(f"line {number}: needs at least 'reply' and 'proposes'")
    rejected = [
        str(r.get("option", "")) if isinstance(r, dict) else str(r)
        for r in data.get("rejected") or []
    ]
    conversation = _turns(data.get("conversation"))
    lang = str(data.get("lang") or ("zh" if _CJK.search(str(data["reply"])) else "en"))
    return GuardItem(
        line=number,
        item_id=str(data.get("id", number)),
        conversation=conversation,
        rejected=[r for r in rejected if r.strip()],
        reply=str(data["reply"]),
        proposes=bool(data["proposes"]),
        kind=str(data.get("kind", "")),
        how=str(data.get("how", "")),
        lang=lang,
    )


def load_items(path: Path) -> list[GuardItem]:
    items: list[GuardItem] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise GuardDataError(f"line {number}: not JSON ({exc.msg})") from None
            items.append(_item(number, data))
    return items


@dataclass
class Tally:
    items: int = 0
    proposing: int = 0
    flagged: int = 0
    caught: int = 0
    mention_only: int = 0
    mention_flagged: int = 0
    missed: list[str] = field(default_factory=list)
    false_flags: list[str] = field(default_factory=list)

    def add(self, item: GuardItem, flags: list[str]) -> None:
        self.items += 1
        self.proposing += item.proposes
        self.flagged += bool(flags)
        self.caught += item.proposes and bool(flags)
        self.mention_only += item.mention_only
        self.mention_flagged += item.mention_only and bool(flags)
        if item.proposes and not flags:
            self.missed.append(item.item_id)
        if flags and not item.proposes:
            self.false_flags.append(item.item_id)

    def figures(self) -> dict[str, Any]:
        return {
            "items": self.items,
            "proposing": self.proposing,
            "recall": _ratio(self.caught, self.proposing),
            "precision": _ratio(self.caught, self.flagged),
            "flagged": self.flagged,
            "mention_only": self.mention_only,
            "mention_only_flagged": self.mention_flagged,
            "missed": self.missed,
            "false_flags": self.false_flags,
        }


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def score(items: Iterable[GuardItem], flags_of: Callable[[GuardItem], list[str]]) -> dict[str, Any]:
    total, by_how, by_lang = Tally(), dict[str, Tally](), dict[str, Tally]()
    for item in items:
        flags = flags_of(item)
        total.add(item, flags)
        by_how.setdefault(item.how or "-", Tally()).add(item, flags)
        by_lang.setdefault(item.lang, Tally()).add(item, flags)
    return {
        "total": total.figures(),
        "by_how": {k: v.figures() for k, v in sorted(by_how.items())},
        "by_lang": {k: v.figures() for k, v in sorted(by_lang.items())},
    }


def given_flags(item: GuardItem) -> list[str]:
    """The guard alone, handed the user's rejections."""
    return find_readvocacy(item.reply, item.rejected, as_reply=True)


# What the assistant said between two user messages when the data set gives only the user's
# side: a neutral acknowledgement, so no reply of ours mentions or proposes anything.
_FILLER_REPLY = "Noted."


def _exchanges(conversation: list[tuple[str, str]]) -> list[tuple[str, str | None]]:
    """(user message, scripted assistant reply) pairs; None for the reply under test."""
    pairs: list[tuple[str, str | None]] = []
    for role, content in conversation:
        if role == "user":
            pairs.append((content, _FILLER_REPLY))
        elif pairs:
            pairs[-1] = (pairs[-1][0], content)
    if pairs:
        pairs[-1] = (pairs[-1][0], None)
    return pairs


async def end_to_end_flags(item: GuardItem) -> list[str]:
    """The ledger the deterministic analyser extracts from the conversation, then the guard."""
    provider = OfflineProvider()
    settings = PipelineSettings(
        profile="lean", max_refinement_attempts=0, consolidation_interval=0, status_interval=0
    )
    pipeline = Pipeline(provider, provider, settings)
    session = Session()
    for user, assistant in _exchanges(item.conversation):
        session.messages.append(Message(role="user", content=user, turn=session.turn + 1))
        with scripted_reply(assistant or item.reply):
            await pipeline.run_turn(session, user)
    await pipeline.drain()
    last_record = session.quality[-1] if session.quality else None
    return list(last_record.readvocated) if last_record else []


def run(items: list[GuardItem], end_to_end: bool) -> dict[str, Any]:
    result: dict[str, Any] = {"given": score(items, given_flags)}
    if end_to_end:
        cache = {id(i): asyncio.run(end_to_end_flags(i)) for i in items}
        result["end_to_end"] = score(items, lambda i: cache[id(i)])
    return result


def _line(name: str, f: dict[str, Any]) -> str:
    def show(x: float | None) -> str:
        return "   -" if x is None else f"{x:4.2f}"

    return (
        f"  {name:22} n={f['items']:<4} proposing={f['proposing']:<4} "
        f"recall={show(f['recall'])} precision={show(f['precision'])} "
        f"mention-only flagged={f['mention_only_flagged']}/{f['mention_only']}"
    )


def render(result: dict[str, Any]) -> str:
    out: list[str] = []
    for mode, label in (("given", "rejections given"), ("end_to_end", "end to end")):
        if mode not in result:
            continue
        figures = result[mode]
        out.append(f"{label}:")
        out.append(_line("total", figures["total"]))
        out += [_line(f"how={k}", v) for k, v in figures["by_how"].items()]
        out += [_line(f"lang={k}", v) for k, v in figures["by_lang"].items()]
    return "\n".join(out)


def run_guard_command(args: argparse.Namespace) -> int:
    items = load_items(args.file)
    result = run(items, args.end_to_end)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(render(result))
        if args.verbose:
            for mode, figures in result.items():
                total = figures["total"]
                print(f"{mode} missed: {' '.join(total['missed']) or '-'}")
                print(f"{mode} false flags: {' '.join(total['false_flags']) or '-'}")
    print(f"rcm-tui: {len(items)} item(s) of {args.file}", file=sys.stderr)
    return 0
