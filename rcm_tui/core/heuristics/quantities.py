"""Quantities as language-independent keys: "7-day" and "7天", "6 am" and "六点".

A requirement stated in Chinese and confirmed or restated in English shares almost no words
with its restatement, but it shares its numbers and their units. A key is (value, unit) with
the value in Arabic digits and the unit from a small table of units people constrain with.
"""

from __future__ import annotations

import re

from .text import NUMBER_WORDS

_UNITS = {
    "day": "day", "days": "day", "天": "day", "日": "day",
    "hour": "hour", "hours": "hour", "hr": "hour", "hrs": "hour", "h": "hour", "小时": "hour",
    "minute": "minute", "minutes": "minute", "min": "minute", "mins": "minute",
    "分钟": "minute", "second": "second", "seconds": "second", "sec": "second",
    "secs": "second", "秒": "second", "week": "week", "weeks": "week", "周": "week",
    "星期": "week", "month": "month", "months": "month", "个月": "month", "year": "year",
    "years": "year", "年": "year", "people": "person", "persons": "person",
    "person": "person", "人": "person", "名": "person", "am": "oclock", "pm": "oclock",
    "o'clock": "oclock", "点": "oclock", "yuan": "yuan", "rmb": "yuan", "元": "yuan",
    "块": "yuan", "%": "percent", "percent": "percent", "gb": "gb", "g": "gb",
    "mb": "mb", "tb": "tb", "kg": "kg", "公斤": "kg",
}  # fmt: skip
_LATIN_RE = re.compile(
    r"(?P<n>\d+(?:\.\d+)?|" + "|".join(NUMBER_WORDS) + r")\s*-?\s*(?P<u>days?|hours?|hrs?|h|"
    r"minutes?|mins?|seconds?|secs?|weeks?|months?|years?|people|persons?|am|pm|o'clock|yuan|"
    r"rmb|%|percent|gb|g|mb|tb|kg)\b",
    re.I,
)
_ZH_RE = re.compile(
    r"(?P<n>[\d一二两三四五六七八九十百千万]+)\s*(?P<u>个月|小时|分钟|星期|公斤|天|日|秒|周|年|"
    r"人(?!民)|名|点|元|块|GB|G|MB|TB)"
)
# An amount in 万 with no unit after it is money in Chinese ("预算30万", "30万 is the ceiling");
# "30万人民币" is the same amount.
_WAN_RE = re.compile(
    r"(?P<n>\d+(?:\.\d+)?)\s*万(?!\s*(?:人(?!民)|名|个|次|步|公里|米|字|张|条|件|台|辆|平|吨|册|份|家|户|粉))"
)
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9}  # fmt: skip
_ZH_POWERS = {"十": 10, "百": 100, "千": 1000, "万": 10000}


def _zh_number(text: str) -> int | None:
    """A Chinese (or Arabic) numeral: 七 → 7, 十五 → 15, 两百 → 200, 30 → 30."""
    if text.isdigit():
        return int(text)
    total, digit = 0, 0
    for char in text:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        elif char in _ZH_POWERS:
            total += (digit or 1) * _ZH_POWERS[char]
            digit = 0
        else:
            return None
    return total + digit


def _value(raw: str) -> str | None:
    low = raw.lower()
    if low in NUMBER_WORDS:
        return NUMBER_WORDS[low]
    number = _zh_number(raw) if not re.fullmatch(r"\d+\.\d+", raw) else None
    return str(number) if number is not None else (raw if raw[0].isdigit() else None)


# Money: "£30k" and "£30,000" and "三万镑" are one amount.
_CURRENCY = {"$": "usd", "£": "gbp", "€": "eur", "dollars": "usd", "bucks": "usd",
             "pounds": "gbp", "quid": "gbp", "euros": "eur", "美元": "usd", "刀": "usd",
             "镑": "gbp", "英镑": "gbp", "欧元": "eur", "欧": "eur"}  # fmt: skip
_MONEY_SIGN_RE = re.compile(r"(?P<u>[$£€])\s*(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<k>k|m)?\b", re.I)
_MONEY_WORD_RE = re.compile(
    r"(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<k>k|m)?\s*(?P<u>dollars|bucks|pounds|quid|euros)\b"
    r"|(?P<zn>[\d一二两三四五六七八九十百千万]+)\s*(?P<zu>美元|刀|英镑|镑|欧元|欧)",
    re.I,
)


def _money_keys(text: str) -> set[tuple[str, str]]:
    keys: set[tuple[str, str]] = set()
    for m in [*_MONEY_SIGN_RE.finditer(text), *_MONEY_WORD_RE.finditer(text)]:
        if m.groupdict().get("zn"):
            number = _zh_number(m.group("zn"))
            value = float(number) if number is not None else None
            unit = _CURRENCY[m.group("zu")]
        else:
            value = float(m.group("n").replace(",", ""))
            value *= {"k": 1e3, "m": 1e6}.get((m.group("k") or "").lower(), 1)
            unit = _CURRENCY[m.group("u").lower()]
        if value is not None:
            keys.add((f"{value:g}", unit))
    return keys


def quantity_keys(text: str) -> set[tuple[str, str]]:
    """(value, unit) for every quantity in `text`, the same in English and Chinese."""
    keys: set[tuple[str, str]] = _money_keys(text)
    keys |= {(f"{float(m.group('n')) * 10000:g}", "cny") for m in _WAN_RE.finditer(text)}
    for pattern in (_LATIN_RE, _ZH_RE):
        for m in pattern.finditer(text):
            value = _value(m.group("n"))
            unit = _UNITS.get(m.group("u").lower()) or _UNITS.get(m.group("u"))
            if value and unit:
                keys.add((value, unit))
    return keys
