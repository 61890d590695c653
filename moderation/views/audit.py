"""Public pages of the moderation layer: the audit log (M3), dice verification (M2), replays and reports."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlencode

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign import permissions
from campaign.errors import ServiceError
from campaign.models import Campaign
from campaign.views import campaign_for_page
from moderation.render.board_png import board_png
from moderation.render.export import audit_bbcode_chunks, audit_csv_chunks, battle_report_bbcode
from moderation.render.labels import FACING_NAMES, SIDE_NAMES, UNIT_STATUSES
from moderation.selectors.audit import AuditFilter, audit_page, audit_rows, disputes_of
from moderation.selectors.dice import dice_report
from moderation.selectors.replay import ReplayBroken, last_version, replay_block, turns_of
from moderation.services import disputes as services
from strategic.models import Battle
from strategic.selectors.rosters import lines_text
from tactical.models import BattleEvent, LiveBattle
from tactical.protocol.eventtext import action_sentence
from tactical.protocol.turnlabel import state_label, turn_label


def _battle_of(campaign: Campaign, battle_id: int) -> Battle:
    return get_object_or_404(
        Battle.objects.select_related("province", "attacker_faction", "defender_faction"),
        pk=battle_id,
        campaign=campaign,
    )


def _filters(request: HttpRequest) -> tuple[AuditFilter, ServiceError | None]:
    try:
        return AuditFilter.parse(request.GET), None
    except ServiceError as error:
        return AuditFilter(), error


def _filter_query(filters: AuditFilter, **more: Any) -> str:
    """The query string of the filters (and of ``more``): what the page's links and exports keep."""
    values = {name: getattr(filters, name) for name in ("battle", "turn", "unit", "person")}
    return urlencode({k: v for k, v in {**values, **more}.items() if v is not None and v != ""})


def audit_log_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign log and its battles' logs, filtered, a page at a time (M3); members may dispute an entry.

    Pages are walked from an entry's reference (``after``, ``before``) or from the end (``latest``), never by
    a page number: a page costs the same in a log of any length.
    """
    campaign = campaign_for_page(request, slug)
    filters, error = _filters(request)
    try:
        page = audit_page(campaign=campaign, filters=filters, after=request.GET.get("after", ""),
                          before=request.GET.get("before", ""), latest=request.GET.get("latest") == "1")
    except ServiceError as cursor_error:
        error = error or cursor_error
        page = audit_page(campaign=campaign, filters=filters)
    may_dispute = permissions.is_member(request.user, campaign) or permissions.can_moderate(
        request.user, campaign
    )
    context = {
        "campaign": campaign,
        "rows": page.rows,
        "paged": bool(page.older or page.newer or any(request.GET.get(k) for k in ("after", "before", "latest"))),
        "filters": filters,
        "error": error,
        "may_dispute": may_dispute,
        "query": _filter_query(filters),
        "older_query": _filter_query(filters, before=page.older) if page.older else None,
        "newer_query": _filter_query(filters, after=page.newer) if page.newer else None,
        "latest_query": _filter_query(filters, latest=1),
        "disputes": disputes_of(campaign=campaign),
        "battles": Battle.objects.filter(campaign=campaign).order_by("id").select_related("province"),
    }
    return render(request, "moderation/audit_log.html", context, status=error.status if error else 200)


def _in_language(language: str, chunks: Iterator[str]) -> Iterator[str]:
    """Each chunk made in the reader's language: a streamed body is made after the view has returned."""
    while True:
        with translation.override(language):
            chunk = next(chunks, None)
        if chunk is None:
            return
        yield chunk


def _streamed(request: HttpRequest, chunks: Iterator[str]) -> Any:
    """What a StreamingHttpResponse streams: under ASGI an asynchronous iterator (a synchronous one would be
    read whole before the first byte), each chunk made in the view's thread, which holds its database
    connection."""
    if not isinstance(request, ASGIRequest):
        return chunks
    step = sync_to_async(next, thread_sensitive=True)

    async def pulled() -> AsyncIterator[str]:
        while (chunk := await step(chunks, None)) is not None:
            yield chunk

    return pulled()


