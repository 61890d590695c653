"""URL routes of the campaign pages."""

from django.urls import URLPattern, URLResolver, path

from campaign import views
from campaign.views import setup

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
    path("c/<slug:slug>/", views.campaign_page, name="campaign"),
    path("c/<slug:slug>/rules/", views.rules_page, name="campaign-rules"),
    path("c/<slug:slug>/setup/", setup.setup_page, name="setup"),
    path("c/<slug:slug>/setup/factions/", setup.setup_factions_page, name="setup-factions"),
    path("c/<slug:slug>/setup/factions/<id:faction_id>/", setup.setup_faction_page, name="setup-faction"),
    path("c/<slug:slug>/setup/factions/<slug:action>/", setup.setup_factions_action, name="setup-factions-action"),
    path("c/<slug:slug>/rules/<str:rule_id>/", views.rule_entry, name="campaign-rule"),
]
