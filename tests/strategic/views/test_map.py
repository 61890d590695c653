"""The strategic map page and pictures: every province drawn and named, marks, borders by kind, PNG size."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.utils import translation
from PIL import Image

from campaign.models import Campaign, Membership
from campaign.templatetags.swatches import swatch_svg
from strategic.models import Border, Province
from strategic.render.map_data import map_data
from strategic.render.map_svg import map_svg
from tests.factories import ArmyFactory, BattleFactory, ProvinceFactory, UnitFactory, border, member

SVG = "{http://www.w3.org/2000/svg}"


def _svg(client: Any, slug: str = "limes", **headers: Any) -> ET.Element:
    response = client.get(f"/c/{slug}/map.svg", **headers)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    return ET.fromstring(response.content)


def _labels(root: ET.Element) -> list[str]:
    return sorted(t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "label")


def test_map_page_is_public_for_a_public_campaign(world: Any, client: Any) -> None:
    response = client.get("/c/limes/map/")
    assert response.status_code == 200
    assert b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 700"' in response.content


def test_map_page_of_a_private_campaign_is_404_for_a_stranger(world: Any, client: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)
    client.force_login(world.outsider)
    assert client.get("/c/limes/map/").status_code == 404
    assert client.get("/c/limes/map.png").status_code == 404


def test_map_page_of_a_private_campaign_opens_to_a_member(world: Any, client: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)
    client.force_login(world.west_leader)
    assert client.get("/c/limes/map/").status_code == 200


def test_map_svg_names_every_province_in_english(world: Any, client: Any) -> None:
    assert _labels(_svg(client)) == [
        "Armenia",
        "Dacia",
        "Dalmatia",
        "Gaul",
        "Italia",
        "Moesia",
        "Pannonia",
        "Thracia",
    ]


def test_map_svg_names_every_province_in_russian(world: Any, client: Any) -> None:
    Province.objects.filter(campaign=world.campaign, code="dacia").update(name_ru="Дакия")
    names = _labels(_svg(client, HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Дакия" in names
    assert len(names) == 8
    assert "Dacia" not in names


def test_province_without_outline_is_a_circle_at_its_position(world: Any, client: Any) -> None:
    Province.objects.filter(pk=world.dacia.pk).update(x=420, y=310)
    group = _svg(client).find(f".//{SVG}g[@id='province-dacia']")
    assert group is not None
    circle = group.find(f"{SVG}circle")
    assert circle is not None
    assert (circle.get("cx"), circle.get("cy"), circle.get("r")) == ("420", "310", "30")


def test_province_outline_is_drawn_filled_by_terrain_and_edged_by_controller(world: Any, client: Any) -> None:
    Province.objects.filter(pk=world.gaul.pk).update(shape=[[0, 0], [100, 0], [100, 100], [0, 100]])
    world.west.color = "#8b1a1a"
    world.west.save()
    paths = _svg(client).findall(f".//{SVG}g[@id='province-gaul']/{SVG}path")
    assert paths[0].get("d") == "M0,0 L100,0 L100,100 L0,100 Z"
    assert paths[0].get("fill") == "url(#t-forest)"
    assert paths[2].get("stroke") == "#8b1a1a"


def test_borders_are_drawn_by_kind_and_impassable_ones_not_at_all(world: Any, client: Any) -> None:
    lines = [el.get("class") for el in _svg(client).iter(f"{SVG}line")]
    assert sorted(lines) == sorted(
        ["border border-normal"] * 5 + ["border border-rough", "border border-strait"]
    )


def test_rough_border_follows_the_shared_edge_of_two_outlines(world: Any, client: Any) -> None:
    a = ProvinceFactory(
        campaign=world.campaign,
        code="west-square",
        x=50,
        y=50,
        shape=[[0, 0], [100, 0], [100, 100], [0, 100]],
    )
    b = ProvinceFactory(
        campaign=world.campaign,
        code="east-square",
        x=150,
        y=50,
        shape=[[100, 0], [200, 0], [200, 100], [100, 100]],
    )
    border(a, b, Border.Kind.ROUGH)
    rough = [el for el in _svg(client).iter(f"{SVG}line") if el.get("class") == "border border-rough"]
    edges = {tuple(el.get(k) for k in ("x1", "y1", "x2", "y2")) for el in rough}
    assert edges & {("100", "0", "100", "100"), ("100", "100", "100", "0")}
    assert rough[-1].get("stroke-dasharray") == "9 5"


def test_capitals_fortresses_ports_and_tribes_are_marked(world: Any, client: Any) -> None:
    Province.objects.filter(pk=world.italia.pk).update(has_fortress=True, is_port=True, has_tribe=True)
    root = _svg(client)
    classes = [
        g.get("class") for g in root.iter() if g.get("class") in {"capital", "fortress", "port", "tribe"}
    ]
    assert sorted(classes) == ["capital", "capital", "capital", "fortress", "port", "tribe"]


def test_armies_are_counters_in_faction_colour_with_their_unit_count(world: Any, client: Any) -> None:
    world.east.color = "#6a2c91"
    world.east.save()
    counter = _svg(client).find(f".//{SVG}g[@data-army='{world.east_army.pk}']")
    assert counter is not None
    assert counter.find(f"{SVG}rect").get("fill") == "#6a2c91"  # type: ignore[union-attr]
    assert counter.find(f"{SVG}text").text == "2"  # type: ignore[union-attr]
    assert counter.find(f"{SVG}title").text == "Danube army — Belisarius — Eastern Rome"  # type: ignore[union-attr]


def test_battles_of_the_turn_are_marked_in_their_province(world: Any, client: Any) -> None:
    BattleFactory(
        attacker_army=world.east_army,
        province=world.dalmatia,
        origin=world.dacia,
        defender_faction=world.west,
    )
    marks = [g for g in _svg(client).iter(f"{SVG}g") if (g.get("class") or "").startswith("battle ")]
    assert [m.get("class") for m in marks] == ["battle battle-pending"]


def test_map_png_is_a_1000_by_700_png(world: Any, client: Any) -> None:
    response = client.get("/c/limes/map.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert (image.format, image.size) == ("PNG", (1000, 700))


def test_map_png_colours_a_province_by_its_terrain(world: Any, client: Any) -> None:
    Province.objects.filter(pk=world.pannonia.pk).update(x=500, y=350, controller=None)
    image = Image.open(io.BytesIO(client.get("/c/limes/map.png").content)).convert("RGB")
    assert image.getpixel((500, 370)) == (241, 219, 163)  # desert sand, inside the circle, below the label


@pytest.mark.parametrize("armies", [1, 30])
def test_map_data_reads_in_five_queries_whatever_the_size(
    world: Any, armies: int, django_assert_max_num_queries: Any
) -> None:
    for i in range(armies):
        army = ArmyFactory(faction=world.west, commander=world.aetius, province=world.italia, name=f"A{i}")
        UnitFactory(faction=world.west, unit_type=world.infantry, army=army)
    with django_assert_max_num_queries(5), translation.override("en"):
        map_svg(map_data(campaign=world.campaign))


def test_the_kept_map_follows_every_change_and_each_language(world: Any, client: Any) -> None:
    """The drawn map is kept for the rows it was drawn from: a unit, a name, a controller changed, or another
    language, and the next request draws it anew."""
    def counter(**headers: Any) -> tuple[str | None, str | None]:
        g = _svg(client, **headers).find(f".//{SVG}g[@data-army='{world.east_army.pk}']")
        assert g is not None
        return g.find(f"{SVG}text").text, g.find(f"{SVG}title").text  # type: ignore[union-attr]

    assert counter() == ("2", "Danube army — Belisarius — Eastern Rome")
    assert counter() == ("2", "Danube army — Belisarius — Eastern Rome")  # the kept one
    UnitFactory(faction=world.east, unit_type=world.infantry, army=world.east_army)
    assert counter() == ("3", "Danube army — Belisarius — Eastern Rome")
    world.east_army.name = "Army of Thrace"
    world.east_army.save()
    assert counter() == ("3", "Army of Thrace — Belisarius — Eastern Rome")
    world.east.name_ru = "Восточная Римская империя"
    world.east.save()
    assert counter(HTTP_ACCEPT_LANGUAGE="ru") == ("3", "Army of Thrace — Belisarius — Восточная Римская империя")
    assert counter() == ("3", "Army of Thrace — Belisarius — Eastern Rome")
    Province.objects.filter(pk=world.dalmatia.pk).update(controller=world.east)
    drawn = _svg(client).find(f".//{SVG}g[@id='province-{world.dalmatia.code}']")
    assert drawn is not None
    assert [shape.get("stroke") for shape in drawn][3] == world.east.color  # the edge: the controller's colour


def test_the_newest_unfinished_battle_of_a_province_is_the_one_marked(world: Any, client: Any) -> None:
    from strategic.models import Battle

    for status in (Battle.Status.PENDING, Battle.Status.TACTICAL, Battle.Status.RESOLVED):
        BattleFactory(
            attacker_army=world.east_army,
            province=world.dalmatia,
            origin=world.dacia,
            defender_faction=world.west,
            status=status,
        )
    marks = [g for g in _svg(client).iter(f"{SVG}g") if (g.get("class") or "").startswith("battle ")]
    assert [m.get("class") for m in marks] == ["battle battle-tactical"]
    # The map page reads the battles once for its table and the picture: the same mark.
    page = client.get("/c/limes/map/").content.decode()
    assert [c for c in ("pending", "tactical", "resolved") if f'<g class="battle battle-{c}"' in page] == [
        "tactical"
    ]


def test_member_role_is_shown_in_the_header(world: Any, client: Any) -> None:
    member(world.campaign, Membership.Role.OBSERVER, user=world.outsider)
    client.force_login(world.outsider)
    assert "You take part as Observer" in client.get("/c/limes/map/").content.decode()


def test_battles_of_the_turn_are_listed_under_the_map(world: Any, client: Any) -> None:
    battle = BattleFactory(
        attacker_army=world.east_army,
        province=world.dalmatia,
        origin=world.dacia,
        defender_faction=world.west,
        terrain="mountains",
        status="tactical",
    )
    page = client.get("/c/limes/map/").content.decode()
    row = page.split(f'<tr id="battle-{battle.pk}">')[1].split("</tr>")[0]
    assert "Dalmatia" in row and "from Dacia" in row and "Mountains" in row
    assert f'<a href="/battles/{battle.pk}/">Being fought on the tactical map</a>' in row


def test_an_edited_outline_is_drawn_anew_and_its_rough_border_follows(world: Any, client: Any) -> None:
    # Geometry is kept between requests, keyed by the outline itself: a map edit can never show stale shapes.
    def drawn() -> tuple[str | None, set[tuple[str | None, ...]]]:
        root = _svg(client)
        path = root.find(f".//{SVG}g[@id='province-b-sq']/{SVG}path")
        rough = [el for el in root.iter(f"{SVG}line") if el.get("class") == "border border-rough"]
        lines = {tuple(el.get(k) for k in ("x1", "y1", "x2", "y2")) for el in rough}
        return path.get("d") if path is not None else None, lines - before

    before: set[tuple[str | None, ...]] = set()
    before = drawn()[1]
    a = ProvinceFactory(
        campaign=world.campaign, code="a-sq", x=50, y=50, shape=[[0, 0], [100, 0], [100, 100], [0, 100]]
    )
    b = ProvinceFactory(
        campaign=world.campaign, code="b-sq", x=150, y=50, shape=[[100, 0], [200, 0], [200, 100], [100, 100]]
    )
    border(a, b, Border.Kind.ROUGH)
    assert drawn() == ("M100,0 L200,0 L200,100 L100,100 Z", {("100", "0", "100", "100")})
    Province.objects.filter(pk=b.pk).update(shape=[[100, 0], [200, 0], [200, 100], [100, 100], [100, 50]])
    assert drawn() == (
        "M100,0 L200,0 L200,100 L100,100 L100,50 Z",
        # The shared edge is gone (b's side is now two edges): the border is drawn between the centres.
        {("80", "50", "120", "50")},
    )


def test_armies_are_listed_under_the_map_with_names_escaped(world: Any, client: Any) -> None:
    ArmyFactory(
        faction=world.east,
        commander=world.belisarius,
        province=world.east_army.province,
        name="Zeno & <i>Foederati</i>",
    )
    page = client.get("/c/limes/map/").content.decode()
    row = page.split(f'<tr id="row-{world.east_army.province.code}">')[1].split("</tr>")[0]
    chips = row.split("<td>")[-1]
    assert chips == (
        f'<span class="army-chip" title="Eastern Rome">{swatch_svg(world.east.color)}Danube army (2)</span> '
        f'<span class="army-chip" title="Eastern Rome">{swatch_svg(world.east.color)}'
        "Zeno &amp; &lt;i&gt;Foederati&lt;/i&gt; (0)"
        "</span> </td>\n      "
    )


@pytest.mark.parametrize(("language", "label"), [("en", "units outside armies"), ("ru", "отряды вне армий")])
def test_the_legend_explains_the_dashed_mark_of_units_outside_armies(world: Any, client: Any, language: str,
                                                                     label: str) -> None:
    html = client.get("/c/limes/map/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<li><span class="key key-loose" aria-hidden="true"></span>{label}</li>' in html
