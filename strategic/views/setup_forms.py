"""Forms of the moderator's setup pages of the strategic map (M1): provinces, borders, transitions, the map
file, unit cards, starting units and armies. Choices are limited to one campaign; a view then calls one
service and puts its refusal back on the field it names (``campaign.forms.refusal_to_form``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign.forms import VersionedForm
from strategic.models import Border, Terrain, UnitClass

NONE = [("", "—")]


def _choices(rows: Any) -> list[tuple[Any, str]]:
    return [(r.pk, r.name) for r in rows]


class MapUploadForm(forms.Form):
    """A map file (the format of ``strategic.services.map_file``)."""

    file = forms.FileField(label=_("Map file (JSON)"))
    replace = forms.BooleanField(
        required=False, label=_("Replace the campaign's map (provinces are matched by code)")
    )


class ProvinceForm(VersionedForm):
    """A province's names, terrain, port, fortress city and its room, tribe, controller and capital."""

    name_en = forms.CharField(max_length=120, label=_("Name (English)"))
    name_ru = forms.CharField(max_length=120, label=_("Name (Russian)"))
    terrain = forms.ChoiceField(choices=Terrain.choices, label=_("Terrain (T5, S9)"))
    is_port = forms.BooleanField(required=False, label=_("Port (R5)"))
    has_fortress = forms.BooleanField(required=False, label=_("Fortress city (R3)"))
    fortress_capacity = forms.IntegerField(min_value=1, max_value=99, initial=3, label=_("Room in the fortress city (R3)"))
    has_tribe = forms.BooleanField(required=False, label=_("Tribe (R4)"))
    controller = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("Controller (S6)"))
    capital_of = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("Capital of"))
    reason = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}),
        label=_("Reason (for the log; needed for a correction once the campaign has begun, M1)"),
    )

    def __init__(self, *args: Any, factions: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["controller"].choices = NONE + _choices(factions)
        self.fields["capital_of"].choices = NONE + _choices(factions)


class ProvinceCreateForm(forms.Form):
    """A new province at a point of the map picture (1000 × 700)."""

    code = forms.SlugField(max_length=40, label=_("Code"))
    name_en = forms.CharField(max_length=120, label=_("Name (English)"))
    name_ru = forms.CharField(max_length=120, label=_("Name (Russian)"))
    terrain = forms.ChoiceField(choices=Terrain.choices, label=_("Terrain (T5, S9)"))
    x = forms.IntegerField(min_value=0, max_value=1000, label=_("Position across (0–1000)"))
    y = forms.IntegerField(min_value=0, max_value=700, label=_("Position down (0–700)"))


class BorderForm(forms.Form):
    """The border of two provinces (S5, R1.3), or none."""

    a = forms.TypedChoiceField(coerce=int, label=_("Province"))
    b = forms.TypedChoiceField(coerce=int, label=_("Other province"))
    kind = forms.ChoiceField(
        choices=[*Border.Kind.choices, ("none", _("No border"))], label=_("Border")
    )

    def __init__(self, *args: Any, provinces: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["a"].choices = _choices(provinces)
        self.fields["b"].choices = _choices(provinces)


class TransitionForm(forms.Form):
    """An exception of the province relief table (S9), or none."""

    source = forms.TypedChoiceField(coerce=int, label=_("Moving from"))
    target = forms.TypedChoiceField(coerce=int, label=_("Into"))
    terrain = forms.ChoiceField(
        choices=[*Terrain.choices, ("none", _("The terrain of the province entered"))],
        label=_("Battles are fought on"),
    )

    def __init__(self, *args: Any, provinces: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["source"].choices = _choices(provinces)
        self.fields["target"].choices = _choices(provinces)


CLASSES = UnitClass.values


class UnitTypeForm(VersionedForm):
    """A unit card (T3) with its Morale (Q2)."""

    code = forms.SlugField(max_length=40, label=_("Code"))
    name_en = forms.CharField(max_length=120, label=_("Name (English)"))
    name_ru = forms.CharField(max_length=120, label=_("Name (Russian)"))
    unit_class = forms.ChoiceField(choices=UnitClass.choices, label=_("Class (T3)"))
    mounted = forms.BooleanField(required=False, label=_("Mounted (T4)"))
    health = forms.DecimalField(
        min_value=Decimal("0.5"), max_value=Decimal("99.5"), decimal_places=1, initial=5,
        widget=forms.NumberInput(attrs={"step": "0.5"}), label=_("Health in lines (T3.1)"),
    )
    missile = forms.BooleanField(required=False, label=_("Shoots (T9)"))
    arrows = forms.IntegerField(min_value=0, max_value=99, initial=0, label=_("Arrows (T9)"))
    morale = forms.IntegerField(min_value=3, max_value=18, initial=10, label=_("Morale (Q2)"))

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for cls in CLASSES:
            self.fields[f"damage_{cls}"] = forms.IntegerField(
                min_value=0, max_value=99, initial=0, label=_("Damage against %(cls)s (T7.2)") % {"cls": cls}
            )
        for cls in CLASSES:
            self.fields[f"volley_{cls}"] = forms.IntegerField(
                required=False, min_value=0, max_value=99,
                label=_("Volley damage against %(cls)s (T9.4; empty: as in melee)") % {"cls": cls},
            )
        if editing:
            del self.fields["code"]
        else:
            del self.fields["version"]

    def clean(self) -> dict[str, Any]:
        """Volley damage is given for every class or for none (T9.4)."""
        data = super().clean() or {}
        volleys = [data.get(f"volley_{cls}") for cls in CLASSES]
        if any(v is not None for v in volleys) and any(v is None for v in volleys):
            for cls, value in zip(CLASSES, volleys, strict=True):
                if value is None:
                    self.add_error(f"volley_{cls}", _("Give the volley damage against every class, or none."))
        return data

    def service_values(self) -> dict[str, Any]:
        """The card as ``unit_type_create`` / ``unit_type_update`` take it."""
        data = self.cleaned_data
        values = {
            name: data[name]
            for name in ("name_en", "name_ru", "unit_class", "mounted", "health", "missile", "arrows", "morale")
        }
        values["damage"] = {cls: data[f"damage_{cls}"] for cls in CLASSES}
        volleys = {cls: data[f"volley_{cls}"] for cls in CLASSES}
        values["missile_damage"] = volleys if all(v is not None for v in volleys.values()) else None
        return values


def unit_type_initial(unit_type: Any, version: str) -> dict[str, Any]:
    """A card as the form's initial values."""
    initial = {
        name: getattr(unit_type, name)
        for name in ("name_en", "name_ru", "unit_class", "mounted", "health", "missile", "arrows", "morale")
    }
    initial["version"] = version
    for cls in CLASSES:
        initial[f"damage_{cls}"] = (unit_type.damage or {}).get(cls, 0)
        initial[f"volley_{cls}"] = (unit_type.missile_damage or {}).get(cls)
    return initial


class UnitsCreateForm(forms.Form):
    """New units of a faction, of one card, in one province (S4)."""

    faction = forms.TypedChoiceField(coerce=int, label=_("Faction"))
    unit_type = forms.TypedChoiceField(coerce=int, label=_("Unit card"))
    province = forms.TypedChoiceField(coerce=int, label=_("Province"))
    count = forms.IntegerField(min_value=1, max_value=20, initial=1, label=_("How many"))
    name = forms.CharField(required=False, max_length=120, label=_("Name (optional)"))

    def __init__(self, *args: Any, factions: Any, unit_types: Any, provinces: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = _choices(factions)
        self.fields["unit_type"].choices = _choices(unit_types)
        self.fields["province"].choices = _choices(provinces)


class ArmyCreateForm(forms.Form):
    """A new army of a faction's units standing loose in one province, under one of its commanders (S2)."""

    name = forms.CharField(max_length=120, label=_("Name of the army"))
    commander = forms.TypedChoiceField(coerce=int, label=_("Commander"))
    units = forms.TypedMultipleChoiceField(
        coerce=int, widget=forms.CheckboxSelectMultiple, label=_("Units (of one faction, in one province)")
    )

    def __init__(self, *args: Any, commanders: Any, units: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["commander"].choices = [(c.pk, f"{c.name} ({c.faction.name})") for c in commanders]
        self.fields["units"].choices = [
            (u.pk, f"{u.faction.name} · {u.province.name} · {u}") for u in units
        ]


class UnitCorrectForm(VersionedForm):
    """A unit's health and place set by the moderator (M1): an army of its faction, or a province."""

    health = forms.DecimalField(
        min_value=Decimal("0.5"), max_value=Decimal("99.5"), decimal_places=1,
        widget=forms.NumberInput(attrs={"step": "0.5"}), label=_("Health in lines (T3.1)"),
    )
    army = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("In the army"))
    province = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label=_("Or outside any army, in the province")
    )
    reason = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}),
        label=_("Reason (for the log; needed for a correction once the campaign has begun, M1)"),
    )

    def __init__(self, *args: Any, armies: Any, provinces: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["army"].choices = NONE + [(a.pk, f"{a.name} ({a.province.name})") for a in armies]
        self.fields["province"].choices = NONE + _choices(provinces)

    def clean(self) -> dict[str, Any]:
        """One place: an army or a province."""
        data = super().clean() or {}
        if data.get("army") and data.get("province"):
            self.add_error("province", _("Put the unit into an army or into a province, not both."))
        return data
