"""The strategic map as one JSON file: export it, and import it after checking every entry.

The file holds the map only (S5, S9, R1.3, R3, R4, R5): provinces with their names in both languages,
terrain, port, fortress city and its capacity, tribe, position and outline on the 1000 × 700 picture; the
borders with their kinds; and the exceptional terrain transitions of the province relief table. Who
controls what, armies and units are the campaign's state and are not part of it.

An import is checked as a whole before anything is written: a bad file is refused with every error keyed
by the entry and field it concerns (``provinces[3].terrain``), and the campaign is left as it was.

The format (``strategic/demo/late_roman_map.json`` is a full example)::

    {"format": "limes-map", "version": 1, "width": 1000, "height": 700,
     "provinces": [{"code": "dalmatia", "name_en": "Dalmatia", "name_ru": "Далмация",
                    "terrain": "field",               # field | forest | mountains | desert (T5)
                    "x": 450, "y": 325,               # position on the picture, whole numbers
                    "port": true, "fortress": true, "fortress_capacity": 3, "tribe": false,  # R5, R3, R4
                    "outline": [[x, y], ...]}],       # optional: drawn as a Voronoi cell when missing
     "borders": [{"a": "dacia", "b": "dalmatia", "kind": "normal"}],   # normal | rough | strait | impassable
     "transitions": [{"from": "annonaria", "to": "dalmatia", "terrain": "mountains"}],  # S9 exceptions
     "sea": [[x, y], ...]}                            # optional sites that keep water between coasts

``width``, ``height`` and ``sea`` are optional; ``port``, ``fortress``, ``tribe`` default to false and
``fortress_capacity`` to 3. A transition needs a passable border between its two provinces.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q

from campaign.errors import Conflict, Invalid, ServiceError
from campaign.models import Campaign
from campaign.permissions import Actor
from campaign.services import log_append, require_moderator
from strategic.geometry import MAP_HEIGHT, MAP_WIDTH, province_outlines
from strategic.messages import (
    BAD_BOOLEAN,
    BAD_CAPACITY,
    BAD_CODE,
    BAD_COORDINATE,
    BAD_FORMAT,
    BAD_KIND,
    BAD_NAME,
    BAD_OUTLINE,
    BAD_SEA_POINT,
    BAD_SIZE,
    BAD_VERSION,
    DUPLICATE_BORDER,
    DUPLICATE_CODE,
    DUPLICATE_TRANSITION,
    ENTRY_NOT_OBJECT,
    FILE_BAD_TERRAIN,
    FILE_IMPASSABLE,
    FILE_NOT_ADJACENT,
    FILE_SAME_PROVINCE,
    MAP_EXISTS,
    MISSING_FIELD,
    NO_PROVINCES,
    NOT_A_LIST,
    NOT_AN_OBJECT,
    PROVINCE_IN_USE,
    REFUSED,
    SAME_POSITION,
    UNKNOWN_FIELD,
    UNKNOWN_PROVINCE,
)
from strategic.models import Army, Battle, Border, Province, Terrain, TerrainTransition, Unit

FORMAT = "limes-map"
VERSION = 1


CODE_RE = re.compile(r"^[-a-zA-Z0-9_]{1,40}$")
TOP_FIELDS = {"format", "version", "width", "height", "provinces", "borders", "transitions", "sea"}
PROVINCE_FIELDS = {
    "code",
    "name_en",
    "name_ru",
    "terrain",
    "x",
    "y",
    "port",
    "fortress",
    "fortress_capacity",
    "tribe",
    "outline",
}
BORDER_FIELDS = {"a", "b", "kind"}
TRANSITION_FIELDS = {"from", "to", "terrain"}


@dataclass(frozen=True)
class ImportReport:
    """What an import did: provinces created, updated and deleted, borders, transitions, outlines drawn."""

    created: int
    updated: int
    deleted: int
    borders: int
    transitions: int
    outlines_computed: int

    def as_dict(self) -> dict[str, int]:
        """The report as JSON."""
        return asdict(self)


def map_export(*, campaign: Campaign) -> dict[str, Any]:
    """The campaign's map in the import format, in a stable order (provinces, borders and pairs by code)."""
    provinces = list(Province.objects.filter(campaign=campaign).order_by("code"))
    code_of = {p.pk: p.code for p in provinces}
    borders = []
    for border in Border.objects.filter(campaign=campaign):
        a, b = sorted((code_of[border.a_id], code_of[border.b_id]))
        borders.append({"a": a, "b": b, "kind": border.kind})
    transitions = [
        {"from": code_of[t.source_id], "to": code_of[t.target_id], "terrain": t.terrain}
        for t in TerrainTransition.objects.filter(campaign=campaign)
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "width": MAP_WIDTH,
        "height": MAP_HEIGHT,
        "provinces": [
            {
                "code": p.code,
                "name_en": p.name_en,
                "name_ru": p.name_ru,
                "terrain": p.terrain,
                "x": p.x,
                "y": p.y,
                "port": p.is_port,
                "fortress": p.has_fortress,
                "fortress_capacity": p.fortress_capacity,
                "tribe": p.has_tribe,
                "outline": p.shape or [],
            }
            for p in provinces
        ],
        "borders": sorted(borders, key=lambda b: (b["a"], b["b"])),
        "transitions": sorted(transitions, key=lambda t: (t["from"], t["to"])),
    }


