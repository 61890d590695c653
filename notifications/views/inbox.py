"""Pages of the inbox: the list of notices, marking them read."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from campaign.errors import ServiceError
from notifications.selectors.inbox import notice_text, notifications_of
from notifications.services import inbox


@login_required
def inbox_page(request: HttpRequest) -> HttpResponse:
    """The user's notices, newest first, each with its sentence and the page where he acts."""
    rows = [
        {"notice": n, "text": notice_text(kind=n.kind, params=n.params, campaign=n.campaign)}
        for n in notifications_of(user=request.user)
    ]
    return render(request, "notifications/inbox.html", {"rows": rows})


@login_required
@require_POST
def notice_open(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Mark one notice read and go to its page (or back to the inbox)."""
    try:
        notice = inbox.notification_read(user=request.user, notification_id=notification_id)
    except ServiceError as exc:
        return render(request, "notifications/link_refused.html", {"error": exc}, status=exc.status)
    target = notice.link if request.POST.get("go") and notice.link else ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("notifications")


@login_required
@require_POST
def notices_read_all(request: HttpRequest) -> HttpResponse:
    """Mark every notice read."""
    inbox.notifications_read_all(user=request.user)
    return redirect("notifications")
