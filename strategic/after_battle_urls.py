"""URL routes of the pages after a battle: retreats (R1–R6), quick battles (Q1–Q7) and captives (Q5)."""

from django.urls import URLPattern, URLResolver, path

from strategic.views import after_battle as views

urlpatterns: list[URLPattern | URLResolver] = [
    path("c/<slug:slug>/after-battle/", views.after_battle_page, name="after-battle"),
    path("c/<slug:slug>/retreat/<int:army_id>/", views.retreat_page, name="retreat"),
    path("c/<slug:slug>/retreat/<int:army_id>/choose/", views.retreat_choose_view, name="retreat-choose"),
    path("c/<slug:slug>/battles/<int:battle_id>/quick/", views.quick_battle_page, name="quick-battle"),
    path("c/<slug:slug>/battles/<int:battle_id>/quick/resolve/", views.quick_battle_resolve_view,
         name="quick-battle-resolve"),
    path("c/<slug:slug>/retreats/<int:record_id>/support/", views.support_set_view, name="retreat-support"),
    path("c/<slug:slug>/commanders/<int:commander_id>/release/", views.commander_release_view,
         name="commander-release"),
]
