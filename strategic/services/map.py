"""The moderator's writes of the map (M1): provinces, borders, terrain transitions, unit types."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaign.errors import Conflict, Invalid
from campaign.messages import BAD_SLUG, CORRECTION_NEEDS_REASON, SLUG_TAKEN
from campaign.models import Campaign, Faction
from campaign.permissions import Actor
from campaign.selectors import campaign_has_begun
from campaign.services import SLUG_RE, log_append, require_moderator
from campaign.versions import require_version
from strategic.messages import (
    BAD_DAMAGE,
    BAD_HEALTH,
    BAD_TERRAIN,
    NOT_IN_CAMPAIGN,
    NOT_NEIGHBOURS,
    PROVINCE_BUSY,
)
from strategic.models import (
    Army,
    Battle,
    Border,
    Province,
    Terrain,
    TerrainTransition,
    Unit,
    UnitClass,
    UnitType,
)

PROVINCE_FIELDS = {
    "name_en",
    "name_ru",
    "terrain",
    "is_port",
    "has_fortress",
    "fortress_capacity",
    "has_tribe",
    "controller",
    "capital_of",
    "x",
    "y",
    "shape",
}
# What the game itself changes in a province (S6 capture, S10): once the campaign has begun, a moderator's
# change to it is a correction and needs a reason (M1).
PROVINCE_GAME_FIELDS = {"controller"}
UNIT_TYPE_FIELDS = {
    "name_en",
    "name_ru",
    "unit_class",
    "mounted",
    "health",
    "damage",
    "missile",
    "arrows",
    "missile_damage",
    "morale",
}


def _same_campaign(obj: Any, campaign: Campaign, field: str) -> None:
    if obj is not None and obj.campaign_id != campaign.pk:
        raise Invalid(NOT_IN_CAMPAIGN, field=field)


def _check_damage(value: Any, field: str) -> None:
    classes = set(UnitClass.values)
    if (
        not isinstance(value, dict)
        or set(value) != classes
        or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value.values())
    ):
        raise Invalid(BAD_DAMAGE, field=field, rule="T3")


def _jsonable(value: Any) -> Any:
    if isinstance(value, (Faction,)):
        return value.pk
    if isinstance(value, Decimal):
        return float(value)
    return value


@transaction.atomic
def province_create(
    *,
    actor: Actor,
    campaign: Campaign,
    code: str,
    name_en: str,
    name_ru: str,
    terrain: str = Terrain.FIELD,
    **fields: Any,
) -> Province:
    """Add a province to the map."""
    require_moderator(actor, campaign)
    if not code or not SLUG_RE.match(code):
        raise Invalid(BAD_SLUG, field="code")
    if Province.objects.filter(campaign=campaign, code=code).exists():
        raise Invalid(SLUG_TAKEN, field="code")
    if terrain not in Terrain.values:
        raise Invalid(BAD_TERRAIN, field="terrain", rule="T5")
    for name in fields:
        if name not in PROVINCE_FIELDS:
            raise Invalid(str(_("This field cannot be set here.")), field=name)
    _same_campaign(fields.get("controller"), campaign, "controller")
    _same_campaign(fields.get("capital_of"), campaign, "capital_of")
    province = Province.objects.create(
        campaign=campaign, code=code, name_en=name_en, name_ru=name_ru, terrain=terrain, **fields
    )
    log_append(
        campaign=campaign,
        kind="province_created",
        actor=actor,
        rule="M1",
        data={"province": code, "terrain": terrain},
    )
    return province


def require_correction_reason(*, campaign: Campaign, reason: str) -> None:
    """M1: once the campaign has begun, a change to what the game itself changes needs a reason (400 ``reason``)."""
    if campaign_has_begun(campaign=campaign) and not (reason or "").strip():
        raise Invalid(CORRECTION_NEEDS_REASON, field="reason", rule="M1")


@transaction.atomic
def province_update(
    *, actor: Actor, province: Province, reason: str = "", expected_version: str | None = None, **fields: Any
) -> Province:
    """Change a province (terrain, controller, capital, fortress, position, ...); a change of its controller
    once the campaign has begun is a correction and needs a reason (M1). ``expected_version``: the
    version of the province the form was drawn from (``campaign.versions``), 409 when it changed since."""
    campaign = province.campaign
    require_moderator(actor, campaign)
    province = Province.objects.select_for_update().get(pk=province.pk)
    require_version(province, expected_version)
    changed: dict[str, Any] = {}
    for name, value in fields.items():
        if name not in PROVINCE_FIELDS:
            raise Invalid(str(_("This field cannot be set here.")), field=name)
        if name == "terrain" and value not in Terrain.values:
            raise Invalid(BAD_TERRAIN, field="terrain", rule="T5")
        if name in ("controller", "capital_of"):
            _same_campaign(value, campaign, name)
        if getattr(province, name) != value:
            setattr(province, name, value)
            changed[name] = _jsonable(value)
    if PROVINCE_GAME_FIELDS & set(changed):
        require_correction_reason(campaign=campaign, reason=reason)
    if "capital_of" in changed and province.capital_of is not None:
        Province.objects.filter(capital_of=province.capital_of).exclude(pk=province.pk).update(
            capital_of=None
        )
    if changed:
        province.save(update_fields=list(changed))
        log_append(
            campaign=campaign,
            kind="province_changed",
            actor=actor,
            rule="M1",
            reason=reason,
            data={"province": province.code, **changed},
        )
    return province


@transaction.atomic
def province_delete(*, actor: Actor, province: Province) -> None:
    """Take a province off the map with its borders and transitions; refused while armies, units or battles
    are there (409)."""
    campaign = province.campaign
    require_moderator(actor, campaign)
    province = Province.objects.select_for_update().get(pk=province.pk)
    busy = (
        Army.objects.filter(province=province).exists()
        or Unit.objects.filter(province=province).exists()
        or Battle.objects.filter(Q(province=province) | Q(origin=province)).exists()
    )
    if busy:
        raise Conflict(PROVINCE_BUSY, params={"code": province.code}, field="province")
    code = province.code
    province.delete()
    log_append(campaign=campaign, kind="province_deleted", actor=actor, rule="M1", data={"code": code})


@transaction.atomic
def border_set(
    *, actor: Actor, campaign: Campaign, a: Province, b: Province, kind: str | None
) -> Border | None:
    """Make two provinces adjacent with a border of this kind (S5, R1.3), or remove it (``kind=None``)."""
    require_moderator(actor, campaign)
    _same_campaign(a, campaign, "a")
    _same_campaign(b, campaign, "b")
    if a.pk == b.pk:
        raise Invalid(NOT_NEIGHBOURS, field="b")
    if kind is not None and kind not in Border.Kind.values:
        raise Invalid(str(_("Choose normal, rough, strait or impassable.")), field="kind")
    low, high = sorted((a, b), key=lambda p: p.pk)
    border = Border.objects.select_for_update().filter(a=low, b=high).first()
    before = border.kind if border else None
    if kind is None:
        if border is not None:
            border.delete()
        border = None
    elif border is None:
        border = Border.objects.create(campaign=campaign, a=low, b=high, kind=kind)
    else:
        border.kind = kind
        border.save(update_fields=["kind"])
    log_append(
        campaign=campaign,
        kind="border_set",
        actor=actor,
        rule="S5",
        data={"a": low.code, "b": high.code, "before": before, "after": kind},
    )
    return border


@transaction.atomic
def transition_set(
    *, actor: Actor, campaign: Campaign, source: Province, target: Province, terrain: str | None
) -> TerrainTransition | None:
    """Set (``terrain=None``: remove) the battlefield terrain for moving from source into target (S9)."""
    require_moderator(actor, campaign)
    _same_campaign(source, campaign, "source")
    _same_campaign(target, campaign, "target")
    if source.pk == target.pk:
        raise Invalid(NOT_NEIGHBOURS, field="target")
    if terrain is not None and terrain not in Terrain.values:
        raise Invalid(BAD_TERRAIN, field="terrain", rule="S9")
    row = TerrainTransition.objects.select_for_update().filter(source=source, target=target).first()
    before = row.terrain if row else None
    if terrain is None:
        if row is not None:
            row.delete()
        row = None
    elif row is None:
        row = TerrainTransition.objects.create(
            campaign=campaign, source=source, target=target, terrain=terrain
        )
    else:
        row.terrain = terrain
        row.save(update_fields=["terrain"])
    log_append(
        campaign=campaign,
        kind="transition_set",
        actor=actor,
        rule="S9",
        data={"source": source.code, "target": target.code, "before": before, "after": terrain},
    )
    return row


def _check_unit_type(fields: dict[str, Any]) -> None:
    if "unit_class" in fields and fields["unit_class"] not in UnitClass.values:
        raise Invalid(str(_("Choose LI1, LI2, HI, LC or HC.")), field="unit_class", rule="T3")
    if "health" in fields:
        health = Decimal(str(fields["health"]))
        if health <= 0 or (health * 2) != int(health * 2):
            raise Invalid(BAD_HEALTH, field="health", rule="T3.1")
    if "damage" in fields:
        _check_damage(fields["damage"], "damage")
    if fields.get("missile_damage") is not None:
        _check_damage(fields["missile_damage"], "missile_damage")


@transaction.atomic
def unit_type_create(
    *,
    actor: Actor,
    campaign: Campaign,
    code: str,
    name_en: str,
    name_ru: str,
    unit_class: str,
    health: Decimal | float,
    damage: dict[str, int],
    **fields: Any,
) -> UnitType:
    """Add a unit card (T3) to the campaign."""
    require_moderator(actor, campaign)
    if not code or not SLUG_RE.match(code):
        raise Invalid(BAD_SLUG, field="code")
    if UnitType.objects.filter(campaign=campaign, code=code).exists():
        raise Invalid(SLUG_TAKEN, field="code")
    for name in fields:
        if name not in UNIT_TYPE_FIELDS:
            raise Invalid(str(_("This field cannot be set here.")), field=name)
    values = {"unit_class": unit_class, "health": health, "damage": damage, **fields}
    _check_unit_type(values)
    values["health"] = Decimal(str(health))
    unit_type = UnitType.objects.create(
        campaign=campaign, code=code, name_en=name_en, name_ru=name_ru, **values
    )
    log_append(
        campaign=campaign,
        kind="unit_type_created",
        actor=actor,
        rule="T3",
        data={
            "unit_type": code,
            "unit_class": unit_class,
            "health": float(values["health"]),
            "damage": damage,
        },
    )
    return unit_type


@transaction.atomic
def unit_type_update(
    *, actor: Actor, unit_type: UnitType, expected_version: str | None = None, **fields: Any
) -> UnitType:
    """Change a unit card (T3); units already in play keep their current health and arrows."""
    campaign = unit_type.campaign
    require_moderator(actor, campaign)
    for name in fields:
        if name not in UNIT_TYPE_FIELDS:
            raise Invalid(str(_("This field cannot be set here.")), field=name)
    _check_unit_type(fields)
    unit_type = UnitType.objects.select_for_update().get(pk=unit_type.pk)
    require_version(unit_type, expected_version)
    changed: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "health":
            value = Decimal(str(value))
        if getattr(unit_type, name) != value:
            setattr(unit_type, name, value)
            changed[name] = _jsonable(value)
    if changed:
        unit_type.save(update_fields=list(changed))
        log_append(
            campaign=campaign,
            kind="unit_type_changed",
            actor=actor,
            rule="T3",
            data={"unit_type": unit_type.code, **changed},
        )
    return unit_type
