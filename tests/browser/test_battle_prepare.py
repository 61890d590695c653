"""From a battle record to a live board in the browser (issue 16): the moderator presses Prepare on the Battles
page, drags across cells to paint a swamp, is refused a wall that cuts the field (T5), opens the deployment,
and the commander who waited on the battle's page sees the board appear and deploys."""

from __future__ import annotations

from typing import Any

from strategic.models import Battle
from tactical.models import LiveBattle
from tests.browser.builders import expect
from tests.factories import build_world
from tests.tactical.builders import battle_record


def _cell_centre(page: Any, x: int, y: int) -> tuple[float, float]:
    """The screen point of a cell's centre, from the board's own coordinate system, scrolled into the window."""
    return page.evaluate(
        """([x, y]) => { const svg = document.getElementById("board");
        const at = () => { const p = svg.createSVGPoint(); p.x = x * 40 + 20; p.y = y * 40 + 20;
          return p.matrixTransform(svg.getScreenCTM()); };
        let s = at();
        if (s.y < 40 || s.y > innerHeight - 40) { window.scrollBy(0, s.y - innerHeight / 2); s = at(); }
        return [s.x, s.y]; }""", [x, y])


def test_prepare_paint_open_and_the_commander_sees_the_board_appear(open_page: Any) -> None:
    world = build_world()
    record = battle_record(world)
    commander = open_page(world.east_general, f"/battles/{record.pk}/")
    expect(commander.locator("#board-waiting")).to_contain_text("has not brought this battle onto the board yet")

    moderator = open_page(world.moderator, "/c/limes/battles/")
    row = moderator.locator(f"#battle-{record.pk}")
    expect(row).to_contain_text("Awaiting resolution")
    row.get_by_role("button", name="Prepare").click()
    expect(moderator.locator("#setup-panel")).to_be_visible()
    expect(moderator.locator("#status-phase")).to_have_text("Preparing the field")
    expect(commander.locator("#board-waiting")).to_contain_text("The moderator is preparing the field.")

    # Clear what the generator drew in rows 9-11, so that the cells painted below are the only ones there.
    live = LiveBattle.objects.get(pk=record.pk)
    for x, y, _ in live.state["cells"]:
        if 9 <= y <= 11:
            moderator.fill("#paint-x", str(x))
            moderator.fill("#paint-y", str(y))
            moderator.check('input[name="paint"][value="clear"]')
            moderator.get_by_role("button", name="Paint the cell").click()
            expect(moderator.locator("#setup-route")).to_have_text(
                "A passable route between the deployment zones remains (T5).")
    moderator.check('input[name="paint"][value="swamp"]')
    start, end = _cell_centre(moderator, 3, 10), _cell_centre(moderator, 6, 10)
    moderator.mouse.move(*start)
    moderator.mouse.down()
    moderator.mouse.move(*end, steps=12)
    moderator.mouse.up()
    expect(moderator.locator("#setup-route")).to_have_text("A passable route between the deployment zones remains (T5).")
    expect(moderator.locator('#layer-ground [data-feature="swamp"]')).to_have_count(
        4 + sum(1 for c in LiveBattle.objects.get(pk=record.pk).state["cells"] if c[2] == "swamp" and c[1] != 10))
    painted = {(c[0], c[1]): c[2] for c in LiveBattle.objects.get(pk=record.pk).state["cells"]}
    assert [painted.get((x, 10)) for x in range(3, 7)] == ["swamp"] * 4

    moderator.check('input[name="paint"][value="wall"]')
    moderator.mouse.move(*_cell_centre(moderator, 0, 11))
    moderator.mouse.down()
    moderator.mouse.move(*_cell_centre(moderator, 17, 11), steps=40)
    moderator.mouse.up()
    expect(moderator.locator("#setup-route")).to_contain_text("T5")
    expect(moderator.locator("#setup-route")).to_contain_text("passable route")
    assert not any(c[2] == "wall" and c[1] == 11 for c in LiveBattle.objects.get(pk=record.pk).state["cells"])

    moderator.get_by_role("button", name="Open deployment").click()
    expect(moderator.locator(".msg.success")).to_contain_text("The deployment is open")
    expect(moderator.locator("#setup-panel")).to_have_count(0)

    # The commander's page shows the board without a click of his, and he deploys on it.
    expect(commander.locator("#board")).to_be_visible(timeout=15000)
    expect(commander.locator("#action-hint")).to_contain_text("Click a highlighted cell of your rows")
    commander.locator('#board [data-kind="deploy"]').first.click()
    expect(commander.locator("#board-log")).to_contain_text("was placed at", timeout=10000)
    assert Battle.objects.get(pk=record.pk).status == "tactical"
