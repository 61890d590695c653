"""Writes of the account: the profile (time zone, language, e-mail preferences), the address's verification,
the signed links of the mails (verify, unsubscribe)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction

from campaign.errors import Forbidden, Invalid
from notifications.kinds import PREFERENCES
from notifications.messages import BAD_LANGUAGE, BAD_LINK, BAD_TIMEZONE, NEEDS_LOGIN
from notifications.models import Profile
from notifications.zones import zone_of

VERIFY_SALT = "notifications.verify"
UNSUBSCRIBE_SALT = "notifications.unsubscribe"
VERIFY_MAX_AGE = 3 * 24 * 3600  # seconds a verification link holds


def profile_of(user: Any) -> Profile:
    """The user's profile, made on first use."""
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def _require_login(user: Any) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden(NEEDS_LOGIN)


def _check_zone(value: str) -> str:
    value = (value or "").strip()
    if value and zone_of(value) is None:
        raise Invalid(BAD_TIMEZONE, field="timezone", params={"value": value})
    return value


def _check_language(value: str) -> str:
    value = (value or "").strip()
    if value and value not in dict(settings.LANGUAGES):
        raise Invalid(BAD_LANGUAGE, field="language", params={"value": value})
    return value


@transaction.atomic
def account_update(*, user: Any, email: str, timezone: str, language: str) -> Profile:
    """Change the account's address, time zone and language; a new address must be verified again."""
    _require_login(user)
    zone = _check_zone(timezone)
    language = _check_language(language)
    profile = Profile.objects.select_for_update().get(pk=profile_of(user).pk)
    email = (email or "").strip()
    if email != user.email:
        user.email = email
        user.save(update_fields=["email"])
    profile.timezone = zone
    profile.language = language
    profile.save(update_fields=["timezone", "language"])
    return profile


def profile_language_set(*, user: Any, language: str) -> None:
    """The header's language switch, remembered for the account (pages, mails and notices)."""
    if user is None or not getattr(user, "is_authenticated", False) or language not in dict(settings.LANGUAGES):
        return
    Profile.objects.update_or_create(user=user, defaults={"language": language})


def signup_profile(*, user: Any, timezone: str, language: str) -> Profile:
    """The profile of a new account: the zone its browser reported (ignored when unknown) and the page's
    language."""
    zone = timezone.strip() if zone_of((timezone or "").strip()) else ""
    language = language if language in dict(settings.LANGUAGES) else ""
    return Profile.objects.create(user=user, timezone=zone, language=language)


def verify_token(*, user: Any) -> str:
    """A signed token proving the link was mailed to the user's present address."""
    return signing.dumps({"u": user.pk, "e": user.email}, salt=VERIFY_SALT)


@transaction.atomic
def email_verify(*, token: str) -> Any:
    """Mark the address named by a verification link as verified; answers its user."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
    except signing.BadSignature as error:
        raise Invalid(BAD_LINK, field="token") from error
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    if user is None or not user.email or user.email != data.get("e"):
        raise Invalid(BAD_LINK, field="token")
    profile = profile_of(user)
    profile.email_verified = user.email
    profile.save(update_fields=["email_verified"])
    return user


def unsubscribe_token(*, user_id: int, preference: str) -> str:
    """A signed token for the mail's one-click link: it switches off that preference's mails."""
    return signing.dumps({"u": user_id, "p": preference}, salt=UNSUBSCRIBE_SALT)


@transaction.atomic
def email_unsubscribe(*, token: str) -> tuple[Any, str]:
    """Switch off the mails the link was for; answers the user and the preference."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature as error:
        raise Invalid(BAD_LINK, field="token") from error
    preference = data.get("p")
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    if user is None or preference not in dict(PREFERENCES):
        raise Invalid(BAD_LINK, field="token")
    profile = Profile.objects.select_for_update().get(pk=profile_of(user).pk)
    if preference not in profile.email_off:
        profile.email_off = [*profile.email_off, preference]
        profile.save(update_fields=["email_off"])
    return user, preference


@transaction.atomic
def email_preferences_set(*, user: Any, mailed: set[str]) -> Profile:
    """Mail the kinds in ``mailed``, and no other."""
    _require_login(user)
    profile = Profile.objects.select_for_update().get(pk=profile_of(user).pk)
    profile.email_off = [name for name, _label in PREFERENCES if name not in mailed]
    profile.save(update_fields=["email_off"])
    return profile
