"""Every page in its reader's time zone and language: the account's choice, else what the browser said."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone, translation

from notifications.models import Profile
from notifications.services.accounts import profile_language_set
from notifications.zones import zone_of

TZ_COOKIE = "tz"  # set by static/js/zone.js from the browser's Intl time zone


class ReaderZoneAndLanguage:
    """Activate the user's time zone (else the browser's, from the ``tz`` cookie) and language (else the one
    LocaleMiddleware chose); the header's language switch is remembered for the account."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.switch = reverse("set_language")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        profile = None
        if user is not None and user.is_authenticated:
            profile = Profile.objects.filter(user=user).only("timezone", "language").first()
        zone = zone_of(profile.timezone if profile else None) or zone_of(request.COOKIES.get(TZ_COOKIE))
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()
        if profile is not None and profile.language in dict(settings.LANGUAGES) and request.path != self.switch:
            translation.activate(profile.language)
            request.LANGUAGE_CODE = profile.language
        response = self.get_response(request)
        if request.path == self.switch and request.method == "POST" and response.status_code in (301, 302):
            profile_language_set(user=user, language=request.POST.get("language", ""))
        timezone.deactivate()
        return response
