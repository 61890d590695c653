"""Forms of the players' turn page: ids resolved to objects of one faction; a view then calls a service."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign.models import Commander, Faction
from strategic.models import Army, Battle, Province, Unit


class _FactionForm(forms.Form):
    """A form whose choices are limited to one faction's armies, units and commanders."""

    def __init__(self, *args: Any, faction: Faction, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.faction = faction
        armies = Army.objects.filter(faction=faction).select_related("province")
        for name in ("army", "into"):
            if name in self.fields:
                self.fields[name].queryset = armies  # type: ignore[attr-defined]
        if "unit" in self.fields:
            self.fields["unit"].queryset = Unit.objects.filter(faction=faction)  # type: ignore[attr-defined]
        if "units" in self.fields:
            self.fields["units"].queryset = Unit.objects.filter(faction=faction)  # type: ignore[attr-defined]
        if "commander" in self.fields:
            self.fields["commander"].queryset = Commander.objects.filter(  # type: ignore[attr-defined]
                faction=faction, displaced=False
            )
        if "battle" in self.fields:
            self.fields["battle"].queryset = Battle.objects.filter(  # type: ignore[attr-defined]
                campaign_id=faction.campaign_id, status=Battle.Status.PENDING
            )
        if "destination" in self.fields:
            self.fields["destination"].queryset = Province.objects.filter(  # type: ignore[attr-defined]
                campaign_id=faction.campaign_id
            )


class AssignForm(_FactionForm):
    """Place a unit into an army (S2, S4)."""

    unit = forms.ModelChoiceField(queryset=Unit.objects.none(), label=_("unit"))
    army = forms.ModelChoiceField(queryset=Army.objects.none(), label=_("army"))


class ArmyCreateForm(_FactionForm):
    """Form a new army from units outside armies in one province (S2)."""

    name = forms.CharField(max_length=120, label=_("name of the new army"))
    commander = forms.ModelChoiceField(queryset=Commander.objects.none(), label=_("commander"))
    units = forms.ModelMultipleChoiceField(queryset=Unit.objects.none(), label=_("units"))


class MoveForm(_FactionForm):
    """Move an army into an adjacent province (S5)."""

    army = forms.ModelChoiceField(queryset=Army.objects.none(), label=_("army"))
    destination = forms.ModelChoiceField(queryset=Province.objects.none(), label=_("destination"))
    expected_version = forms.IntegerField(required=False, widget=forms.HiddenInput)


class SplitForm(_FactionForm):
    """Split some units off an army into a new one (S2)."""

    army = forms.ModelChoiceField(queryset=Army.objects.none(), label=_("army"))
    units = forms.ModelMultipleChoiceField(queryset=Unit.objects.none(), label=_("units to split off"))
    name = forms.CharField(max_length=120, label=_("name of the new army"))
    commander = forms.ModelChoiceField(
        queryset=Commander.objects.none(), required=False, label=_("commander of the new army")
    )


class MergeForm(_FactionForm):
    """Merge an army into another of the same province (S2)."""

    army = forms.ModelChoiceField(queryset=Army.objects.none(), label=_("army"))
    into = forms.ModelChoiceField(queryset=Army.objects.none(), label=_("merge into"))


class SupportForm(_FactionForm):
    """Declare an army's support of a side in a pending battle (S8)."""

    battle = forms.ModelChoiceField(queryset=Battle.objects.none(), label=_("battle"))
    army = forms.ModelChoiceField(queryset=Army.objects.none(), label=_("army"))
    side = forms.ChoiceField(choices=Battle.Side.choices, label=_("side"))
