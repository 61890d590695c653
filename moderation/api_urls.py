"""URL routes of the moderation API (under /api/moderation/)."""

from django.urls import URLPattern, URLResolver, path

from moderation import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/<slug:slug>/log/", api.AuditLogView.as_view(), name="api-audit-log"),
    path("campaigns/<slug:slug>/disputes/", api.DisputeView.as_view(), name="api-disputes"),
    path(
        "campaigns/<slug:slug>/battles/<id:battle_id>/dice/", api.DiceView.as_view(), name="api-battle-dice"
    ),
    path(
        "campaigns/<slug:slug>/battles/<id:battle_id>/interceptions/",
        api.InterceptionsView.as_view(),
        name="api-battle-interceptions",
    ),
    path(
        "campaigns/<slug:slug>/battles/<id:battle_id>/end/",
        api.EndBattleView.as_view(),
        name="api-battle-end",
    ),
    path(
        "campaigns/<slug:slug>/battles/<id:battle_id>/dice/roll/",
        api.BattleControlView.as_view(control="roll"),
        name="api-battle-die-roll",
    ),
    *(
        path(
            f"campaigns/<slug:slug>/battles/<id:battle_id>/{route}/",
            api.BattleControlView.as_view(control=control),
            name=f"api-battle-{control.replace('_', '-')}",
        )
        for route, control in (
            ("clock/pause", "pause"),
            ("clock/resume", "resume"),
            ("clock/add", "add_time"),
            ("correct", "correct"),
            ("undo", "undo"),
        )
    ),
]
