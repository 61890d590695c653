"""API routes of the strategic app (included under ``api/``)."""

from django.urls import URLPattern, URLResolver, path

from strategic.api import armies as api

app_name = "strategic-api"

C = "campaigns/<slug:slug>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(C + "unit-types/", api.UnitTypeListView.as_view(), name="unit-types"),
    path(C + "unit-types/<int:pk>/", api.UnitTypeDetailView.as_view(), name="unit-type"),
    path(C + "provinces/", api.ProvinceListView.as_view(), name="provinces"),
    path(C + "provinces/<int:pk>/", api.ProvinceDetailView.as_view(), name="province"),
    path(C + "borders/", api.BorderListView.as_view(), name="borders"),
    path(C + "transitions/", api.TransitionListView.as_view(), name="transitions"),
    path(C + "units/", api.UnitListView.as_view(), name="units"),
    path(C + "units/<int:pk>/", api.UnitDetailView.as_view(), name="unit"),
    path(C + "units/<int:pk>/assign/", api.UnitAssignView.as_view(), name="unit-assign"),
    path(C + "armies/", api.ArmyListView.as_view(), name="armies"),
    path(C + "armies/<int:pk>/", api.ArmyDetailView.as_view(), name="army"),
    path(C + "armies/<int:pk>/split/", api.ArmySplitView.as_view(), name="army-split"),
    path(C + "armies/<int:pk>/merge/", api.ArmyMergeView.as_view(), name="army-merge"),
    path(C + "armies/<int:pk>/commander/", api.ArmyCommanderView.as_view(), name="army-commander"),
    path(C + "armies/<int:pk>/move/", api.ArmyMoveView.as_view(), name="army-move"),
    path(C + "armies/<int:pk>/destinations/", api.ArmyDestinationsView.as_view(), name="army-destinations"),
    path(C + "battles/", api.BattleListView.as_view(), name="battles"),
    path(C + "battles/<int:pk>/", api.BattleDetailView.as_view(), name="battle"),
    path(C + "battles/<int:pk>/support/", api.BattleSupportView.as_view(), name="battle-support"),
]
