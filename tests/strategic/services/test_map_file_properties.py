"""Any valid map file comes back from export as it went in (provinces, borders and transitions by code)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.services import campaign_create
from strategic.services import map_file as map_io

pytestmark = pytest.mark.django_db

TERRAINS = ["field", "forest", "mountains", "desert"]
KINDS = ["normal", "rough", "strait", "impassable"]


@st.composite
def map_files(draw: st.DrawFn) -> dict[str, Any]:
    """A valid map file of 2 to 8 provinces with some borders and S9 transitions."""
    codes = draw(
        st.lists(st.from_regex(r"[a-z][a-z0-9_-]{0,11}", fullmatch=True), min_size=2, max_size=8, unique=True)
    )
    points = draw(
        st.lists(
            st.tuples(st.integers(0, 1000), st.integers(0, 700)),
            min_size=len(codes),
            max_size=len(codes),
            unique=True,
        )
    )
    provinces = [
        {
            "code": code,
            "name_en": code.title(),
            "name_ru": draw(st.sampled_from(["Галлия", "Дакия", "Фракия"])),
            "terrain": draw(st.sampled_from(TERRAINS)),
            "x": x,
            "y": y,
            "port": draw(st.booleans()),
            "fortress": draw(st.booleans()),
            "fortress_capacity": draw(st.integers(1, 99)),
            "tribe": draw(st.booleans()),
        }
        for code, (x, y) in zip(codes, points)
    ]
    pairs = draw(
        st.lists(
            st.sampled_from([(a, b) for a in sorted(codes) for b in sorted(codes) if a < b]),
            unique=True,
            max_size=10,
        )
    )
    borders = [{"a": a, "b": b, "kind": draw(st.sampled_from(KINDS))} for a, b in pairs]
    passable = [(b["a"], b["b"]) for b in borders if b["kind"] != "impassable"]
    directed = sorted({pair if draw(st.booleans()) else pair[::-1] for pair in passable})
    transitions = [
        {"from": a, "to": b, "terrain": draw(st.sampled_from(TERRAINS))}
        for a, b in directed
        if draw(st.booleans())
    ]
    return {
        "format": "limes-map",
        "version": 1,
        "provinces": provinces,
        "borders": borders,
        "transitions": transitions,
    }


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=map_files())
def test_export_gives_back_what_was_imported(data: dict[str, Any]) -> None:
    with transaction.atomic():
        moderator = get_user_model().objects.create_user("mod")
        campaign = campaign_create(actor=moderator, slug="prop", name_en="P", name_ru="П")
        map_io.map_import(actor=moderator, campaign=campaign, data=data)
        exported = map_io.map_export(campaign=campaign)
        transaction.set_rollback(True)
    assert [{k: v for k, v in p.items() if k != "outline"} for p in exported["provinces"]] == sorted(
        data["provinces"], key=lambda p: p["code"]
    )
    assert all(len(p["outline"]) >= 3 for p in exported["provinces"])
    assert exported["borders"] == sorted(data["borders"], key=lambda b: (b["a"], b["b"]))
    assert exported["transitions"] == sorted(data["transitions"], key=lambda t: (t["from"], t["to"]))
