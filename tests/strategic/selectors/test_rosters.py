"""The public roster (S3): equal to the game state after every change, in a constant number of queries."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import translation

from campaign.models import Commander, Membership
from campaign.templatetags.swatches import swatch_svg
from strategic.models import Unit
from strategic.selectors.rosters import health_bar, roster, roster_bbcode, roster_index, roster_json
from strategic.services import armies as services
from tests.factories import (
    ArmyFactory,
    CampaignFactory,
    CommanderFactory,
    FactionFactory,
    ProvinceFactory,
    UnitFactory,
    UnitTypeFactory,
    member,
)


@pytest.fixture(autouse=True)
def english() -> Any:
    """Names in English: an earlier request may have left another language active in this thread."""
    with translation.override("en"):
        yield


@pytest.fixture
def army_world(db: Any) -> SimpleNamespace:
    """Western Rome: the Army of Gaul (Legio I and archers) in Italia, and Legio II outside any army."""
    w = SimpleNamespace()
    w.campaign = CampaignFactory(slug="roster", name_en="Roster", name_ru="Список")
    w.moderator = member(w.campaign, Membership.Role.MODERATOR)
    w.west = FactionFactory(
        campaign=w.campaign,
        slug="west",
        name_en="Western Rome",
        name_ru="Западная Римская империя",
        color="#8b1a1a",
        turn_order=1,
    )
    w.aetius = CommanderFactory(faction=w.west, name="Aetius", rank=Commander.Rank.LEADER)
    w.west.leader = w.aetius
    w.west.save(update_fields=["leader"])
    w.italia = ProvinceFactory(campaign=w.campaign, code="italia", name_en="Italia", name_ru="Италия")
    w.infantry = UnitTypeFactory(
        campaign=w.campaign, code="hi", name_en="Heavy infantry", name_ru="Тяжелая пехота"
    )
    w.archer_type = UnitTypeFactory(
        campaign=w.campaign,
        code="archers",
        name_en="Archers",
        name_ru="Лучники",
        unit_class="LI1",
        health=Decimal(3),
        missile=True,
        arrows=4,
    )
    w.army = ArmyFactory(faction=w.west, commander=w.aetius, province=w.italia, name="Army of Gaul")
    w.legio = UnitFactory(faction=w.west, unit_type=w.infantry, army=w.army, name="Legio I")
    w.archers = UnitFactory(faction=w.west, unit_type=w.archer_type, army=w.army, health_halves=5, arrows=3)
    w.loose = UnitFactory(faction=w.west, unit_type=w.infantry, province=w.italia, name="Legio II")
    return w


def _bbcode(campaign: Any) -> str:
    with translation.override("en"):
        return roster_bbcode(roster(campaign=campaign))


@pytest.mark.parametrize(
    ("halves", "max_halves", "drawn"),
    [
        (10, 10, "▮▮▮▮▮"),  # full health
        (7, 10, "▮▮▮◧▯"),  # 3.5 of 5 lines: a half line is drawn half
        (0, 10, "▯▯▯▯▯"),  # routed
        (12, 10, "▮▮▮▮▮"),  # above the card's health is drawn full, not longer
        (5, 7, "▮▮◧▯"),  # a card of 3.5 lines has 4 slots
    ],
)
def test_t3_1_health_is_drawn_in_lines_and_halves(halves: int, max_halves: int, drawn: str) -> None:
    assert health_bar(halves, max_halves) == drawn


def test_s3_bbcode_of_a_small_roster_is_exact(army_world: SimpleNamespace) -> None:
    assert _bbcode(army_world.campaign) == (
        "[b][color=#8b1a1a]Western Rome[/color][/b]\n"
        "Leader: Aetius\n"
        "[b]Army of Gaul[/b] — commander Aetius, Italia\n"
        "[list]\n"
        "[*]Legio I (Heavy infantry): ▮▮▮▮▮ 5/5\n"
        "[*]Archers: ▮▮◧ 2½/3 — arrows 3/4\n"
        "[/list]\n"
        "[b]Outside armies[/b]\n"
        "[list]\n"
        "[*]Legio II (Heavy infantry): ▮▮▮▮▮ 5/5 — Italia\n"
        "[/list]\n"
    )


def test_s3_bbcode_names_cannot_open_or_close_tags(army_world: SimpleNamespace) -> None:
    """The probe's army name closed the [b] and opened a link; every name now goes through bbcode_text."""
    army_world.army.name = "x[/b][url=https://evil.example]x[/url]"
    army_world.army.save(update_fields=["name"])
    army_world.aetius.name = "Aetius[/b]"
    army_world.aetius.save(update_fields=["name"])
    army_world.legio.name = "[img]https://evil.example/a.png[/img]"
    army_world.legio.save(update_fields=["name"])
    army_world.italia.name_en = "Italia[quote]"
    army_world.italia.save(update_fields=["name_en"])
    army_world.west.name_en = "West[/color]"
    army_world.west.save(update_fields=["name_en"])
    army_world.infantry.name_en = "Foot]["
    army_world.infantry.save(update_fields=["name_en"])
    assert _bbcode(army_world.campaign) == (
        "[b][color=#8b1a1a]West［/color］[/color][/b]\n"
        "Leader: Aetius［/b］\n"
        "[b]x［/b］［url=https://evil.example］x［/url］[/b] — commander Aetius［/b］, Italia［quote］\n"
        "[list]\n"
        "[*]［img］https://evil.example/a.png［/img］ (Foot］［): ▮▮▮▮▮ 5/5\n"
        "[*]Archers: ▮▮◧ 2½/3 — arrows 3/4\n"
        "[/list]\n"
        "[b]Outside armies[/b]\n"
        "[list]\n"
        "[*]Legio II (Foot］［): ▮▮▮▮▮ 5/5 — Italia［quote］\n"
        "[/list]\n"
    )


