"""Reading a structured answer: the first JSON object in a model's text, validated.

Models wrap JSON in prose and fences, or write a second copy after the first; the analyser and
the judge both read their answer here, and a failure is one line saying why.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


class StructuredOutputError(ValueError):
    """A model's structured answer could not be used; the message says why."""


def extract_json(text: str) -> Any:
    """The first JSON object in a model answer (models wrap JSON in prose and fences)."""
    start = text.find("{")
    if start < 0:
        raise StructuredOutputError("no JSON object in the answer")
    decoder = json.JSONDecoder()
    for index in range(start, len(text)):
        if text[index] != "{":
            continue
        try:
            value, _end = decoder.raw_decode(text, index)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    raise StructuredOutputError("the answer holds no valid JSON object")


def validate_answer(model: type[M], text: str, label: str) -> M:
    """The first JSON object of a model answer, validated; one-line StructuredOutputError."""
    data = extract_json(text)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise StructuredOutputError(f"{label} field {where}: {first['msg']}") from None
