"""The moderator's map setup page (M1): the map picture, where a click opens a province's form; the map file
up and down; new provinces; borders and terrain transitions. Every change goes through ``services.map`` or
``services.map_file`` (the same checks, log entries and refusals as the API)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.errors import Invalid, ServiceError
from campaign.forms import refusal_to_form
from campaign.models import Campaign, Faction
from campaign.parsers import JSONRefused, read_json
from campaign.selectors import campaign_has_begun
from campaign.versions import row_version
from campaign.views.setup import campaign_for_setup, form_status
from strategic.models import Border, Province, TerrainTransition
from strategic.render.map_data import map_data
from strategic.render.map_svg import map_svg
from strategic.services import map as map_services
from strategic.services import map_file
from strategic.views.setup_forms import (
    BorderForm,
    MapUploadForm,
    ProvinceCreateForm,
    ProvinceForm,
    TransitionForm,
)

MAP_ACTIONS = ("upload", "province", "province_new", "province_delete", "border", "transition")


def _province_form(province: Province | None, factions: list[Faction], data: Any = None) -> ProvinceForm | None:
    if province is None:
        return None
    initial = {
        "name_en": province.name_en, "name_ru": province.name_ru, "terrain": province.terrain,
        "is_port": province.is_port, "has_fortress": province.has_fortress,
        "fortress_capacity": province.fortress_capacity, "has_tribe": province.has_tribe,
        "controller": province.controller_id, "capital_of": province.capital_of_id,
        "version": row_version(province),
    }
    return ProvinceForm(data, initial=initial, factions=factions, prefix="province")


def _forms(
    campaign: Campaign, provinces: list[Province], factions: list[Faction], selected: Province | None,
    data: Any = None, files: Any = None, only: str = "",
) -> dict[str, Any]:
    def bound(name: str) -> Any:
        return data if name == only else None

    return {
        "upload_form": MapUploadForm(bound("upload"), files if only == "upload" else None, prefix="map"),
        "province_form": _province_form(selected, factions, bound("province")),
        "province_new_form": ProvinceCreateForm(bound("province_new"), prefix="new"),
        "border_form": BorderForm(bound("border"), provinces=provinces, prefix="border"),
        "transition_form": TransitionForm(bound("transition"), provinces=provinces, prefix="transition"),
    }


def _context(campaign: Campaign, selected: Province | None, forms: dict[str, Any]) -> dict[str, Any]:
    provinces = list(Province.objects.filter(campaign=campaign).order_by("code"))
    name = {p.pk: p for p in provinces}
    borders = [
        (name[b.a_id], name[b.b_id], b) for b in Border.objects.filter(campaign=campaign).order_by("a_id", "b_id")
    ]
    transitions = [
        (name[t.source_id], name[t.target_id], t)
        for t in TerrainTransition.objects.filter(campaign=campaign).order_by("source_id", "target_id")
    ]
    return {
        "campaign": campaign,
        "begun": campaign_has_begun(campaign=campaign),
        "map_svg": map_svg(map_data(campaign=campaign), origin=selected.pk if selected else None),
        "provinces": provinces,
        "selected": selected,
        "borders": borders,
        "transitions": transitions,
        **forms,
    }


def _lists(campaign: Campaign) -> tuple[list[Province], list[Faction]]:
    return (
        list(Province.objects.filter(campaign=campaign).order_by("code")),
        list(Faction.objects.filter(campaign=campaign).order_by("turn_order", "slug")),
    )


def setup_map_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The map picture (click a province: its form opens below), the map file, borders and transitions."""
    campaign = campaign_for_setup(request, slug)
    provinces, factions = _lists(campaign)
    code = request.GET.get("province", "")
    selected = next((p for p in provinces if p.code == code), None)
    if code and selected is None:
        raise Http404(_("No such province on this map."))
    forms = _forms(campaign, provinces, factions, selected)
    return render(request, "strategic/setup/map.html", _context(campaign, selected, forms))


