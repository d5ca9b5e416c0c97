"""Measure one local engine through LocalProvider, in a fresh process (README, Engines).

    python scripts/bench_local_engine.py llama-cpp-python
    python scripts/bench_local_engine.py xllamacpp

Prints one JSON line: the system prompt's load and decode, the first reply's first token and
tokens per second, the second turn's first token and cached prompt tokens, a JSON-schema call.
"""

import asyncio
import json
import sys
import time

from rcm_tui.config import LocalSettings
from rcm_tui.core import prompts
from rcm_tui.core.llm import ChatMessage, Finished, LLMRequest, TextDelta
from rcm_tui.providers.local import LocalProvider

SYSTEM = ChatMessage("system", prompts.SYSTEM_PROMPT)
MESSAGE = (
    "We are choosing a database for a payments ledger. It must handle 2,000 writes per second "
    "and we need strict ACID. Let's not use MongoDB, our compliance team wants SQL."
)
SCHEMA = {
    "type": "object",
    "properties": {
        "requirements": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
        "rejected": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
    },
    "required": ["requirements", "rejected"],
}


async def turn(provider: LocalProvider, request: LLMRequest) -> tuple[float, float, Finished, str]:
    started = time.perf_counter()
    first = 0.0
    text: list[str] = []
    finished = None
    async for event in provider.stream(request):
        if isinstance(event, TextDelta):
            first = first or time.perf_counter() - started
            text.append(event.text)
        else:
            finished = event
    assert finished is not None
    return first, time.perf_counter() - started, finished, "".join(text)


async def main(engine: str) -> dict[str, object]:
    provider = LocalProvider(LocalSettings(n_threads=1, engine=engine))
    started = time.perf_counter()
    await asyncio.to_thread(provider.preload, [SYSTEM])
    load = time.perf_counter() - started
    first_turn = [SYSTEM, ChatMessage("user", MESSAGE)]
    ttft1, total1, done1, answer = await turn(provider, LLMRequest(first_turn, "generation"))
    second_turn = [
        *first_turn,
        ChatMessage("assistant", answer),
        ChatMessage("user", "What about PostgreSQL with synchronous replication?"),
    ]
    ttft2, _, done2, _ = await turn(provider, LLMRequest(second_turn, "generation"))
    extract = LLMRequest(
        [
            ChatMessage("system", "Extract the requirements and rejected options. JSON only."),
            ChatMessage("user", MESSAGE),
        ],
        "analysis",
        json_schema=SCHEMA,
        max_tokens=200,
        temperature=0.0,
    )
    _, json_s, _, reply = await turn(provider, extract)
    try:
        json_ok = sorted(json.loads(reply)) == ["rejected", "requirements"]
    except ValueError:
        json_ok = False
    return {
        "engine": engine,
        "load_s": round(load, 2),
        "ttft1_s": round(ttft1, 2),
        "gen_tok_s": round(done1.usage.completion_tokens / (total1 - ttft1), 1),
        "ttft2_s": round(ttft2, 2),
        "prompt2": done2.usage.prompt_tokens,
        "cached2": done2.usage.cached_tokens,
        "json_ok": json_ok,
        "json_s": round(json_s, 2),
        "json": reply[:120],
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1]))))
