"""Field errors are always ``{path: [sentence]}`` (docs/errors.md), as the schema declares: DRF nests a list
field's and a nested serializer's errors, which the handler flattens into the paths the engine uses."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.api_errors import flat_errors


@pytest.mark.parametrize(("nested", "flat"), [
    ({"reason": ["Required."]}, {"reason": ["Required."]}),  # already flat
    ({"lost_units": {"0": ["Not a number."]}}, {"lost_units[0]": ["Not a number."]}),  # a ListField
    ({"cells": [{}, {"x": ["Too big."]}]}, {"cells[1].x": ["Too big."]}),  # a list of serializers
    ({"action": {"path": {"0": {"1": ["Bad."]}}}}, {"action.path[0][1]": ["Bad."]}),
    (["Expected a dictionary."], {"non_field_errors": ["Expected a dictionary."]}),
])
def test_field_errors_are_flattened_to_paths(nested: Any, flat: dict[str, list[str]]) -> None:
    assert flat_errors(nested) == flat


def test_an_api_list_field_error_comes_back_flat(world: Any) -> None:
    from tests.factories import client_for

    answer = client_for(world.moderator).post("/api/campaigns/limes/armies/", {"name": "X", "unit_ids": [1, "a"]},
                                              format="json")
    assert (answer.status_code, answer.json()["errors"]["unit_ids[1]"]) == (400, ["A valid integer is required."])
