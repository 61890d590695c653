"""What the tests of the Setup pages share: reading a page as its reader does, uploading a map file."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

from campaign.models import Campaign

CORRECTION = (
    "The campaign has begun: this changes the state of the game and is a correction. Give a reason: it is "
    "written into the log every participant reads (M1)."
)


def page_text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def field_errors(response: Any) -> list[str]:
    return [html.unescape(e) for e in re.findall(r'<p class="field-error" role="alert"[^>]*>([^<]*)</p>',
                                                  response.content.decode())]


def upload_map(client: Any, slug: str, data: Any, replace: bool = False) -> Any:
    body = io.BytesIO(json.dumps(data).encode())
    body.name = "map.json"
    post: dict[str, Any] = {"map-file": body}
    if replace:
        post["map-replace"] = "on"
    return client.post(f"/c/{slug}/setup/map/upload/", post)



def begin(world: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(phase=Campaign.Phase.STRATEGIC)
    world.campaign.refresh_from_db()
