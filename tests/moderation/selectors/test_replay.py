"""M3: a replay rebuilt by the engine from the event log equals the battle at every step; PNG and report."""

from __future__ import annotations

from io import BytesIO
from typing import Any

import pytest
from django.test import Client
from PIL import Image

from combat.battle.serialize import state_to_dict
from moderation.selectors.replay import replay_steps, turns_of
from tactical.models import LiveBattle
from tactical.selectors.replay import state_rebuild
from tests.moderation.builders import end
from tests.tactical.builders import units_of


def test_every_step_equals_the_state_the_log_rebuilds_at_that_version(fought: LiveBattle) -> None:
    steps = replay_steps(battle=fought)
    assert [s.version for s in steps] == list(range(1, fought.version + 1))
    for step in steps:
        assert state_to_dict(step.state) == state_to_dict(state_rebuild(fought, upto=step.version)), (
            step.version
        )


def test_the_last_step_equals_the_stored_state(fought: LiveBattle) -> None:
    assert state_to_dict(replay_steps(battle=fought)[-1].state) == fought.state


def test_the_setup_step_equals_the_state_stored_at_the_setup(fought: LiveBattle) -> None:
    first = fought.events.get(version=1)
    assert state_to_dict(replay_steps(battle=fought)[0].state) == first.action["state"]


def test_the_die_step_shows_the_t7_6_result(fought: LiveBattle) -> None:
    step = replay_steps(battle=fought)[23]
    east, west = units_of(fought, "attacker")[0], units_of(fought, "defender")[0]
    die = step.dice[0]
    survivor, fallen = (east, west) if die <= 3 else (west, east)  # 1–3: the initiator (East) stays
    assert (step.version, step.state.units[survivor].health, step.state.units[fallen].status.value) == (
        24,
        2,
        "routed",
    )


def test_steps_are_grouped_by_the_side_s_turn(fought: LiveBattle) -> None:
    keys = [key for key, _steps in turns_of(replay_steps(battle=fought))]
    assert keys[:4] == ["deployment", "1:attacker", "1:defender", "2:attacker"]


def test_the_replay_page_shows_the_chosen_step(world: Any, fought: LiveBattle) -> None:
    page = Client().get(f"/c/limes/battles/{fought.pk}/replay/", {"v": 8}).content.decode()
    assert "Step 8 of 24" in page
    assert f"/c/limes/battles/{fought.pk}/replay/8.png" in page


def test_any_step_downloads_as_a_png_of_the_board(world: Any, fought: LiveBattle) -> None:
    response = Client().get(f"/c/limes/battles/{fought.pk}/replay/8.png")
    image = Image.open(BytesIO(response.content))
    assert (response["Content-Type"], image.format, image.size) == ("image/png", "PNG", (588, 706))


def test_a_unit_is_drawn_in_its_faction_s_colour(world: Any, fought: LiveBattle) -> None:
    image = Image.open(BytesIO(Client().get(f"/c/limes/battles/{fought.pk}/replay/8.png").content)).convert(
        "RGB"
    )
    colour = fought.roster[units_of(fought, "attacker")[1]]["faction"]["color"]
    x, y = 24 + 9 * 30 + 5, 24 + 28 + 18 * 30 + 25  # inside the unit at (9, 18), below its label
    assert "#{:02x}{:02x}{:02x}".format(*image.getpixel((x, y))) == colour.lower()


def test_a_step_beyond_the_log_is_404(fought: LiveBattle) -> None:
    assert Client().get(f"/c/limes/battles/{fought.pk}/replay/99.png").status_code == 404


def test_the_battle_report_is_bbcode_with_sides_losses_rolls_and_the_dice_link(
    world: Any, fought: LiveBattle
) -> None:
    end(fought, world, "attacker")
    text = Client().get(f"/c/limes/battles/{fought.pk}/report.txt").content.decode()
    lines = text.splitlines()
    assert lines[0] == f"[b]Battle #{fought.pk} in Dalmatia[/b]"
    assert lines[1] == "Winner: Attacker"
    assert "Losses: 1 unit routed" in lines
    assert any(line.startswith("[*]#0: ") and "T7.6" in line for line in lines)
    assert lines[-1] == f"Check every die: [url]http://testserver/c/limes/battles/{fought.pk}/dice/[/url]"


