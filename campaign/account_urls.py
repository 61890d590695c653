"""URL routes of accounts: sign up, log in, log out (Django's auth views)."""

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, path

from campaign import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