class _Errors:
    """Errors of a file, keyed by entry and field, in the order found."""

    def __init__(self) -> None:
        self.by_key: dict[str, list[str]] = {}

    def add(self, key: str, message: Any, **values: Any) -> None:
        self.by_key.setdefault(key, []).append(str(message) % values if values else str(message))

    def __bool__(self) -> bool:
        return bool(self.by_key)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_point(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(_is_number(v) for v in value)
        and 0 <= value[0] <= MAP_WIDTH
        and 0 <= value[1] <= MAP_HEIGHT
    )


def _entries(data: dict[str, Any], field: str, errors: _Errors) -> list[Any]:
    value = data.get(field, [])
    if not isinstance(value, list):
        errors.add(field, NOT_A_LIST, field=field)
        return []
    return value


def _check_fields(
    entry: Any, label: str, key: str, allowed: set[str], required: tuple[str, ...], errors: _Errors
) -> bool:
    if not isinstance(entry, dict):
        errors.add(key, ENTRY_NOT_OBJECT, entry=label)
        return False
    for field in entry:
        if field not in allowed:
            errors.add(f"{key}.{field}", UNKNOWN_FIELD, entry=label, field=field)
    for field in required:
        if field not in entry:
            errors.add(f"{key}.{field}", MISSING_FIELD, entry=label, field=field)
    return True


def _check_top(data: Any, errors: _Errors) -> bool:
    if not isinstance(data, dict):
        errors.add("file", NOT_AN_OBJECT)
        return False
    if data.get("format") != FORMAT:
        errors.add("format", BAD_FORMAT)
    if data.get("version") != VERSION:
        errors.add("version", BAD_VERSION)
    for field, value in (("width", MAP_WIDTH), ("height", MAP_HEIGHT)):
        if field in data and data[field] != value:
            errors.add(field, BAD_SIZE, field=field, value=value)
    for field in data:
        if field not in TOP_FIELDS:
            errors.add(field, UNKNOWN_FIELD, entry="file", field=field)
    return True


