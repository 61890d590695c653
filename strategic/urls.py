"""URL routes of the strategic pages: map, rosters, the players' turn page and its actions; after a battle:
retreats (R1–R6), quick battles (Q1–Q7) and captives (Q5)."""

from django.urls import URLPattern, URLResolver, path

from strategic.views import after_battle, map, rosters, schedule
from strategic.views import turn as views

urlpatterns: list[URLPattern | URLResolver] = [
    path("c/<slug:slug>/map/", map.map_page, name="map"),
    path("c/<slug:slug>/map.svg", map.map_svg_file, name="map-svg"),
    path("c/<slug:slug>/map.png", map.map_png_file, name="map-png"),
    path("c/<slug:slug>/rosters/", rosters.rosters_page, name="rosters"),
    path("c/<slug:slug>/roster.json", rosters.rosters_page, {"kind": "json"}, name="rosters-json"),
    path("c/<slug:slug>/roster.png", rosters.rosters_page, {"kind": "png"}, name="rosters-png"),
    path("c/<slug:slug>/roster.txt", rosters.rosters_page, {"kind": "bbcode"}, name="rosters-bbcode"),
    path("c/<slug:slug>/rosters/<slug:faction>/", rosters.faction_roster_page, name="roster"),
    path(
        "c/<slug:slug>/rosters/<slug:faction>/roster.png",
        rosters.faction_roster_page,
        {"kind": "png"},
        name="roster-png",
    ),
    path(
        "c/<slug:slug>/rosters/<slug:faction>/roster.json",
        rosters.faction_roster_page,
        {"kind": "json"},
        name="roster-json",
    ),
    path(
        "c/<slug:slug>/rosters/<slug:faction>/roster.txt",
        rosters.faction_roster_page,
        {"kind": "bbcode"},
        name="roster-bbcode",
    ),
    path("c/<slug:slug>/turn/", views.turn_page, name="turn"),
    path("c/<slug:slug>/turn/assign/", views.unit_assign_view, name="turn-assign"),
    path("c/<slug:slug>/turn/army/", views.army_create_view, name="turn-army-create"),
    path("c/<slug:slug>/turn/move/", views.army_move_view, name="turn-move"),
    path("c/<slug:slug>/turn/split/", views.army_split_view, name="turn-split"),
    path("c/<slug:slug>/turn/merge/", views.army_merge_view, name="turn-merge"),
    path("c/<slug:slug>/turn/support/", views.battle_support_view, name="turn-support"),
    path("c/<slug:slug>/turn/pass/", views.turn_pass_view, name="turn-pass"),
    # after a battle
    path("c/<slug:slug>/after-battle/", after_battle.after_battle_page, name="after-battle"),
    path("c/<slug:slug>/retreat/<int:army_id>/", after_battle.retreat_page, name="retreat"),
    path("c/<slug:slug>/retreat/<int:army_id>/choose/", after_battle.retreat_choose_view, name="retreat-choose"),
    path("c/<slug:slug>/battles/<int:battle_id>/schedule/", schedule.battle_schedule_page, name="battle-schedule"),
    path("c/<slug:slug>/battles/<int:battle_id>/schedule/act/", schedule.battle_schedule_action,
         name="battle-schedule-action"),
    path("c/<slug:slug>/battles/<int:battle_id>/schedule.ics", schedule.battle_schedule_ics,
         name="battle-schedule-ics"),
    path("c/<slug:slug>/battles/<int:battle_id>/quick/", after_battle.quick_battle_page, name="quick-battle"),
    path("c/<slug:slug>/battles/<int:battle_id>/quick/resolve/", after_battle.quick_battle_resolve_view,
         name="quick-battle-resolve"),
    path("c/<slug:slug>/retreats/<int:record_id>/support/", after_battle.support_set_view, name="retreat-support"),
    path("c/<slug:slug>/commanders/<int:commander_id>/release/", after_battle.commander_release_view,
         name="commander-release"),
]
