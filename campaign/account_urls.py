"""URL routes of accounts: log in, log out (Django's auth views); signing up and the account's own pages are
notifications.account_urls."""

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, path

urlpatterns: list[URLPattern | URLResolver] = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
