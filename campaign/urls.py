"""URL routes of the campaign pages."""

from django.urls import URLPattern, URLResolver, path

from campaign import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
    path("c/<slug:slug>/", views.campaign_page, name="campaign"),
    path("c/<slug:slug>/rules/", views.rules_page, name="campaign-rules"),
    path("c/<slug:slug>/rules/<str:rule_id>/", views.rule_entry, name="campaign-rule"),
]
