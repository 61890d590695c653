"""Fixtures of the strategic pages' tests."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Membership
from tests.factories import CampaignFactory, member


@pytest.fixture
def empty(db: Any) -> Any:
    campaign = CampaignFactory(slug="empty", name_en="Empty", name_ru="Пустая")
    moderator = member(campaign, Membership.Role.MODERATOR)
    return campaign, moderator
