"""API routes of the strategic app (included under ``api/``): the map, armies and their orders, battles and
support (``strategic-api``); the map file (``strategic-map-api``); after a battle: retreats, quick battles,
support points, captives (``after-battle-api``)."""

from django.urls import URLPattern, URLResolver, include, path

from strategic.api import after_battle, armies, battles, map, map_file

C = "campaigns/<slug:slug>/"

armies_urls: list[URLPattern | URLResolver] = [
    path(C + "unit-types/", map.UnitTypeListView.as_view(), name="unit-types"),
    path(C + "unit-types/<id:pk>/", map.UnitTypeDetailView.as_view(), name="unit-type"),
    path(C + "provinces/", map.ProvinceListView.as_view(), name="provinces"),
    path(C + "provinces/<id:pk>/", map.ProvinceDetailView.as_view(), name="province"),
    path(C + "borders/", map.BorderListView.as_view(), name="borders"),
    path(C + "transitions/", map.TransitionListView.as_view(), name="transitions"),
    path(C + "units/", armies.UnitListView.as_view(), name="units"),
    path(C + "units/<id:pk>/", armies.UnitDetailView.as_view(), name="unit"),
    path(C + "units/<id:pk>/assign/", armies.UnitAssignView.as_view(), name="unit-assign"),
    path(C + "armies/", armies.ArmyListView.as_view(), name="armies"),
    path(C + "armies/<id:pk>/", armies.ArmyDetailView.as_view(), name="army"),
    path(C + "armies/<id:pk>/split/", armies.ArmySplitView.as_view(), name="army-split"),
    path(C + "armies/<id:pk>/merge/", armies.ArmyMergeView.as_view(), name="army-merge"),
    path(C + "armies/<id:pk>/commander/", armies.ArmyCommanderView.as_view(), name="army-commander"),
    path(C + "armies/<id:pk>/move/", armies.ArmyMoveView.as_view(), name="army-move"),
    path(C + "armies/<id:pk>/destinations/", armies.ArmyDestinationsView.as_view(), name="army-destinations"),
    path(C + "battles/", battles.BattleListView.as_view(), name="battles"),
    path(C + "battles/<id:pk>/", battles.BattleDetailView.as_view(), name="battle"),
    path(C + "battles/<id:pk>/support/", battles.BattleSupportView.as_view(), name="battle-support"),
]

map_file_urls: list[URLPattern | URLResolver] = [
    path("campaigns/<slug:slug>/map/", map_file.MapView.as_view(), name="map"),
]

after_battle_urls: list[URLPattern | URLResolver] = [
    path(C + "armies/<id:pk>/retreat/", after_battle.ArmyRetreatView.as_view(), name="army-retreat"),
    path(C + "battles/<id:pk>/quick/", after_battle.QuickBattleView.as_view(), name="battle-quick"),
    path(C + "retreats/", after_battle.RetreatListView.as_view(), name="retreats"),
    path(C + "retreats/<id:pk>/support/", after_battle.RetreatSupportView.as_view(), name="retreat-support"),
    path(C + "captives/", after_battle.CaptiveListView.as_view(), name="captives"),
    path(C + "commanders/<id:pk>/release/", after_battle.CommanderReleaseView.as_view(), name="commander-release"),
]

urlpatterns: list[URLPattern | URLResolver] = [
    path("", include((armies_urls, "strategic-api"))),
    path("", include((map_file_urls, "strategic-map-api"))),
    path("", include((after_battle_urls, "after-battle-api"))),
]