def test_the_moderator_s_controls_replay_step_by_step_and_read_in_the_log(world: Any, live: LiveBattle) -> None:
    from tactical.services import moderation as mod
    from tests.tactical.builders import act

    east = units_of(live, "attacker")[0]
    stored: dict[int, dict[str, Any]] = {}

    def keep() -> None:
        live.refresh_from_db()
        stored[live.version] = live.state

    keep()
    mod.battle_clock_pause(actor=world.moderator, battle_id=live.pk, reason="Lost connection")
    keep()
    mod.battle_correct(actor=world.moderator, battle_id=live.pk, reason="Misplaced",
                       changes=[{"unit": east, "x": 5, "y": 17, "facing": "W"}])
    keep()
    mod.battle_clock_resume(actor=world.moderator, battle_id=live.pk, reason="Back")
    keep()
    act(live, world.east_general, {"do": "move", "unit": east, "path": [[5, 16]]})
    keep()
    mod.battle_action_undo(actor=world.moderator, battle_id=live.pk, reason="Clicked the wrong cell")
    keep()
    mod.battle_clock_add_time(actor=world.moderator, battle_id=live.pk, seconds=20, reason="For the undo")
    keep()
    steps = {step.version: step for step in replay_steps(battle=live)}
    for version, state in stored.items():
        assert state_to_dict(steps[version].state) == state, version
    assert stored[live.version] == stored[live.version - 4]  # the move is taken back, the correction stays
    log = Client().get("/c/limes/log/", {"battle": live.pk}).content.decode()
    for sentence in ("The moderator paused the clock: Lost connection.",
                     "The moderator corrected the board: Misplaced.",
                     f"The moderator took back version {live.version - 2}: Clicked the wrong cell.",
                     "The moderator added 20 s to the turn: For the undo."):
        assert sentence in log, sentence
    assert Client().get(f"/c/limes/battles/{live.pk}/replay/", {"v": live.version - 1}).status_code == 200


def test_the_report_counts_lines_in_the_readers_plural_and_halves_as_a_half(fought: LiveBattle) -> None:
    """It said "1 lines" and "2.5 lines"; a routed unit is 0 lines, not −2 (T3.1)."""
    import dataclasses

    from django.utils import translation

    from moderation.render.export import battle_report_bbcode
    from tactical.selectors.snapshots import state_of

    state = state_of(fought)
    ids = sorted(state.units)[:3]
    units = dict(state.units)
    for unit_id, halves in zip(ids, (2, 5, -4), strict=True):
        units[unit_id] = dataclasses.replace(units[unit_id], health=halves)
    state = dataclasses.replace(state, units=units)

    def health_of(language: str) -> list[str]:
        with translation.override(language):
            text = battle_report_bbcode(battle=fought, state=state, dice=None, verify_url="")
        rows = {line.split(" — ")[0]: line.split(" — ")[-1].split(" [b]")[0] for line in text.splitlines()
                if line.startswith("[*]")}
        return [next(v for k, v in rows.items() if f"({unit_id})" in k or k.endswith(unit_id)) for unit_id in ids]

    assert health_of("en") == ["1 line", "2½ lines", "0 lines"]
    assert health_of("ru") == ["1 линия", "2½ линии", "0 линий"]


def _units_table(page: str) -> list[str]:
    import re

    body = page.split('<table class="table">', 1)[1].split("</table>", 1)[0]
    return [re.sub(r"\s+", " ", row) for row in re.findall(r"<tr><td>.*?</tr>", body)]


