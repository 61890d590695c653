"""URL routes of the strategic pages: map, rosters, the players' turn page and its actions; after a battle:
retreats (R1–R6), quick battles (Q1–Q7) and captives (Q5)."""

from django.urls import URLPattern, URLResolver, path

from strategic.views import (
    after_battle,
    map,
    rosters,
    schedule,
    setup_armies,
    setup_campaign,
    setup_map,
    setup_units,
)
from strategic.views import turn as views

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/new/", setup_campaign.campaign_create_page, name="campaign-create"),
    # the moderator's setup of the map, unit cards, units and armies (M1)
    path("c/<slug:slug>/setup/map/", setup_map.setup_map_page, name="setup-map"),
    path("c/<slug:slug>/setup/map.json", setup_map.setup_map_download, name="setup-map-download"),
    path("c/<slug:slug>/setup/map/<slug:action>/", setup_map.setup_map_action, name="setup-map-action"),
    path("c/<slug:slug>/setup/units/", setup_units.setup_units_page, name="setup-units"),
    path("c/<slug:slug>/setup/units/<id:unit_type_id>/", setup_units.setup_unit_page, name="setup-unit"),
    path("c/<slug:slug>/setup/armies/", setup_armies.setup_armies_page, name="setup-armies"),
    path("c/<slug:slug>/setup/armies/units/<id:unit_id>/", setup_armies.setup_unit_correct_page,
         name="setup-unit-correct"),
    path("c/<slug:slug>/setup/armies/<slug:action>/", setup_armies.setup_armies_action, name="setup-armies-action"),
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
    path("c/<slug:slug>/retreat/<id:army_id>/", after_battle.retreat_page, name="retreat"),
    path("c/<slug:slug>/retreat/<id:army_id>/choose/", after_battle.retreat_choose_view, name="retreat-choose"),
    path("c/<slug:slug>/battles/<id:battle_id>/schedule/", schedule.battle_schedule_page, name="battle-schedule"),
    path("c/<slug:slug>/battles/<id:battle_id>/schedule/act/", schedule.battle_schedule_action,
         name="battle-schedule-action"),
    path("c/<slug:slug>/battles/<id:battle_id>/schedule.ics", schedule.battle_schedule_ics,
         name="battle-schedule-ics"),
    path("c/<slug:slug>/battles/<id:battle_id>/quick/", after_battle.quick_battle_page, name="quick-battle"),
    path("c/<slug:slug>/battles/<id:battle_id>/quick/resolve/", after_battle.quick_battle_resolve_view,
         name="quick-battle-resolve"),
    path("c/<slug:slug>/retreats/<id:record_id>/support/", after_battle.support_set_view, name="retreat-support"),
    path("c/<slug:slug>/commanders/<id:commander_id>/release/", after_battle.commander_release_view,
         name="commander-release"),
]
