"""Forms of the account and campaign pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from campaign.errors import ServiceError
from campaign.models import Commander, Membership, Relation
from campaign.rules_settings import SETTINGS


class SignUpForm(UserCreationForm):
    """A new account: a user name, an e-mail address (optional, verified by a link), a password twice, and the
    time zone the browser reports (a hidden field filled by static/js/zone.js)."""

    email = forms.EmailField(
        label=_("E-mail address"), required=False,
        help_text=_("Optional: for notices and a forgotten password. A link confirms it."),
    )
    timezone = forms.CharField(required=False, widget=forms.HiddenInput, max_length=64)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


# The moderator's setup forms (M1). Each parses and checks its fields in the reader's language; the service
# then checks what only it can (a taken short name, a stale version) and its refusal is put back on the field
# it names (``refusal_to_form``).


class VersionedForm(forms.Form):
    """A form that edits one row: it carries the row's version as drawn (``campaign.versions``)."""

    version = forms.CharField(required=False, widget=forms.HiddenInput)


def refusal_to_form(form: forms.Form, error: ServiceError, prefix: str = "") -> None:
    """Put a service's refusal on the fields it names (the rest, and hidden fields, on the form itself);
    ``prefix``: the form names the service's field ``name`` as ``prefix + name``."""
    by_field = error.errors or {None: [error.message]}
    for name, messages in by_field.items():
        field = prefix + name if name and prefix + name in form.fields else name
        target = field if field in form.fields and not form.fields[field].widget.is_hidden else None
        for message in messages:
            form.add_error(target, message)


class CampaignCreateForm(forms.Form):
    """A new campaign: names, short name, description, visibility, and optionally a template to copy."""

    name_en = forms.CharField(max_length=120, label=_("Name (English)"))
    name_ru = forms.CharField(max_length=120, label=_("Name (Russian)"))
    slug = forms.SlugField(
        max_length=60, label=_("Short name (in the address)"), help_text=_("Letters, digits, hyphens, underscores.")
    )
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label=_("Description"))
    is_public = forms.BooleanField(required=False, initial=True, label=_("Public: anyone may read its pages"))
    template = forms.ChoiceField(
        required=False, label=_("Start from a template"),
        help_text=_("Copy the map, unit cards and factions of this campaign."),
    )

    def __init__(self, *args: Any, templates: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["template"].choices = [("", _("— none: start from nothing —"))] + [
            (c.slug, c.name) for c in templates
        ]
        for spec in SETTINGS:
            if spec.kind is bool:
                field: forms.Field = forms.BooleanField(required=False, initial=spec.default)
            elif spec.kind is int:
                field = forms.IntegerField(initial=spec.default, min_value=spec.minimum, max_value=spec.maximum)
            else:
                field = forms.FloatField(initial=spec.default, min_value=spec.minimum, max_value=spec.maximum)
            field.label = f"{spec.label} ({spec.rule})"
            self.fields[f"setting_{spec.name}"] = field

    def settings_values(self) -> dict[str, Any]:
        """The settings as the service takes them."""
        return {spec.name: self.cleaned_data[f"setting_{spec.name}"] for spec in SETTINGS}

    def setting_fields(self) -> list[Any]:
        """The bound fields of the settings, for the template."""
        return [self[f"setting_{spec.name}"] for spec in SETTINGS]

    def main_fields(self) -> list[Any]:
        """The bound fields other than the settings, for the template."""
        return [self[name] for name in ("name_en", "name_ru", "slug", "description", "is_public", "template")]


class CampaignEditForm(VersionedForm):
    """The campaign's names, description and visibility."""

    name_en = forms.CharField(max_length=120, label=_("Name (English)"))
    name_ru = forms.CharField(max_length=120, label=_("Name (Russian)"))
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label=_("Description"))
    is_public = forms.BooleanField(required=False, label=_("Public: anyone may read its pages"))


COLOR_INPUT = forms.TextInput(attrs={"type": "color"})


class FactionForm(VersionedForm):
    """A faction: names, colour, turn order, naval capacity and leader (S1, S4, R5); its capital is a
    province's property, set on the map (``capital_of``)."""

    slug = forms.SlugField(max_length=60, label=_("Short name"))
    name_en = forms.CharField(max_length=120, label=_("Name (English)"))
    name_ru = forms.CharField(max_length=120, label=_("Name (Russian)"))
    color = forms.RegexField(
        regex=r"^#[0-9a-fA-F]{6}$", initial="#888888", widget=COLOR_INPUT, label=_("Colour"),
        error_messages={"invalid": _("Give a colour as #rrggbb.")},
    )
    turn_order = forms.IntegerField(min_value=0, max_value=999, initial=1, label=_("Turn order (S4)"))
    naval_capacity = forms.IntegerField(min_value=0, max_value=999, initial=0, label=_("Naval capacity (R5)"))
    leader = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("Leader"))

    def __init__(self, *args: Any, leaders: Any = (), editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["leader"].choices = [("", "—")] + [(c.pk, c.name) for c in leaders]
        if editing:
            del self.fields["slug"]
        else:
            del self.fields["leader"]
            del self.fields["version"]


class RelationForm(forms.Form):
    """How two factions stand (S1)."""

    a = forms.TypedChoiceField(coerce=int, label=_("Faction"))
    b = forms.TypedChoiceField(coerce=int, label=_("Other faction"))
    kind = forms.ChoiceField(choices=Relation.Kind.choices, label=_("Relation"))

    def __init__(self, *args: Any, factions: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(f.pk, f.name) for f in factions]
        self.fields["a"].choices = choices
        self.fields["b"].choices = choices


class CommanderForm(forms.Form):
    """A commander of a faction (S1) with his skills for quick battles (Q1)."""

    faction = forms.TypedChoiceField(coerce=int, label=_("Faction"))
    name = forms.CharField(max_length=120, label=_("Name"))
    rank = forms.ChoiceField(choices=Commander.Rank.choices, initial=Commander.Rank.GENERAL, label=_("Rank"))
    strategy = forms.IntegerField(min_value=0, max_value=30, initial=10, label=_("Strategy (Q1)"))
    tactics = forms.IntegerField(min_value=0, max_value=30, initial=10, label=_("Tactics (Q1)"))
    has_luck = forms.BooleanField(required=False, label=_("Luck (Q1)"))

    def __init__(self, *args: Any, factions: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = [(f.pk, f.name) for f in factions]


class InvitationForm(forms.Form):
    """A one-use link by which someone joins with a role, a faction and the commander to play."""

    role = forms.ChoiceField(choices=Membership.Role.choices, label=_("Role"))
    faction = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("Faction"))
    commander = forms.TypedChoiceField(required=False, coerce=int, empty_value=None, label=_("Commander to play"))

    def __init__(self, *args: Any, factions: list[Any], commanders: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["faction"].choices = [("", "—")] + [(f.pk, f.name) for f in factions]
        self.fields["commander"].choices = [("", "—")] + [
            (c.pk, f"{c.name} ({c.faction.name})") for c in commanders
        ]