def test_s3_bbcode_colour_cannot_close_its_tag(army_world: SimpleNamespace) -> None:
    army_world.west.color = "red]["  # the admin's form does not check the colour as the services do
    army_world.west.save(update_fields=["color"])
    assert _bbcode(army_world.campaign).splitlines()[0] == "[b][color=red］［]Western Rome[/color][/b]"


def test_s3_bbcode_in_russian_uses_russian_names(army_world: SimpleNamespace) -> None:
    with translation.override("ru"):
        text = roster_bbcode(roster(campaign=army_world.campaign))
    assert text.splitlines()[:4] == [
        "[b][color=#8b1a1a]Западная Римская империя[/color][/b]",
        "Лидер: Aetius",
        "[b]Army of Gaul[/b] — командующий Aetius, Италия",
        "[list]",
    ]
    assert "[*]Legio I (Тяжелая пехота): ▮▮▮▮▮ 5/5" in text


def test_s3_roster_follows_a_unit_moved_out_of_its_army(army_world: SimpleNamespace) -> None:
    w = army_world
    services.unit_assign(actor=w.moderator, unit=w.legio, army=None)
    (faction,) = roster(campaign=w.campaign)
    assert [u.label for u in faction.armies[0].units] == ["Archers"]
    assert [(u.label, u.province) for u in faction.loose_units] == [
        ("Legio I", "Italia"),
        ("Legio II", "Italia"),
    ]


def test_s3_roster_follows_a_unit_placed_into_an_army(army_world: SimpleNamespace) -> None:
    w = army_world
    services.unit_assign(actor=w.moderator, unit=w.loose, army=w.army)
    (faction,) = roster(campaign=w.campaign)
    assert [u.label for u in faction.armies[0].units] == ["Legio I", "Archers", "Legio II"]
    assert faction.loose_units == []