def audit_log_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse | StreamingHttpResponse:
    """The filtered audit log as a CSV file or as BBCode text, streamed: its memory and its first byte do not
    grow with the log."""
    campaign = campaign_for_page(request, slug)
    filters, error = _filters(request)
    if error is not None:
        return HttpResponse(error.message, status=error.status, content_type="text/plain; charset=utf-8")
    rows = audit_rows(campaign=campaign, filters=filters)
    language = translation.get_language()
    if fmt == "csv":
        chunks = _in_language(language, audit_csv_chunks(rows))
        response = StreamingHttpResponse(_streamed(request, chunks), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{campaign.slug}-log.csv"'
        return response
    title = _("Log of %(campaign)s") % {"campaign": campaign.name}
    chunks = _in_language(language, audit_bbcode_chunks(rows, title=title))
    return StreamingHttpResponse(_streamed(request, chunks), content_type="text/plain; charset=utf-8")


@require_POST
def dispute_create_view(request: HttpRequest, slug: str) -> HttpResponse:
    """A participant disputes one entry; the moderators see it in their console."""
    campaign = campaign_for_page(request, slug)
    try:
        services.dispute_open(
            actor=request.user,
            campaign=campaign,
            ref=request.POST.get("entry", ""),
            text=request.POST.get("text", ""),
        )
    except ServiceError as error:
        return render(
            request,
            "moderation/error.html",
            {"campaign": campaign, "error": error, "back": reverse("audit-log", args=[slug])},
            status=error.status,
        )
    messages.success(request, _("Your dispute was sent to the moderators."))
    return redirect(reverse("audit-log", args=[slug]))


def dice_page(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """M2: the published commitment, the revealed seed and every logged roll recomputed from it."""
    campaign = campaign_for_page(request, slug)
    battle = _battle_of(campaign, battle_id)
    report = dice_report(battle=battle)
    if report is None:
        raise Http404(_("This battle rolled no dice: it was neither fought nor resolved as a quick battle."))
    return render(request, "moderation/dice.html", {"campaign": campaign, "battle": battle, "report": report})


# Steps listed at once on the replay page: the page of the step shown; the others are one link away.
STEPS_PER_PAGE = 50


def _live(campaign: Campaign, battle_id: int) -> LiveBattle:
    live = (
        LiveBattle.objects.filter(pk=battle_id, campaign=campaign).select_related("record__province").first()
    )
    if live is None:
        raise Http404(_("This battle was not fought on the tactical map."))
    return live


def _block(version: int) -> int:
    """The first version of the page of steps that holds ``version``."""
    return (max(version, 1) - 1) // STEPS_PER_PAGE * STEPS_PER_PAGE + 1


def _steps(live: LiveBattle, first: int, end: int) -> tuple[Any, list[Any]]:
    """The board before ``first`` and the steps ``first``..``end``: replayed from the checkpoint a replay of the
    versions before left (each page's start is one), so that a step late in a long battle does not replay
    and check the whole log again on every request; the first request of a battle in a process still does."""
    try:
        return replay_block(battle=live, first=first, end=end, every=STEPS_PER_PAGE)
    except ReplayBroken as broken:
        raise Http404(_("This battle's log cannot be replayed: %(why)s") % {"why": broken}) from None


def _replay_last(campaign: Campaign, battle_id: int) -> tuple[LiveBattle, Any]:
    """The battle and its last step (None for an empty log)."""
    live = _live(campaign, battle_id)
    last = last_version(battle=live)
    steps = _steps(live, _block(last), last)[1] if last else []
    return live, steps[-1] if steps else None


def _version(request: HttpRequest, last: int) -> int:
    raw = request.GET.get("v", "")
    return int(raw) if raw.isdigit() and 1 <= int(raw) <= last else last


def replay_page(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """Step through the battle version by version; the board at each step is rebuilt by the engine.

    Only the versions up to the end of the shown step's page are replayed, and only that page is listed:
    a long battle's page would otherwise cost its whole log on every step."""
    campaign = campaign_for_page(request, slug)
    live = _live(campaign, battle_id)
    last = last_version(battle=live)
    version = _version(request, last)
    first = _block(version)
    end = min(first + STEPS_PER_PAGE - 1, last)
    before, steps = _steps(live, first, end)
    if len(steps) < version - first + 1 or not steps:
        raise Http404(_("No such step."))
    step = steps[version - first]
    units = sorted(step.state.units.values(), key=lambda u: (u.side.value, u.id))
    turns = [
        (_turn_title(key), [_step_row(s, live.roster) for s in group]) for key, group in turns_of(steps, before)
    ]
    context = {
        "campaign": campaign,
        "battle": live.record,
        "live": live,
        "last": last,
        "step": step,
        "step_label": state_label(step.state),
        "turns": turns,
        "pages": [
            (start, min(start + STEPS_PER_PAGE - 1, last), start == first)
            for start in range(1, last + 1, STEPS_PER_PAGE)
        ],
        "units": [
            (
                u,
                live.roster.get(u.id, {}),
                lines_text(u.health),
                SIDE_NAMES[u.side.value],
                UNIT_STATUSES[u.status.value],
                FACING_NAMES[u.facing.value] if u.facing is not None else "",
            )
            for u in units
        ],
        "previous": version - 1 if version > 1 else None,
        "next": version + 1 if version < last else None,
    }
    return render(request, "moderation/replay.html", context)


def _step_row(step: Any, roster: dict[str, Any]) -> dict[str, Any]:
    """One step of the replay in the reader's words: its kind and what was done (not the stored codes)."""
    return {
        "version": step.version,
        "kind": BattleEvent.Kind(step.kind).label if step.kind in BattleEvent.Kind.values else step.kind,
        "action": action_sentence(step.action, roster),
        "actor": step.actor,
    }


def _turn_title(key: str) -> str:
    if key == "deployment":
        return key
    number, side, *window = key.split(":")
    if window:
        return turn_label(round_number=int(number), side=side, phase="interception")
    return _("Round %(round)s: %(side)s") % {"round": number, "side": SIDE_NAMES[side]}


def replay_png(request: HttpRequest, slug: str, battle_id: int, version: int) -> HttpResponse:
    """The board after one version as a PNG picture."""
    campaign = campaign_for_page(request, slug)
    live = _live(campaign, battle_id)
    # Replayed up to the step asked for only: a later version cannot change its board.
    first = _block(version)
    steps = _steps(live, first, version)[1] if version >= 1 else []
    if not steps or len(steps) != version - first + 1:
        raise Http404(_("No such step."))
    return _board_png(live, steps[-1])


def _board_png(live: LiveBattle, step: Any) -> HttpResponse:
    if step is None:
        raise Http404(_("No such step."))
    state, version = step.state, step.version
    title = _("Battle #%(id)s, v%(version)s — round %(round)s, %(side)s") % {
        "id": live.pk,
        "version": version,
        "round": state.round,
        "side": SIDE_NAMES[state.side.value],
    }
    response = HttpResponse(board_png(state, title=title, roster=live.roster), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="battle-{live.pk}-v{version}.png"'
    return response


def board_png_last(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The board after the battle's last version as a PNG picture (the link a webhook posts when it ends)."""
    campaign = campaign_for_page(request, slug)
    live, step = _replay_last(campaign, battle_id)
    return _board_png(live, step)


def battle_report(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The battle report as BBCode: sides, losses, interceptions, rolls and the dice link."""
    campaign = campaign_for_page(request, slug)
    live, step = _replay_last(campaign, battle_id)
    if step is None:
        raise Http404(_("No such step."))
    url = request.build_absolute_uri(reverse("battle-dice", args=[slug, battle_id]))
    text = battle_report_bbcode(battle=live, state=step.state, dice=dice_report(battle=live.record), verify_url=url)
    return HttpResponse(text, content_type="text/plain; charset=utf-8")