def setup_map_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The map file of the campaign (``map_export``), as a download."""
    campaign = campaign_for_setup(request, slug)
    body = json.dumps(map_file.map_export(campaign=campaign), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{campaign.slug}-map.json"'
    return response


# One adapter per form of the map page: the cleaned form → one service call → (what was done, the province to
# show next). ``selected`` is the province of the page's province form.


def _upload(request: HttpRequest, campaign: Campaign, data: dict[str, Any], selected: Province | None) -> str:
    # Python's own messages are English: each failure is said in the page's language.
    try:
        text = data["file"].read().decode("utf-8")
    except UnicodeDecodeError as error:
        raise Invalid(_("The uploaded file is not UTF-8 text."), field="file") from error
    try:
        content = read_json(text)
    except JSONRefused as error:
        raise Invalid(_("The uploaded file is not JSON: %(error)s") % {"error": error.message}, field="file") from error
    except json.JSONDecodeError as error:
        raise Invalid(_("The uploaded file is not JSON (line %(line)s, column %(column)s).")
                      % {"line": error.lineno, "column": error.colno}, field="file") from error
    except ValueError as error:  # NaN or Infinity, which JSON has not
        raise Invalid(_("The uploaded file is not JSON: %(error)s") % {"error": error}, field="file") from error
    report = map_file.map_import(actor=request.user, campaign=campaign, data=content, replace=data["replace"])
    return _(
        "The map was imported: %(created)s provinces created, %(updated)s updated, %(deleted)s removed, "
        "%(borders)s borders, %(transitions)s terrain transitions."
    ) % report.as_dict()


def _faction(campaign: Campaign, pk: int | None) -> Faction | None:
    return Faction.objects.filter(pk=pk, campaign=campaign).first() if pk else None


def _province(request: HttpRequest, campaign: Campaign, data: dict[str, Any], selected: Province | None) -> str:
    assert selected is not None  # the action is refused before without one
    version, reason = data.pop("version"), data.pop("reason")
    data["controller"] = _faction(campaign, data["controller"])
    data["capital_of"] = _faction(campaign, data["capital_of"])
    province = map_services.province_update(
        actor=request.user, province=selected, reason=reason, expected_version=version, **data
    )
    return _("Province %(name)s was saved.") % {"name": province.name}


def _province_new(request: HttpRequest, campaign: Campaign, data: dict[str, Any], selected: Province | None) -> str:
    province = map_services.province_create(actor=request.user, campaign=campaign, **data)
    return _("Province %(name)s was added.") % {"name": province.name}


def _province_delete(
    request: HttpRequest, campaign: Campaign, data: dict[str, Any], selected: Province | None
) -> str:
    assert selected is not None
    name = selected.name
    map_services.province_delete(actor=request.user, province=selected)
    return _("Province %(name)s was taken off the map.") % {"name": name}


def _pair(campaign: Campaign, first: int, second: int) -> tuple[Province, Province]:
    by_id = {p.pk: p for p in Province.objects.filter(campaign=campaign, pk__in=[first, second])}
    return by_id[first], by_id[second]


def _border(request: HttpRequest, campaign: Campaign, data: dict[str, Any], selected: Province | None) -> str:
    a, b = _pair(campaign, data["a"], data["b"])
    kind = None if data["kind"] == "none" else data["kind"]
    map_services.border_set(actor=request.user, campaign=campaign, a=a, b=b, kind=kind)
    return _("The border was set.")


def _transition(request: HttpRequest, campaign: Campaign, data: dict[str, Any], selected: Province | None) -> str:
    source, target = _pair(campaign, data["source"], data["target"])
    terrain = None if data["terrain"] == "none" else data["terrain"]
    map_services.transition_set(
        actor=request.user, campaign=campaign, source=source, target=target, terrain=terrain
    )
    return _("The terrain transition was set.")


_MAP_FORMS: dict[str, Callable[[HttpRequest, Campaign, dict[str, Any], Province | None], str]] = {
    "upload": _upload,
    "province": _province,
    "province_new": _province_new,
    "province_delete": _province_delete,
    "border": _border,
    "transition": _transition,
}


@require_POST
def setup_map_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """One form of the map page; a refused form is drawn again with its errors and the status (a map file's
    errors listed by entry and field)."""
    campaign = campaign_for_setup(request, slug)
    if action not in MAP_ACTIONS:
        raise Http404(_("No such setup form."))
    provinces, factions = _lists(campaign)
    code = request.POST.get("province_code", "")
    selected = next((p for p in provinces if p.code == code), None)
    if action in ("province", "province_delete") and selected is None:
        raise Http404(_("No such province on this map."))
    form_name = "province" if action == "province_delete" else action
    forms = _forms(campaign, provinces, factions, selected, request.POST, request.FILES, only=form_name)
    form = forms[f"{form_name}_form"]
    error: ServiceError | None = None
    if action == "province_delete" or form.is_valid():
        data = {} if action == "province_delete" else dict(form.cleaned_data)
        try:
            done = _MAP_FORMS[action](request, campaign, data, selected)
        except ServiceError as exc:
            error = exc
            if action == "upload" and not set(exc.errors) <= {"file", "replace"}:
                forms["file_errors"] = sorted(exc.errors.items())
                form.add_error(None, exc.message)
            else:
                refusal_to_form(form, exc)
        else:
            messages.success(request, done)
            target = reverse("setup-map", args=[campaign.slug])
            if action == "province":
                target += f"?province={selected.code}#province-form"  # type: ignore[union-attr]
            return redirect(target)
    if action == "province_delete":
        forms["province_form"] = _province_form(selected, factions)
        forms["delete_error"] = error
    context = {**_context(campaign, selected, forms), "failed": action}
    return render(request, "strategic/setup/map.html", context, status=form_status(form, error))
