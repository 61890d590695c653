"""Forms of the account and campaign pages."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


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
