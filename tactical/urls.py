"""URL routes of the live board page (issue 4), the campaign's Battles page and the moderator's way from a
battle record to the board (issue 16)."""

from django.urls import URLPattern, URLResolver, path

from tactical.views import battles, board

urlpatterns: list[URLPattern | URLResolver] = [
    path("battles/<id:battle_id>/", board.board_page, name="battle-board"),
    path("battles/<id:battle_id>/melee.json", board.melee_forecast, name="battle-board-melee"),
    path("battles/<id:battle_id>/stage.json", board.board_stage, name="battle-board-stage"),
    path("c/<slug:slug>/battles/", battles.battles_page, name="battles"),
    path("c/<slug:slug>/battles/<id:battle_id>/prepare/", battles.battle_prepare, name="battle-prepare"),
    path("c/<slug:slug>/battles/<id:battle_id>/new-map/", battles.battle_map_new, name="battle-map-new"),
    path("c/<slug:slug>/battles/<id:battle_id>/open/", battles.battle_open, name="battle-open"),
]
