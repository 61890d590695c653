"""URL routes of the moderation pages: the audit log, dice, replays, reports and the consoles."""

from django.urls import URLPattern, URLResolver, path

from moderation.views import audit as views
from moderation.views import console as console_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("c/<slug:slug>/log/", views.audit_log_page, name="audit-log"),
    path("c/<slug:slug>/log/export.csv", views.audit_log_export, {"fmt": "csv"}, name="audit-log-csv"),
    path("c/<slug:slug>/log/export.txt", views.audit_log_export, {"fmt": "bbcode"}, name="audit-log-bbcode"),
    path("c/<slug:slug>/log/dispute/", views.dispute_create_view, name="audit-log-dispute"),
    path("c/<slug:slug>/battles/<id:battle_id>/dice/", views.dice_page, name="battle-dice"),
    path("c/<slug:slug>/battles/<id:battle_id>/replay/", views.replay_page, name="battle-replay"),
    path(
        "c/<slug:slug>/battles/<id:battle_id>/replay/<id:version>.png",
        views.replay_png,
        name="battle-replay-png",
    ),
    path("c/<slug:slug>/battles/<id:battle_id>/report.txt", views.battle_report, name="battle-report"),
    path("c/<slug:slug>/battles/<id:battle_id>/board.png", views.board_png_last, name="battle-board-png"),
    path("c/<slug:slug>/console/", console_views.campaign_console, name="moderation-console"),
    path(
        "c/<slug:slug>/console/<slug:action>/",
        console_views.campaign_console_action,
        name="moderation-console-action",
    ),
    path(
        "c/<slug:slug>/battles/<id:battle_id>/console/",
        console_views.battle_console,
        name="moderation-battle-console",
    ),
    path(
        "c/<slug:slug>/battles/<id:battle_id>/console/<slug:action>/",
        console_views.battle_console_action,
        name="moderation-battle-console-action",
    ),
]
