"""Forms of the account and campaign pages."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignUpForm(UserCreationForm):
    """A new account: a user name and a password twice."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)
