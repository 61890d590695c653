"""The moderator's webhooks page: add an address and its events (the secret shown once), see each delivery
with its status code, resend the failed ones, remove a webhook."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaign import permissions
from campaign.errors import Forbidden, ServiceError
from campaign.messages import NEEDS_MODERATOR
from campaign.views import campaign_for_page
from notifications.models import Webhook, WebhookDelivery
from notifications.services import webhooks as services


def _page(request: HttpRequest, campaign: Any, **extra: Any) -> HttpResponse:
    hooks = list(Webhook.objects.filter(campaign=campaign))
    deliveries = {h.pk: list(WebhookDelivery.objects.filter(webhook=h).order_by("-id")[:20]) for h in hooks}
    context = {
        "campaign": campaign, "webhooks": [(h, deliveries[h.pk]) for h in hooks],
        "events": [(name, label) for name, (label, _kinds) in services.EVENTS.items()],
        "formats": Webhook.Format.choices, "language_choices": settings.LANGUAGES, "secret": None, "error": None,
        "signature_header": services.SIGNATURE_HEADER, **extra,
    }
    return render(request, "notifications/webhooks.html", context, status=extra.pop("status", 200))


@login_required
@require_http_methods(["GET", "POST"])
def webhooks_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's webhooks (moderators only)."""
    campaign = campaign_for_page(request, slug)
    if not permissions.can_moderate(request.user, campaign):
        error = Forbidden(NEEDS_MODERATOR)
        return render(request, "notifications/link_refused.html", {"error": error}, status=403)
    if request.method == "GET":
        return _page(request, campaign)
    action = request.POST.get("do", "")
    try:
        if action == "add":
            webhook = services.webhook_create(
                actor=request.user, campaign=campaign, url=request.POST.get("url", ""),
                format=request.POST.get("format", ""), events=request.POST.getlist("events"),
                language=request.POST.get("language", ""),
            )
            # The secret is shown on this answer only.
            return _page(request, campaign, secret=webhook.secret, new_webhook=webhook)
        if action == "delete":
            services.webhook_delete(actor=request.user, campaign=campaign,
                                    webhook_id=int(request.POST.get("webhook") or 0))
            messages.success(request, _("The webhook is removed."))
        elif action == "resend":
            services.webhook_resend(actor=request.user, campaign=campaign,
                                    delivery_id=int(request.POST.get("delivery") or 0))
            messages.success(request, _("The delivery is sent again."))
    except ServiceError as exc:
        return _page(request, campaign, error=exc, status=exc.status)
    except ValueError:
        return _page(request, campaign, status=400)
    return redirect("webhooks", slug=campaign.slug)
