"""URL routes of the account (under /accounts/): sign up, the account page, verification, the password reset
by mail (Django's own views), mail preferences, the mails' one-click unsubscribe."""

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, path

from notifications.forms import SafePasswordResetForm
from notifications.views import accounts

urlpatterns: list[URLPattern | URLResolver] = [
    path("signup/", accounts.signup, name="signup"),
    path("me/", accounts.account_page, name="account"),
    path("me/verify/", accounts.verification_resend, name="email-verify-resend"),
    path("verify/<str:token>/", accounts.email_verify, name="email-verify"),
    path("me/mail/", accounts.preferences_page, name="notification-preferences"),
    path("unsubscribe/<str:token>/", accounts.unsubscribe, name="unsubscribe"),
    path("password/reset/", auth_views.PasswordResetView.as_view(form_class=SafePasswordResetForm),
         name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