def test_s3_roster_follows_health_and_arrows(army_world: SimpleNamespace) -> None:
    w = army_world
    Unit.objects.filter(pk=w.archers.pk).update(health_halves=1, arrows=0)
    (faction,) = roster(campaign=w.campaign)
    archers = faction.armies[0].units[1]
    assert (archers.health_bar, archers.health_text, archers.arrows_bar) == ("◧▯▯", "½/3", "▯▯▯▯")


def test_s3_roster_follows_an_army_split(army_world: SimpleNamespace) -> None:
    w = army_world
    services.army_split(actor=w.moderator, army=w.army, unit_ids=[w.archers.pk], name="Sagittarii")
    (faction,) = roster(campaign=w.campaign)
    assert [(a.name, a.commander, a.province, [u.label for u in a.units]) for a in faction.armies] == [
        ("Army of Gaul", "Aetius", "Italia", ["Legio I"]),
        ("Sagittarii", "Aetius", "Italia", ["Archers"]),
    ]


def test_s3_roster_follows_an_army_move(army_world: SimpleNamespace) -> None:
    w = army_world
    w.army.province = ProvinceFactory(campaign=w.campaign, code="gallia", name_en="Gallia")
    w.army.save()
    (faction,) = roster(campaign=w.campaign)
    assert faction.armies[0].province == "Gallia"


def test_s3_roster_json(army_world: SimpleNamespace) -> None:
    with translation.override("en"):
        data = roster_json(roster(campaign=army_world.campaign))
    faction = data["factions"][0]  # type: ignore[index]
    assert faction["armies"][0]["units"][1] == {
        "id": army_world.archers.pk,
        "name": "",
        "type": "Archers",
        "class": "LI1",
        "health": 2.5,
        "max_health": 3.0,
        "arrows": 3,
        "max_arrows": 4,
    }
    assert faction["units_outside_armies"][0]["province"] == "Italia"


def _grow(w: SimpleNamespace, n: int) -> None:
    for i in range(n):
        army = ArmyFactory(faction=w.west, commander=w.aetius, province=w.italia, name=f"Army {i}")
        for _ in range(3):
            UnitFactory(faction=w.west, unit_type=w.infantry, army=army)
        UnitFactory(faction=w.west, unit_type=w.archer_type, province=w.italia)
    other = FactionFactory(campaign=w.campaign, slug=f"more-{n}")
    UnitFactory(faction=other, unit_type=w.infantry, province=w.italia)


@pytest.mark.parametrize("extra", [0, 25])
def test_s3_roster_reads_in_three_queries_whatever_the_size(
    army_world: SimpleNamespace, extra: int, django_assert_max_num_queries: Any
) -> None:
    _grow(army_world, extra)
    with django_assert_max_num_queries(3):
        rosters = roster(campaign=army_world.campaign)
        roster_bbcode(rosters)
    assert sum(f.unit_count for f in rosters) == 3 + extra * 4 + 1


@pytest.mark.parametrize("extra", [0, 25])
def test_s3_roster_index_reads_in_three_queries_whatever_the_size(
    army_world: SimpleNamespace, extra: int, django_assert_max_num_queries: Any
) -> None:
    _grow(army_world, extra)
    with django_assert_max_num_queries(3):
        index = roster_index(campaign=army_world.campaign)
    assert [(f.slug, f.armies, f.units) for f in index] == [
        ("west", 1 + extra, 3 + extra * 4),
        (f"more-{extra}", 0, 1),
    ]


def _take_aetius(w: SimpleNamespace) -> None:
    """The Huns hold Aetius, Western Rome's leader and the Army of Gaul's commander (Q5)."""
    huns = FactionFactory(campaign=w.campaign, slug="huns", turn_order=2)
    Commander.objects.filter(pk=w.aetius.pk).update(captured_by=huns, displaced=True)


CHANGES = {"units": lambda w: _grow(w, 20), "captive": _take_aetius}


