"""Asking a server how large its model is, for the "auto" profile (core/profile.py).

No API field says it, but local servers do: llama.cpp's llama-server lists the model with
`meta.n_params` in `GET /v1/models`; Ollama answers `POST /api/show` with
`model_info["general.parameter_count"]` (and `details.parameter_size`, e.g. "8.0B").
llama-cpp-python's server and the hosted APIs report nothing; the profile then waits for the
first turn's evidence. One short request each, once per provider, failures ignored.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urlsplit

import httpx2

log = logging.getLogger("rcm_tui.providers")

PROBE_TIMEOUT_S = 3.0
# Hosted APIs report no size; they are not asked.
HOSTED = ("api.openai.com", "api.anthropic.com")
_SIZE_TEXT = re.compile(r"^\s*([\d.]+)\s*([KMBT])\s*$", re.IGNORECASE)
_SCALE = {"K": 1e3, "M": 1e6, "B": 1e9, "T": 1e12}


def server_root(base_url: str) -> str:
    """The server's root URL: an OpenAI base URL ends in /v1, an Anthropic one does not."""
    root = base_url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


def parameter_size(text: str) -> int | None:
    """Ollama's "135M" / "8.0B" as a number of parameters."""
    found = _SIZE_TEXT.match(text)
    if not found:
        return None
    return int(float(found[1]) * _SCALE[found[2].upper()])


def n_params_in_models(payload: Any, model: str) -> int | None:
    """llama-server's `meta.n_params` for `model` (or for its only model) in /v1/models."""
    entries = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(entries, list):
        return None
    listed = [e for e in entries if isinstance(e, dict)]
    # A server started without an alias lists the model by its file path, not by the name
    # the user typed: with one model there is no doubt which one answers.
    chosen = [e for e in listed if e.get("id") == model] or (listed if len(listed) == 1 else [])
    meta = chosen[0].get("meta") if chosen else None
    params = meta.get("n_params") if isinstance(meta, dict) else None
    return params if isinstance(params, int) and params > 0 else None


def parameters_in_show(payload: Any) -> int | None:
    """Ollama's parameter count in an /api/show answer."""
    if not isinstance(payload, dict):
        return None
    info = payload.get("model_info")
    count = info.get("general.parameter_count") if isinstance(info, dict) else None
    if isinstance(count, int) and count > 0:
        return count
    details = payload.get("details")
    text = details.get("parameter_size") if isinstance(details, dict) else None
    return parameter_size(text) if isinstance(text, str) else None


async def reported_parameters(
    base_url: str, model: str, api_key: str = ""
) -> tuple[int, str] | None:
    """(parameters, who said so) from the server behind `base_url`, or None."""
    if urlsplit(base_url).hostname in HOSTED:
        return None
    root = server_root(base_url)
    headers = {"Authorization": f"Bearer {api_key}", "x-api-key": api_key} if api_key else {}
    async with httpx2.AsyncClient(timeout=PROBE_TIMEOUT_S, headers=headers) as client:
        models = await _json(client.get(f"{root}/v1/models"))
        params = n_params_in_models(models, model)
        if params:
            return params, "reported by the server's /v1/models"
        shown = await _json(client.post(f"{root}/api/show", json={"model": model}))
        params = parameters_in_show(shown)
        if params:
            return params, "reported by the server's /api/show"
    return None


async def _json(pending: Any) -> Any:
    try:
        response = await pending
        return response.json() if response.status_code == 200 else None
    except (httpx2.HTTPError, ValueError) as exc:
        log.debug("model size probe: %s", exc)
        return None


class ModelSizeProbe:
    """Mixed into the SDK providers: `parameter_count` once `probe_model_size` has asked."""

    parameter_count: int | None = None
    parameter_source: str = ""
    model: str
    _client: Any
    _secret: str

    async def probe_model_size(self) -> int | None:
        try:
            found = await reported_parameters(
                str(self._client.base_url), self.model, self._secret
            )
        except Exception as exc:  # a size nobody reports must never cost the user a turn
            log.debug("model size probe failed: %s", exc)
            found = None
        if found is not None:
            self.parameter_count, self.parameter_source = found
        return self.parameter_count
