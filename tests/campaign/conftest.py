"""Fixtures of the campaign tests."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import build_world


@pytest.fixture
def world(db: Any) -> Any:
    """The campaign of ``build_world``."""
    return build_world()