@pytest.mark.parametrize("change", list(CHANGES))
@pytest.mark.parametrize(
    "path",
    [
        "/c/roster/rosters/",
        "/c/roster/rosters/west/",
        "/c/roster/rosters/west/roster.json",
        "/c/roster/roster.json",
        "/c/roster/roster.txt",
        "/c/roster/",
    ],
)
def test_s3_roster_pages_queries_do_not_grow_with_units_or_a_captive(
    army_world: SimpleNamespace, client: Any, django_assert_max_num_queries: Any, path: str, change: str
) -> None:
    small = _queries_of(client, path)
    CHANGES[change](army_world)  # a captive's mark (Q5) comes in the same queries as his name
    with django_assert_max_num_queries(small):
        assert client.get(path).status_code == 200


def _queries_of(client: Any, path: str) -> int:
    """How many queries answering ``path`` takes (200)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries.captured_queries)


def test_s3_roster_index_sums_up_each_faction_and_links_to_its_roster(
    army_world: SimpleNamespace, client: Any
) -> None:
    import re

    FactionFactory(campaign=army_world.campaign, slug="east", name_en="Eastern Rome", turn_order=2)
    page = client.get("/c/roster/rosters/").content.decode()
    rows = {
        slug: re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)
        for slug, row in re.findall(r'<tr id="faction-([\w-]+)">(.*?)</tr>', page, re.DOTALL)
    }
    assert list(rows) == ["west", "east"]
    # Legio I 5/5, the archers 2.5/3 and Legio II 5/5: 12.5 of 13 lines.
    assert rows["west"][:5] == [
        f'{swatch_svg("#8b1a1a")}<a href="/c/roster/rosters/west/">Western Rome</a>',
        "Aetius",
        "1",
        "3",
        "12½/13",
    ]
    assert rows["east"][1:5] == ["—", "0", "0", "0/0"]
    assert 'id="unit-' not in page  # the units are on each faction's own page


def test_s3_faction_roster_page_shows_its_units_only(army_world: SimpleNamespace, client: Any) -> None:
    other = FactionFactory(campaign=army_world.campaign, slug="east", turn_order=2)
    stranger = UnitFactory(faction=other, unit_type=army_world.infantry, province=army_world.italia)
    page = client.get("/c/roster/rosters/west/").content.decode()
    assert [
        f'id="unit-{u.pk}"' in page for u in (army_world.legio, army_world.archers, army_world.loose)
    ] == [
        True,
        True,
        True,
    ]
    assert f'id="unit-{stranger.pk}"' not in page
    assert '<a href="/c/roster/rosters/east/">' in page


@pytest.mark.parametrize(
    ("path", "scope"), [("/c/roster/rosters/west/roster.txt", "west"), ("/c/roster/roster.txt", "all")]
)
def test_s3_roster_bbcode_as_text(army_world: SimpleNamespace, client: Any, path: str, scope: str) -> None:
    FactionFactory(campaign=army_world.campaign, slug="east", name_en="Eastern Rome", turn_order=2)
    response = client.get(path)
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    if scope == "west":
        assert text == _bbcode_of(army_world.campaign, army_world.west)
    else:
        assert text == _bbcode(army_world.campaign)
        assert text.endswith("Eastern Rome[/color][/b]\nno units\n")


def _bbcode_of(campaign: Any, faction: Any) -> str:
    with translation.override("en"):
        return roster_bbcode(roster(campaign=campaign, faction=faction))


def test_s3_roster_page_escapes_names(army_world: SimpleNamespace, client: Any) -> None:
    UnitFactory(
        faction=army_world.west,
        unit_type=army_world.infantry,
        province=army_world.italia,
        name="<b>Legio & co</b>",
    )
    page = client.get("/c/roster/rosters/west/").content.decode()
    assert '<span class="unit-label">&lt;b&gt;Legio &amp; co&lt;/b&gt;</span>' in page
    assert "<b>Legio" not in page


def test_s3_roster_page_offers_the_bbcode_to_copy(army_world: SimpleNamespace, client: Any) -> None:
    import html

    page = client.get("/c/roster/rosters/west/").content.decode()
    textarea = page.split('<textarea id="bbcode" aria-labelledby="bbcode-title" class="bbcode-text" rows="12" readonly>')[1].split(
        "</textarea>"
    )[0]
    assert html.unescape(textarea) == _bbcode(army_world.campaign)
    assert '<button type="button" class="button js-copy" data-target="bbcode" data-done="Copied">' in page


def test_s3_roster_page_draws_health_as_cells(army_world: SimpleNamespace, client: Any) -> None:
    page = client.get("/c/roster/rosters/west/").content.decode()
    row = page.split(f'<tr id="unit-{army_world.archers.pk}">')[1].split("</tr>")[0]
    assert (
        '<span class="cells" role="img" aria-label="▮▮◧"><i class="cell full"></i><i class="cell full"></i>'
        '<i class="cell half"></i></span> <span class="num">2½/3</span>'
    ) in row
    assert (
        '<td class="arrows"><span class="cells arrows-cells" role="img" aria-label="▮▮▮▯"><i class="cell full">'
        '</i><i class="cell full"></i><i class="cell full"></i><i class="cell empty"></i></span> '
        '<span class="num">3/4</span></td>'
    ) in row


def test_s3_roster_page_shows_where_a_unit_outside_armies_stands(
    army_world: SimpleNamespace, client: Any
) -> None:
    Unit.objects.filter(pk=army_world.loose.pk).update(in_fortress=True)
    page = client.get("/c/roster/rosters/west/").content.decode()
    row = page.split(f'<tr id="unit-{army_world.loose.pk}">')[1].split("</tr>")[0]
    assert row == (
        '\n<td class="unit-cell"><span class="unit-label">Legio II</span> <small class="muted">Heavy infantry'
        '</small> <span class="class-badge">HI</span></td>\n'
        '<td class="health"><span class="cells" role="img" aria-label="▮▮▮▮▮">'
        + '<i class="cell full"></i>'
        * 5
        + '</span> <span class="num">5/5</span></td>\n'
        '<td class="arrows"><span class="muted">—</span></td>\n'
        '<td>Italia <span class="tag">in the fortress city</span></td>\n'
    )


@pytest.mark.parametrize(
    "path", ["/c/roster/rosters/west/?format=json", "/c/roster/rosters/west/roster.json"]
)
def test_s3_roster_json_of_one_faction(army_world: SimpleNamespace, client: Any, path: str) -> None:
    data = client.get(path).json()
    assert (data["campaign"], data["turn"], [f["name"] for f in data["factions"]]) == (
        "roster",
        1,
        ["Western Rome"],
    )
    assert [u["name"] for u in data["factions"][0]["armies"][0]["units"]] == ["Legio I", ""]


def test_s3_roster_of_an_unknown_faction_is_404(army_world: SimpleNamespace, client: Any) -> None:
    assert client.get("/c/roster/rosters/vandals/").status_code == 404


def test_s3_roster_png_is_800_wide_and_grows_with_units(army_world: SimpleNamespace, client: Any) -> None:
    import io

    from PIL import Image

    first = Image.open(io.BytesIO(client.get("/c/roster/rosters/west/roster.png").content))
    UnitFactory(faction=army_world.west, unit_type=army_world.infantry, army=army_world.army)
    second = Image.open(io.BytesIO(client.get("/c/roster/rosters/west/roster.png").content))
    assert (first.format, first.width, second.width) == ("PNG", 800, 800)
    assert second.height - first.height == 24  # one more row


def test_s3_the_index_offers_each_factions_png_but_not_one_of_every_faction(
    army_world: SimpleNamespace, client: Any
) -> None:
    page = client.get("/c/roster/rosters/").content.decode()
    assert '<a href="/c/roster/rosters/west/roster.png" download>PNG</a>' in page
    assert '"/c/roster/roster.png"' not in page


def test_s3_the_former_png_of_every_faction_sends_the_reader_to_the_index(
    army_world: SimpleNamespace, client: Any
) -> None:
    response = client.get("/c/roster/roster.png")
    assert (response.status_code, response["Location"]) == (302, "/c/roster/rosters/")


# -- a commander held captive (Q5) ------------------------------------------------------------------------


@pytest.fixture
def captive_world(army_world: SimpleNamespace) -> SimpleNamespace:
    """Aetius, Western Rome's leader and the Army of Gaul's commander, is held by the Huns (Q5, no free
    commander took his army); Stilicho, free, commands a second army."""
    w = army_world
    w.huns = FactionFactory(
        campaign=w.campaign, slug="huns", name_en="The Huns", name_ru="Гунны", turn_order=2
    )
    Commander.objects.filter(pk=w.aetius.pk).update(captured_by=w.huns, displaced=True)
    w.stilicho = CommanderFactory(faction=w.west, name="Stilicho")
    w.second = ArmyFactory(faction=w.west, commander=w.stilicho, province=w.italia, name="Army of Italy")
    return w


HELD = {"slug": "huns", "name": "The Huns"}
MARK = ' <span class="captured-mark" title="captured, held by The Huns">(captured)</span>'


def test_q5_the_bbcode_marks_the_captive_leader_and_commander(captive_world: SimpleNamespace) -> None:
    lines = _bbcode_of(captive_world.campaign, captive_world.west).splitlines()
    assert [line for line in lines if "Aetius" in line or "Stilicho" in line] == [
        "Leader: Aetius (captured)",
        "[b]Army of Gaul[/b] — commander Aetius (captured), Italia",
        "[b]Army of Italy[/b] — commander Stilicho, Italia",
    ]
    with translation.override("ru"):
        text = roster_bbcode(roster(campaign=captive_world.campaign, faction=captive_world.west))
    assert text.splitlines()[1:3] == [
        "Лидер: Aetius (в плену)",
        "[b]Army of Gaul[/b] — командующий Aetius (в плену), Италия",
    ]


def test_q5_the_json_names_the_captor(captive_world: SimpleNamespace, client: Any) -> None:
    (west,) = client.get("/c/roster/rosters/west/roster.json").json()["factions"]
    assert (west["leader"], west["leader_captured_by"]) == ("Aetius", HELD)
    assert [(a["name"], a["commander"], a["commander_captured_by"]) for a in west["armies"]] == [
        ("Army of Gaul", "Aetius", HELD),
        ("Army of Italy", "Stilicho", None),
    ]
    (huns,) = client.get("/c/roster/rosters/huns/roster.json", HTTP_ACCEPT_LANGUAGE="ru").json()["factions"]
    assert huns["leader_captured_by"] is None


def test_q5_the_roster_page_marks_the_captive_beside_his_name(
    captive_world: SimpleNamespace, client: Any
) -> None:
    page = client.get("/c/roster/rosters/west/").content.decode()
    assert f"Leader: <strong>Aetius</strong>{MARK}</p>" in page
    gaul = page.split(f'<article class="army-card" id="army-{captive_world.army.pk}">')[1].split(
        "</article>"
    )[0]
    assert f"Commander: <strong>Aetius</strong>{MARK} · Province: <strong>Italia</strong>" in gaul
    italy = page.split(f'<article class="army-card" id="army-{captive_world.second.pk}">')[1].split(
        "</article>"
    )[0]
    assert "Commander: <strong>Stilicho</strong> · Province" in italy
    assert page.count("(captured)") == 2 + 2  # the page and the BBCode to copy


def test_q5_the_index_and_the_campaign_page_mark_the_captive_leader(
    captive_world: SimpleNamespace, client: Any
) -> None:
    index = client.get("/c/roster/rosters/").content.decode()
    assert f"<td>Aetius{MARK}</td>" in index
    assert "<td>—</td>" in index  # the Huns have no leader
    campaign = client.get("/c/roster/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert (
        '<td>Aetius <span class="captured-mark" title="в плену у фракции Гунны">(в плену)</span></td>'
        in campaign
    )
