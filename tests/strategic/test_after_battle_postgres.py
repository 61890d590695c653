"""The whole after-battle flow on PostgreSQL with real commits: a tactical battle ends (the tactical app
calls ``battle_result_apply``), the beaten commander chooses his retreat on the page, and the public roster
shows the army in its new province with its new health; the deadline sweep races a late choice safely."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from strategic.models import Battle, RetreatRecord
from strategic.services.retreats import retreat_choose, retreat_sweep
from tests.strategic.builders import FAST_HASHER, SLUG, army, fregellae, load, user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@override_settings(PASSWORD_HASHERS=FAST_HASHER)
def test_from_the_tactical_result_to_the_public_roster() -> None:
    campaign = load()
    scene = fregellae(campaign)
    client = Client()
    client.force_login(user("aspar"))
    response = client.post(reverse("retreat-choose", kwargs={"slug": SLUG, "army_id": scene.thrace.pk}),
                           {"option": "route:moesia"})
    assert response.status_code == 302
    page = Client().get(reverse("roster", kwargs={"slug": SLUG, "faction": "east"})).content.decode()
    start = page.index(f'id="army-{scene.thrace.pk}"')
    card = page[start: page.index("</article>", start)]
    assert "Province: <strong>Moesia</strong>" in card
    labels = re.findall(r'<span class="unit-label">([^<]+)</span>', card)
    health = re.findall(r'<td class="health">.*?<span class="num">([^<]+)</span>', card, re.DOTALL)
    assert list(zip(labels, health)) == [("Legio I Italica", "3/5"), ("Scholae Palatinae", "4½/6")]


@override_settings(PASSWORD_HASHERS=FAST_HASHER)
def test_a_late_choice_and_the_sweep_apply_the_retreat_exactly_once() -> None:
    campaign = load()
    scene = fregellae(campaign)
    Battle.objects.filter(pk=scene.battle.pk).update(resolved_at=timezone.now() - timedelta(hours=25))
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def sweep() -> None:
        barrier.wait()
        try:
            outcomes.append(f"sweep:{retreat_sweep()}")
        finally:
            connection.close()

    def choose() -> None:
        barrier.wait()
        try:
            retreat_choose(actor=user("aspar"), army=scene.thrace, route=["moesia"])
            outcomes.append("chosen")
        except Exception as exc:  # noqa: BLE001 - the refusal is what the test reads
            outcomes.append(f"refused:{getattr(exc, 'rule', type(exc).__name__)}")
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep), threading.Thread(target=choose)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) in (["refused:R1", "sweep:1"], ["refused:S10", "sweep:1"])
    assert RetreatRecord.objects.filter(battle=scene.battle).count() == 1
    assert army(campaign, "Army of Thrace").province.code == "moesia"
