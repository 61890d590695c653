"""Pages of the account: sign up, the account page, the address's verification, mail preferences and the
one-click unsubscribe of the mails."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from campaign.errors import ServiceError
from campaign.forms import SignUpForm
from notifications.forms import AccountForm
from notifications.kinds import PREFERENCES
from notifications.services import accounts, mail


def _safe_next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return default


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in with it; its time zone is the browser's, its language the page's."""
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            accounts.signup_profile(user=user, timezone=form.cleaned_data.get("timezone") or "",
                                    language=get_language() or "")
            if user.email:
                mail.verification_queue(user_id=user.pk)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username})
            return redirect(_safe_next(request, "/"))
    else:
        form = SignUpForm()
    return render(
        request, "registration/signup.html", {"form": form, "next": _safe_next(request, "")},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def account_page(request: HttpRequest) -> HttpResponse:
    """The account: e-mail address (and whether it is verified), time zone, language."""
    user = request.user
    profile = accounts.profile_of(user)
    error = None
    status = 200
    if request.method == "POST":
        form = AccountForm(request.POST)
        if form.is_valid():
            before = user.email
            try:
                accounts.account_update(user=user, **form.cleaned_data)
            except ServiceError as exc:
                error, status = exc, exc.status
            else:
                if user.email and user.email != before:
                    mail.verification_queue(user_id=user.pk)
                    messages.success(request, _("Saved. A link to confirm %(email)s is on its way.")
                                     % {"email": user.email})
                else:
                    messages.success(request, _("Saved."))
                return redirect("account")
        else:
            status = 400
    else:
        form = AccountForm(initial={"email": user.email, "timezone": profile.timezone, "language": profile.language})
    verified = bool(user.email) and profile.email_verified == user.email
    return render(request, "notifications/account.html",
                  {"form": form, "error": error, "verified": verified, "profile": profile}, status=status)


@login_required
@require_POST
def verification_resend(request: HttpRequest) -> HttpResponse:
    """Mail the verification link again."""
    if request.user.email:
        mail.verification_queue(user_id=request.user.pk)
        messages.success(request, _("A link to confirm %(email)s is on its way.") % {"email": request.user.email})
    return redirect("account")


def email_verify(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the verification mail."""
    try:
        user = accounts.email_verify(token=token)
    except ServiceError as exc:
        return render(request, "notifications/link_refused.html", {"error": exc}, status=exc.status)
    messages.success(request, _("Your e-mail address %(email)s is confirmed.") % {"email": user.email})
    return redirect("account" if request.user.is_authenticated else "login")


@login_required
@require_http_methods(["GET", "POST"])
def preferences_page(request: HttpRequest) -> HttpResponse:
    """Which notices are also mailed, one switch per kind."""
    if request.method == "POST":
        mailed = {name for name, _label in PREFERENCES if request.POST.get(name) == "on"}
        accounts.email_preferences_set(user=request.user, mailed=mailed)
        messages.success(request, _("Saved."))
        return redirect("notification-preferences")
    profile = accounts.profile_of(request.user)
    rows = [{"name": name, "label": label, "on": name not in profile.email_off} for name, label in PREFERENCES]
    user = request.user
    verified = bool(user.email) and profile.email_verified == user.email
    return render(request, "notifications/preferences.html", {"rows": rows, "verified": verified})


# The mail's one-click link (RFC 8058: the mail client POSTs it without a page, so no CSRF token): the signed
# token is the whole proof. A GET shows the button, so that a link scanner's visit unsubscribes nobody.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Switch off one kind of mail from the link in the mail."""
    label = ""
    if request.method == "POST":
        try:
            _user, preference = accounts.email_unsubscribe(token=token)
        except ServiceError as exc:
            return render(request, "notifications/link_refused.html", {"error": exc}, status=exc.status)
        label = str(dict(PREFERENCES)[preference])
    return render(request, "notifications/unsubscribe.html", {"done": request.method == "POST", "label": label})