def _check_provinces(data: dict[str, Any], errors: _Errors) -> list[dict[str, Any]]:
    entries = _entries(data, "provinces", errors)
    if not entries and "provinces" not in errors.by_key:
        errors.add("provinces", NO_PROVINCES)
    seen: set[str] = set()
    positions: dict[tuple[Any, Any], str] = {}
    good: list[dict[str, Any]] = []
    terrains = ", ".join(Terrain.values)
    for i, entry in enumerate(entries):
        key = f"provinces[{i}]"
        code = entry.get("code") if isinstance(entry, dict) else None
        label = f"{key} ({code})" if isinstance(code, str) else key
        if not _check_fields(
            entry, label, key, PROVINCE_FIELDS, ("code", "name_en", "name_ru", "terrain", "x", "y"), errors
        ):
            continue
        if "code" in entry:
            if not isinstance(code, str) or not CODE_RE.match(code):
                errors.add(f"{key}.code", BAD_CODE, entry=label)
            elif code in seen:
                errors.add(f"{key}.code", DUPLICATE_CODE, entry=label, code=code)
            else:
                seen.add(code)
        for field in ("name_en", "name_ru"):
            name = entry.get(field)
            if field in entry and not (isinstance(name, str) and 0 < len(name.strip()) <= 120):
                errors.add(f"{key}.{field}", BAD_NAME, entry=label, field=field)
        if "terrain" in entry and entry["terrain"] not in Terrain.values:
            errors.add(f"{key}.terrain", FILE_BAD_TERRAIN, entry=label, choices=terrains)
        for field, top in (("x", MAP_WIDTH), ("y", MAP_HEIGHT)):
            if field in entry and not (_is_int(entry[field]) and 0 <= entry[field] <= top):
                errors.add(f"{key}.{field}", BAD_COORDINATE, entry=label, field=field, max=top)
        position = (entry.get("x"), entry.get("y"))
        # Two provinces on one point would get one and the same Voronoi cell.
        if _is_int(position[0]) and _is_int(position[1]):
            if position in positions:
                errors.add(f"{key}.x", SAME_POSITION, entry=label, other=positions[position])
            positions.setdefault(position, str(code))
        for field in ("port", "fortress", "tribe"):
            if field in entry and not isinstance(entry[field], bool):
                errors.add(f"{key}.{field}", BAD_BOOLEAN, entry=label, field=field)
        capacity = entry.get("fortress_capacity", 3)
        if not (_is_int(capacity) and 1 <= capacity <= 99):
            errors.add(f"{key}.fortress_capacity", BAD_CAPACITY, entry=label)
        outline = entry.get("outline", [])
        if not (
            isinstance(outline, list)
            and (outline == [] or (len(outline) >= 3 and all(map(_is_point, outline))))
        ):
            errors.add(f"{key}.outline", BAD_OUTLINE, entry=label)
        good.append(entry)
    return good


def _pair_codes(
    entry: dict[str, Any],
    key: str,
    label: str,
    fields: tuple[str, str],
    codes: set[str] | None,
    errors: _Errors,
) -> tuple[str, str] | None:
    if codes is None:
        return None
    first, second = entry.get(fields[0]), entry.get(fields[1])
    ok = True
    for field, code in ((fields[0], first), (fields[1], second)):
        if field in entry and code not in codes:
            errors.add(f"{key}.{field}", UNKNOWN_PROVINCE, entry=label, field=field, code=code)
            ok = False
    if ok and fields[1] in entry and first == second:
        errors.add(f"{key}.{fields[1]}", FILE_SAME_PROVINCE, entry=label, field=fields[1], code=first)
        ok = False
    return (str(first), str(second)) if ok and fields[0] in entry and fields[1] in entry else None


def _check_borders(
    data: dict[str, Any], codes: set[str] | None, errors: _Errors
) -> dict[frozenset[str], str]:
    kinds = {}
    choices = ", ".join(Border.Kind.values)
    for i, entry in enumerate(_entries(data, "borders", errors)):
        key = f"borders[{i}]"
        if not _check_fields(entry, key, key, BORDER_FIELDS, ("a", "b"), errors):
            continue
        kind = entry.get("kind", Border.Kind.NORMAL)
        if kind not in Border.Kind.values:
            errors.add(f"{key}.kind", BAD_KIND, entry=key, choices=choices)
        pair = _pair_codes(entry, key, key, ("a", "b"), codes, errors)
        if pair is None:
            continue
        if frozenset(pair) in kinds:
            errors.add(key, DUPLICATE_BORDER, entry=key, a=pair[0], b=pair[1])
        else:
            kinds[frozenset(pair)] = kind
    return kinds


