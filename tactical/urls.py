"""URL routes of the live board page (issue 4)."""

from django.urls import URLPattern, URLResolver, path

from tactical import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("battles/<int:battle_id>/", views.board_page, name="battle-board"),
    path("battles/<int:battle_id>/melee.json", views.melee_forecast, name="battle-board-melee"),
]
