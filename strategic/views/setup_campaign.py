"""A new campaign from the pages (M1): any signed-in user (or staff only, ``LIMES_CAMPAIGN_CREATORS``) creates
one and becomes its moderator; it may start from a template, a copy of another campaign's map, unit cards and
factions (``services.campaign_copy``). Both happen in one transaction: a refused copy leaves no campaign."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaign import permissions
from campaign import services as campaign_services
from campaign.errors import ServiceError
from campaign.forms import CampaignCreateForm, refusal_to_form
from campaign.models import Campaign
from campaign.selectors import campaign_visible_to
from strategic.models import Province
from strategic.services.campaign_copy import campaign_copy_from


def _templates(user: object) -> list[Campaign]:
    """The campaigns the user may read that have a map to copy."""
    has_map = Exists(Province.objects.filter(campaign=OuterRef("pk")))
    return list(campaign_visible_to(user=user).filter(has_map).order_by("slug"))


@require_http_methods(["GET", "POST"])
def campaign_create_page(request: HttpRequest) -> HttpResponse:
    """The form of a new campaign; on success its Setup page opens."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not permissions.can_create_campaign(request.user):
        raise PermissionDenied(_("On this site only staff members may create campaigns."))
    templates = _templates(request.user)
    form = CampaignCreateForm(request.POST or None, templates=templates, prefix="new")
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            source = next((c for c in templates if c.slug == data["template"]), None)
            try:
                with transaction.atomic():
                    campaign = campaign_services.campaign_create(
                        actor=request.user, slug=data["slug"], name_en=data["name_en"], name_ru=data["name_ru"],
                        settings=form.settings_values(), is_public=data["is_public"],
                        description=data["description"],
                    )
                    if source is not None:
                        campaign_copy_from(actor=request.user, campaign=campaign, source=source)
            except ServiceError as exc:
                status = exc.status
                refusal_to_form(form, exc, prefix="setting_")  # the settings are named setting_<name>
            else:
                messages.success(
                    request, _("The campaign %(name)s was created; you are its moderator.") % {"name": campaign.name}
                )
                return redirect("setup", slug=campaign.slug)
    return render(request, "campaign/create.html", {"form": form}, status=status)