def test_a_step_replayed_up_to_its_version_is_the_board_of_the_whole_replay(fought: LiveBattle) -> None:
    whole = replay_steps(battle=fought)
    for version in (1, 8, 24):
        part = replay_steps(battle=fought, upto=version)
        assert [s.version for s in part] == list(range(1, version + 1))
        assert state_to_dict(part[-1].state) == state_to_dict(whole[version - 1].state), version


def test_the_page_of_a_step_shows_the_board_of_that_version(world: Any, fought: LiveBattle, monkeypatch: Any) -> None:
    from moderation.views import audit

    full = Client().get(f"/c/limes/battles/{fought.pk}/replay/", {"v": 8}).content.decode()
    state = replay_steps(battle=fought)[7].state
    east, west = units_of(fought, "attacker")[0], units_of(fought, "defender")[0]
    rows = _units_table(full)
    assert len(rows) == len(state.units)
    for unit_id in (east, west):
        unit = state.units[unit_id]
        row = next(r for r in rows if f"({unit_id})</td>" in r)
        assert f"<td>{unit.x}, {unit.y}</td>" in row and f"<td>{unit.arrows}</td>" in row, row
    assert (state.units[east].x, state.units[east].y, state.units[west].x, state.units[west].y) == (8, 15, 8, 2)
    # Listed ten at a time, step 8 shows the same board and the steps 1–10 only, with links to the rest.
    monkeypatch.setattr(audit, "STEPS_PER_PAGE", 10)
    paged = Client().get(f"/c/limes/battles/{fought.pk}/replay/", {"v": 8}).content.decode()
    assert _units_table(paged) == rows
    assert "Step 8 of 24" in paged
    assert 'href="?v=10">v10</a>' in paged and 'href="?v=11">v11</a>' not in paged
    assert 'href="?v=11">v11–v20</a>' in paged and 'href="?v=21">v21–v24</a>' in paged
    assert 'name="v" min="1" max="24" value="8"' in paged
    later = Client().get(f"/c/limes/battles/{fought.pk}/replay/", {"v": 23}).content.decode()
    assert 'href="?v=23">v23</a>' in later and 'href="?v=20">v20</a>' not in later


def _steps_table(page: str) -> list[str]:
    import re

    body = page.split('<table class="table replay-steps">', 1)[1].split("</table>", 1)[0]
    return [re.sub(r"\s+", " ", row) for row in re.findall(r"<tr.*?</tr>", body, flags=re.S)]


def test_the_last_page_replayed_from_a_checkpoint_shows_what_a_whole_replay_shows(
    world: Any, fought: LiveBattle, monkeypatch: Any
) -> None:
    from moderation.selectors import replay
    from moderation.views import audit

    monkeypatch.setattr(audit, "STEPS_PER_PAGE", 10)
    monkeypatch.setattr(replay, "_checkpoints", type(replay._checkpoints)())
    calls: list[int] = []
    real = replay._replay

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[4])
        return real(*args, **kwargs)

    monkeypatch.setattr(replay, "_replay", counted)
    url = f"/c/limes/battles/{fought.pk}/replay/"
    cold = Client().get(url).content.decode()
    warm = Client().get(url).content.decode()
    # The first request replays the log from the start (up to 20 without the steps' details, then the steps
    # listed); the next one only steps 21-24, from the board after 20.
    assert calls == [1, 21, 21]
    import re

    def without_tokens(page: str) -> str:
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)

    assert without_tokens(warm) == without_tokens(cold)
    whole = replay_steps(battle=fought)
    assert state_to_dict(whole[-1].state) == fought.state
    last = whole[-1].state
    rows = _units_table(warm)
    assert len(rows) == len(last.units)
    for unit in last.units.values():
        row = next(r for r in rows if f"({unit.id})</td>" in r)
        cell = f"<td>{unit.x}, {unit.y}</td>" if unit.x is not None else "<td></td>"
        assert cell in row and f"<td>{unit.arrows}</td>" in row, row
    assert "Step 24 of 24" in warm
    steps = _steps_table(warm)
    listed = [r for r in steps if 'href="?v=' in r]
    assert [r.split('href="?v=', 1)[1].split('"', 1)[0] for r in listed] == ["21", "22", "23", "24"]
    assert 'aria-current="step"' in listed[-1]
    # The turn headings over the listed steps are those of a whole replay's groups, in order.
    headings = [r for r in steps if "<th colspan" in r]
    expected = [audit._turn_title(key) for key, group in turns_of(whole) if any(s.version >= 21 for s in group)]
    from html import unescape

    assert [unescape(h.split(">", 2)[2].split("<", 1)[0]) for h in headings] == [
        "Deployment" if key == "deployment" else key for key in expected
    ]


