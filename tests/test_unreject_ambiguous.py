"""Issue 14, defect 5: `/unreject redis` silently reopened "Redis Streams". A partial name is
refused (tests/ui/test_hardening.py); so is one that names two options, with both named."""

from __future__ import annotations

import pytest

from .ui.conftest import make_controller


def test_an_ambiguous_unreject_names_every_candidate_and_reopens_nothing() -> None:
    controller = make_controller()
    controller.reject("Redis Streams", "no replay guarantees")
    controller.reject("Redis Cluster", "too much to operate")
    with pytest.raises(ValueError) as refused:
        controller.unreject("redis")
    assert "Redis Streams" in str(refused.value) and "Redis Cluster" in str(refused.value)
    assert len(controller.session.active_rejections()) == 2
    assert controller.unreject("Redis Cluster") is not None
    assert [r.option for r in controller.session.active_rejections()] == ["Redis Streams"]
    controller.release()
