"""The board says an action the server did not understand once, with the field it names: the detail is the
field's message, so the field is shown by name only (a frame of the page is spoiled on its way out, since the
board itself only sends well-formed actions)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.browser.builders import example_battle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _spoil_facings(page: Any) -> None:
    """Every action frame the page sends turns to "NE", which is no facing (the server answers 400)."""

    def route(socket: Any) -> None:
        server = socket.connect_to_server()

        def outgoing(message: Any) -> None:
            frame = json.loads(message) if isinstance(message, str) else None
            if isinstance(frame, dict) and frame.get("type") == "action" and "facing" in frame["action"]:
                frame["action"]["facing"] = "NE"
                message = json.dumps(frame)
            server.send(message)

        socket.on_message(outgoing)

    page.route_web_socket(re.compile(r"/ws/battles/"), route)


@pytest.mark.parametrize(("language", "said"), [
    ("ru", "Отклонено — должно быть одним из N, E, S, W (action.facing)"),
    ("en", "Refused — must be one of N, E, S, W (action.facing)"),
])
def test_a_malformed_action_is_said_once_with_its_field(open_page: Any, language: str, said: str) -> None:
    from playwright.sync_api import expect

    ex = example_battle()
    east = open_page(ex.east_user, f"/battles/{ex.battle.pk}/", language=language, before=_spoil_facings)
    hi = east.locator(f'#board [data-unit="{ex.units["hi"]}"]')
    hi.click()
    east.keyboard.press("ArrowRight")  # a turn in the attacker's own turn, its facing spoiled on the way
    expect(east.locator("#board-message")).to_have_text(said)