@pytest.mark.log_tampered
def test_a_broken_block_after_a_checkpoint_is_still_404(world: Any, fought: LiveBattle, monkeypatch: Any) -> None:
    from moderation.selectors import replay
    from moderation.views import audit
    from tactical.models import BattleEvent

    monkeypatch.setattr(audit, "STEPS_PER_PAGE", 10)
    monkeypatch.setattr(replay, "_checkpoints", type(replay._checkpoints)())
    url = f"/c/limes/battles/{fought.pk}/replay/"
    assert Client().get(url).status_code == 200
    assert (fought.pk, 20, fought.seed_commitment) in replay._checkpoints
    # Version 25 never logged: the last page starts from the checkpoint after 20 and still finds the gap.
    BattleEvent.objects.create(battle=fought, version=26, kind=BattleEvent.Kind.DONE, action={"do": "done"})
    assert Client().get(url).status_code == 404
    with pytest.raises(replay.ReplayBroken, match="version 25 is missing from the log"):
        replay.replay_block(battle=fought, first=21, end=26, every=10)
    assert Client().get(f"/c/limes/battles/{fought.pk}/report.txt").status_code == 404
    assert Client().get(f"/c/limes/battles/{fought.pk}/board.png").status_code == 404


def test_a_block_that_takes_back_a_version_before_its_checkpoint_replays_from_the_start(
    world: Any, live: LiveBattle, monkeypatch: Any
) -> None:
    import re

    from moderation.selectors import replay
    from moderation.views import audit
    from tactical.services import moderation as mod
    from tests.tactical.builders import act

    east = units_of(live, "attacker")[0]
    act(live, world.east_general, {"do": "move", "unit": east, "path": [[8, 17]]})
    mod.battle_action_undo(actor=world.moderator, battle_id=live.pk, reason="Clicked the wrong cell")
    live.refresh_from_db()
    whole = replay_steps(battle=live)
    assert whole[-1].kind == "undo" and state_to_dict(whole[-1].state) == live.state
    url = f"/c/limes/battles/{live.pk}/replay/"

    def page(version: int) -> str:
        text = Client().get(url, {"v": version}).content.decode()
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text)

    earlier: list[int] = []
    real = replay._replay

    def counted(*args: Any, **kwargs: Any) -> Any:
        try:
            return real(*args, **kwargs)
        except replay._Earlier:
            earlier.append(args[4])
            raise

    monkeypatch.setattr(replay, "_replay", counted)
    # The undo (the last version) restores the board of two versions before it: with a page of one step its
    # block starts from the checkpoint just before it, which does not hold that board.
    for size in (1, 2, 3):
        monkeypatch.setattr(audit, "STEPS_PER_PAGE", size)
        monkeypatch.setattr(replay, "_checkpoints", type(replay._checkpoints)())
        for version in (live.version, live.version - 1):
            cold, warm = page(version), page(version)
            assert warm == cold, (size, version)
            rows = _units_table(warm)
            for unit in whole[version - 1].state.units.values():
                row = next(r for r in rows if f"({unit.id})</td>" in r)
                cell = f"<td>{unit.x}, {unit.y}</td>" if unit.x is not None else "<td></td>"
                assert cell in row, (size, version, row)
    assert live.version in earlier