def _check_transitions(
    data: dict[str, Any], codes: set[str] | None, borders: dict[frozenset[str], str] | None, errors: _Errors
) -> list[dict[str, Any]]:
    good = []
    seen: set[tuple[str, str]] = set()
    terrains = ", ".join(Terrain.values)
    for i, entry in enumerate(_entries(data, "transitions", errors)):
        key = f"transitions[{i}]"
        if not _check_fields(entry, key, key, TRANSITION_FIELDS, ("from", "to", "terrain"), errors):
            continue
        if "terrain" in entry and entry["terrain"] not in Terrain.values:
            errors.add(f"{key}.terrain", FILE_BAD_TERRAIN, entry=key, choices=terrains)
        pair = _pair_codes(entry, key, key, ("from", "to"), codes, errors)
        if pair is None:
            continue
        if borders is not None and frozenset(pair) not in borders:
            errors.add(key, FILE_NOT_ADJACENT, entry=key, a=pair[0], b=pair[1])
        elif borders is not None and borders[frozenset(pair)] == Border.Kind.IMPASSABLE:
            errors.add(key, FILE_IMPASSABLE, entry=key, a=pair[0], b=pair[1])
        elif pair in seen:
            errors.add(key, DUPLICATE_TRANSITION, entry=key, a=pair[0], b=pair[1])
        seen.add(pair)
        good.append(entry)
    return good


def _check_sea(data: dict[str, Any], errors: _Errors) -> list[tuple[float, float]]:
    points = _entries(data, "sea", errors)
    for i, point in enumerate(points):
        if not _is_point(point):
            errors.add(f"sea[{i}]", BAD_SEA_POINT, entry=f"sea[{i}]")
    return (
        [(float(x), float(y)) for x, y in points]
        if not any(k.startswith("sea") for k in errors.by_key)
        else []
    )


def _check_in_use(campaign: Campaign, codes: set[str], errors: _Errors) -> list[Province]:
    gone = list(Province.objects.filter(campaign=campaign).exclude(code__in=codes))
    if not gone:
        return gone
    ids = [p.pk for p in gone]
    busy = set(Army.objects.filter(province_id__in=ids).values_list("province_id", flat=True))
    busy |= set(Unit.objects.filter(province_id__in=ids).values_list("province_id", flat=True))
    for province_id, origin_id in Battle.objects.filter(
        Q(province_id__in=ids) | Q(origin_id__in=ids)
    ).values_list("province_id", "origin_id"):
        busy |= {province_id, origin_id}
    for province in gone:
        if province.pk in busy:
            errors.add(f"provinces.{province.code}", PROVINCE_IN_USE, code=province.code)
    return gone


def _refuse(errors: _Errors) -> ServiceError:
    first = next(iter(errors.by_key.values()))[0]
    return Invalid(REFUSED, params={"first": first}, errors=errors.by_key)


@dataclass(frozen=True)
class _CheckedMap:
    """A map file that passed every check, and the provinces of the campaign it no longer has."""

    provinces: list[dict[str, Any]]
    borders: dict[frozenset[str], str]
    transitions: list[dict[str, Any]]
    sea: list[tuple[float, float]]
    gone: list[Province]


