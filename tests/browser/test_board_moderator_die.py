"""T7.6 in real Chromium: a melee ends in mutual destruction, the battle waits, the moderator rolls the die in
the battle console, and both players' boards show the result (M1, M2).

The setup is the worked example T12 continued (``tests/combat/cases/t12_defender_turn_end_mutual_destruction``):
after the interception both pairs fall at the end of West's turn, so two dice are needed, in pairing order
(left spearmen / heavy infantry, then heavy cavalry / right spearmen). A die of 1–3 keeps the initiator.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat.dice import seeded_roll
from tactical.models import LiveBattle
from tactical.services import play as services
from tests.browser.builders import example_battle, expect, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _row(page: Any, engine_id: str) -> Any:
    return page.locator(f'#units-list [data-unit-row="{engine_id}"]')


def test_the_moderator_rolls_the_die_of_a_mutual_destruction_and_both_players_see_it(open_page: Any) -> None:
    ex = example_battle()
    hi, hc, left, right = (ex.units[k] for k in ("hi", "hc", "left", "right"))
    battle_id = ex.battle.pk

    def play(user: Any, action: dict[str, Any]) -> None:
        services.battle_action_apply(actor=user, battle_id=battle_id, action=action)

    # T12 1–4 through the services: the moves, the interception, the first resolution (each keeps 2, 1).
    play(ex.east_user, {"do": "move", "unit": hi, "path": [[8, 11], [8, 10], [8, 9]]})
    play(ex.east_user, {"do": "move", "unit": hc, "path": [[9, 11], [9, 10], [9, 9], [9, 8]]})
    play(ex.east_user, {"do": "end_turn"})
    play(ex.west_user, {"do": "intercept", "unit": left, "target": hi, "path": [[7, 9]]})
    play(ex.west_user, {"do": "end_interceptions"})

    path = f"/battles/{battle_id}/"
    east = open_page(ex.east_user, path)
    west = open_page(ex.west_user, path)
    for page in (east, west):
        expect(page.locator("#status-conn")).to_have_text("Live")
        expect(page.locator("#status-turn")).to_have_text("Round 1 · Defender to act")
        expect(page.locator("#board-halt")).to_be_hidden()

    # West ends its turn: both pairs would fall at once (T7.6), so the battle waits for the moderator's die.
    west.locator("#btn-end-turn").click()
    for page in (east, west):
        expect(page.locator("#board-halt")).to_have_text(
            "Waiting for the moderator's die (T7.6): no action is accepted until it is rolled.")
        expect(page.locator("#status-clock")).to_have_attribute("data-state", "paused")
        expect(page.locator("#board-log")).to_contain_text("Waiting for the moderator's die (T7.6).")
        # issue 15: the rule ids of the hold and the log open the rule beside the board
        expect(page.locator('#board-halt a.rule-link[data-rule="T7.6"]')).to_have_attribute("href", "/c/t12/rules/#T7.6")
        expect(page.locator('#board-log a.rule-link[data-rule="T7.6"]').first).to_have_text("T7.6")
        expect(_row(page, hi).locator(".row-health")).to_have_text("2/5")  # nothing resolved yet
    expect(west.locator("#btn-end-turn")).to_be_disabled()
    watcher = open_page(ex.moderator, path, language="ru")
    expect(watcher.locator("#board-halt")).to_have_text(
        "Ждём броска кубика модератором (T7.6): до броска действия не принимаются.")
    shot(west, "t7_6-1-waiting")

    console = open_page(ex.moderator, f"/c/t12/battles/{battle_id}/console/")
    expect(console.locator("#awaiting-die")).to_contain_text("The battle is waiting for your die (T7.6).")
    expect(console.locator('#awaiting-die a.rule-link[data-rule="T7.6"]')).to_have_attribute("href", "/c/t12/rules/#T7.6")
    console.locator("#roll-form input[name=reason]").fill("Both pairs fell at once")
    console.locator("#roll-form button").click()
    expect(console.locator("body")).to_contain_text("The die was rolled:")
    shot(console, "t7_6-2-console")

    live = LiveBattle.objects.get(pk=battle_id)
    first, second = seeded_roll(bytes(live.seed), 0), seeded_roll(bytes(live.seed), 1)
    # 1–3: the initiator stays (the interceptor, left spearmen; the charging heavy cavalry), 4–6 the other.
    survivors = [left if first <= 3 else hi, hc if second <= 3 else right]
    fallen = [hi if first <= 3 else left, right if second <= 3 else hc]
    for page in (east, west):
        expect(page.locator("#board-halt")).to_be_hidden()
        expect(page.locator("#board-log")).to_contain_text(
            f"The moderator rolled the die: {first}, {second} (Both pairs fell at once)")
        for unit in survivors:
            expect(_row(page, unit).locator(".row-health")).to_have_text("1/5")
        for unit in fallen:
            expect(_row(page, unit)).to_contain_text("routed")
            expect(_row(page, unit).locator(".row-health")).to_have_text("0/5")
    shot(east, "t7_6-3-result")
