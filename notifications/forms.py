"""Forms of the account pages."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.utils.translation import gettext_lazy as _

from notifications.zones import zone_names


def _zone_choices() -> list[tuple[str, str]]:
    return [("", _("The browser's time zone"))] + [(n, n) for n in zone_names()]


class AccountForm(forms.Form):
    """The account page: address, time zone, language."""

    email = forms.EmailField(label=_("E-mail address"), required=False)
    # The zones' own names (IANA), not words of the interface: marked so that no translation touches them.
    timezone = forms.ChoiceField(label=_("Time zone"), required=False, choices=_zone_choices,
                                 widget=forms.Select(attrs={"translate": "no"}))
    language = forms.ChoiceField(
        label=_("Language"), required=False,
        choices=lambda: [("", _("The browser's language"))] + [(c, _(n)) for c, n in settings.LANGUAGES],
    )


class SafePasswordResetForm(PasswordResetForm):
    """Django's reset form whose mail, when the mail server is down, is logged instead of failing the page
    (which would also tell a stranger whether the address has an account)."""

    def send_mail(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        import logging

        try:
            super().send_mail(*args, **kwargs)
        except Exception:
            logging.getLogger(__name__).exception("could not send a password reset mail")