@transaction.atomic
def map_import(*, actor: Actor, campaign: Campaign, data: Any, replace: bool = False) -> ImportReport:
    """Check a map file and make it the campaign's map (moderators only; M1); all or nothing.

    Without ``replace`` the campaign must have no provinces yet. With it, provinces are matched by code:
    those in the file are updated in place (armies stay where they are), new ones are created, and those
    missing from the file are deleted unless armies, units or battles are there; borders and transitions
    become exactly the file's. Outlines missing from the file are drawn as Voronoi cells.
    """
    require_moderator(actor, campaign)
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if not replace and Province.objects.filter(campaign=campaign).exists():
        raise Conflict(MAP_EXISTS, field="replace")
    checked = _map_check(campaign=campaign, data=data, replace=replace)
    missing = [p["code"] for p in checked.provinces if not p.get("outline")]
    positions = {p["code"]: (p["x"], p["y"]) for p in checked.provinces}
    drawn = province_outlines(positions, checked.sea) if missing else {}
    TerrainTransition.objects.filter(campaign=campaign).delete()
    Border.objects.filter(campaign=campaign).delete()
    Province.objects.filter(pk__in=[p.pk for p in checked.gone]).delete()
    created, updated, by_code = _provinces_write(campaign=campaign, provinces=checked.provinces, drawn=drawn)
    _links_write(campaign=campaign, checked=checked, by_code=by_code)
    report = ImportReport(
        created=created,
        updated=updated,
        deleted=len(checked.gone),
        borders=len(checked.borders),
        transitions=len(checked.transitions),
        outlines_computed=len(missing),
    )
    log_append(
        campaign=campaign,
        kind="map_imported",
        actor=actor,
        rule="M1",
        data={**report.as_dict(), "replace": replace},
    )
    return report


def _map_check(*, campaign: Campaign, data: Any, replace: bool) -> _CheckedMap:
    """Every check of the file, all errors gathered before refusing (with ``replace``: provinces in use)."""
    errors = _Errors()
    if not _check_top(data, errors):
        raise _refuse(errors)
    provinces = _check_provinces(data, errors)
    # References to provinces are checked once the provinces themselves are right, so that one bad code
    # is reported once and not again at every border that names it.
    codes = None if any(k.startswith("provinces") for k in errors.by_key) else {p["code"] for p in provinces}
    borders = _check_borders(data, codes, errors)
    # Likewise a transition's border is looked for only once the borders are right.
    borders_ok = not any(k.startswith("borders") for k in errors.by_key)
    transitions = _check_transitions(data, codes, borders if borders_ok else None, errors)
    sea = _check_sea(data, errors)
    gone = _check_in_use(campaign, codes, errors) if replace and codes is not None else []
    if errors:
        raise _refuse(errors)
    return _CheckedMap(provinces, borders, transitions, sea, gone)


def _provinces_write(
    *, campaign: Campaign, provinces: list[dict[str, Any]], drawn: dict[str, Any]
) -> tuple[int, int, dict[str, Province]]:
    """The file's provinces saved, existing ones updated by code; returns the counts and provinces by code."""
    existing = {p.code: p for p in Province.objects.filter(campaign=campaign)}
    created = updated = 0
    by_code: dict[str, Province] = {}
    for entry in provinces:
        province = existing.get(entry["code"]) or Province(campaign=campaign, code=entry["code"])
        is_new = province.pk is None
        province.name_en = entry["name_en"].strip()
        province.name_ru = entry["name_ru"].strip()
        province.terrain = entry["terrain"]
        province.x, province.y = entry["x"], entry["y"]
        province.is_port = entry.get("port", False)
        province.has_fortress = entry.get("fortress", False)
        province.fortress_capacity = entry.get("fortress_capacity", 3)
        province.has_tribe = entry.get("tribe", False)
        province.shape = entry.get("outline") or drawn[entry["code"]]
        province.save()
        created, updated = created + is_new, updated + (not is_new)
        by_code[province.code] = province
    return created, updated, by_code


def _links_write(*, campaign: Campaign, checked: _CheckedMap, by_code: dict[str, Province]) -> None:
    """The file's borders and terrain transitions, created between the saved provinces."""
    Border.objects.bulk_create(
        [
            Border(campaign=campaign, a=low, b=high, kind=kind)
            for pair, kind in checked.borders.items()
            for low, high in [sorted((by_code[c] for c in pair), key=lambda p: p.pk)]
        ]
    )
    TerrainTransition.objects.bulk_create(
        [
            TerrainTransition(
                campaign=campaign, source=by_code[t["from"]], target=by_code[t["to"]], terrain=t["terrain"]
            )
            for t in checked.transitions
        ]
    )
