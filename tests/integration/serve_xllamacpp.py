"""llama.cpp's own server (llama-server's HTTP front and request handling), run by xllamacpp.

xllamacpp is a prebuilt wheel with llama.cpp inside, already installed by the `local` extra: it
serves the same OpenAI API (`/v1/chat/completions`, `/v1/models`, `/health`) and Anthropic
Messages API (`/v1/messages`) as the `llama-server` binary, so the server tests need no build of
llama.cpp. The flags are llama-server's long ones (`--ctx` for its `--ctx-size`), and so are
the defaults of those left out (the slots, the threads, no key):

    python serve_xllamacpp.py --model GGUF --port N --ctx 4096 [--api-key K] [--parallel N]

Runs until killed (SIGTERM to stop, SIGKILL to simulate a crash); llama.cpp logs to stderr.
"""

from __future__ import annotations

import argparse
import signal
import sys
from typing import Any

LOOPBACK = "127.0.0.1"
# llama-server's default: -1 picks the number of slots itself (4 today, sharing one KV cache).
AUTO_SLOTS = -1


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="the GGUF file")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ctx", type=int, default=0, help="context size (0: the model's)")
    parser.add_argument("--api-key", help="requests must carry this key (default: none)")
    parser.add_argument("--parallel", type=int, default=AUTO_SLOTS, help="slots (-1: auto)")
    parser.add_argument("--threads", type=int, help="generation and prompt threads")
    parser.add_argument("--alias", help="the model's name in /v1/models")
    parser.add_argument("--seed", type=int, help="default sampling seed")
    return parser.parse_args(argv)


def serve(args: argparse.Namespace) -> Any:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.hostnames = [LOOPBACK]
    params.port = args.port
    params.n_ctx = args.ctx
    params.n_parallel = args.parallel
    if args.api_key:
        params.api_keys = [args.api_key]
    if args.threads:
        params.cpuparams.n_threads = args.threads
        params.cpuparams_batch.n_threads = args.threads
    if args.alias:
        params.model_alias = {args.alias}
    if args.seed is not None:
        params.sampling.seed = args.seed
    # Listens from here on, in llama.cpp's own threads; the object must stay alive.
    return xllamacpp.Server(params)


def main(argv: list[str]) -> None:
    server = serve(parse(argv))
    print(f"listening on {server.listening_address}", flush=True)
    while True:
        signal.pause()


if __name__ == "__main__":
    main(sys.argv[1:])
