"""M3: one audit log per campaign: campaign entries and battle events, filtered, disputed, exported."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from campaign.models import LogEntry
from campaign.services import log_append
from moderation.models import Dispute
from moderation.selectors.audit import AuditFilter, audit_log
from moderation.services.disputes import dispute_answer, dispute_open
from tactical.models import LiveBattle
from tests.tactical.builders import units_of

URL = "/c/limes/log/"


def _body(response: Any) -> str:
    """The text of a response, streamed (the exports) or not."""
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_log_holds_campaign_entries_and_every_battle_version(live: LiveBattle) -> None:
    rows = audit_log(campaign=live.campaign)
    battle_refs = [r.ref for r in rows if r.source == "battle"]
    assert battle_refs == [f"B{live.pk}v{v}" for v in range(1, live.version + 1)]
    assert {r.kind for r in rows if r.source == "campaign"} >= {"battle_started"}


def test_a_battle_event_reads_as_a_sentence(world: Any, live: LiveBattle) -> None:
    row = next(r for r in audit_log(campaign=live.campaign) if r.ref == f"B{live.pk}v2")
    unit = units_of(live, "attacker")[0]
    assert row.text == f"{live.roster[unit]['name']} ({unit}) deployed at (8, 18) facing N."
    assert row.actor == "east_general"


def test_anyone_reads_the_log_of_a_public_campaign(live: LiveBattle) -> None:
    page = _client().get(URL)
    assert page.status_code == 200
    assert f'id="B{live.pk}v1"' in page.content.decode()


def test_a_private_campaign_s_log_is_hidden_from_outsiders_and_open_to_members(world: Any) -> None:
    world.campaign.is_public = False
    world.campaign.save(update_fields=["is_public"])
    assert (_client(world.outsider).get(URL).status_code, _client(world.observer).get(URL).status_code) == (
        404,
        200,
    )


def test_filter_by_battle(world: Any, live: LiveBattle) -> None:
    log_append(campaign=world.campaign, kind="settings_changed", data={"battle": live.pk + 1000})
    rows = audit_log(campaign=live.campaign, filters=AuditFilter(battle=live.pk))
    assert {r.battle for r in rows} == {live.pk}


def test_filter_by_turn(world: Any, live: LiveBattle) -> None:
    log_append(campaign=world.campaign, kind="settings_changed", turn=2)
    assert [r.kind for r in audit_log(campaign=live.campaign, filters=AuditFilter(turn=2))] == [
        "settings_changed"
    ]


def test_filter_by_unit(world: Any, live: LiveBattle) -> None:
    unit = units_of(live, "defender")[1]
    rows = audit_log(campaign=live.campaign, filters=AuditFilter(unit=int(unit[1:])))
    assert [r.ref for r in rows if r.source == "battle"] == [f"B{live.pk}v1", f"B{live.pk}v5"]


def test_filter_by_person(world: Any, live: LiveBattle) -> None:
    rows = audit_log(campaign=live.campaign, filters=AuditFilter(person="west_leader"))
    assert [r.version for r in rows] == [4, 5, 7]  # West deploys two units, then is ready


def test_a_filter_that_is_not_a_number_is_refused(live: LiveBattle) -> None:
    page = _client().get(URL, {"turn": "two"})
    assert page.status_code == 400
    assert "Filter by a whole number." in page.content.decode()


def test_a_member_disputes_a_battle_event(world: Any, live: LiveBattle) -> None:
    response = _client(world.observer).post(
        URL + "dispute/", {"entry": f"B{live.pk}v3", "text": "Wrong cell"}
    )
    assert response.status_code == 302
    dispute = Dispute.objects.get()
    assert (dispute.entry_ref, dispute.author, dispute.text, dispute.status) == (
        f"B{live.pk}v3",
        world.observer,
        "Wrong cell",
        "open",
    )


def test_an_outsider_cannot_dispute(world: Any, live: LiveBattle) -> None:
    response = _client(world.outsider).post(URL + "dispute/", {"entry": f"B{live.pk}v3", "text": "No"})
    assert response.status_code == 403
    assert not Dispute.objects.exists()


@pytest.mark.parametrize(
    ("entry", "text", "status"),
    [
        ("L999999", "Wrong", 404),  # no such entry
        ("v3", "Wrong", 404),  # not a reference
        ("L1", "  ", 400),  # no text
    ],
)
def test_a_bad_dispute_is_refused(world: Any, live: LiveBattle, entry: str, text: str, status: int) -> None:
    assert (
        _client(world.observer).post(URL + "dispute/", {"entry": entry, "text": text}).status_code == status
    )
    assert not Dispute.objects.exists()


def test_the_answer_is_appended_to_the_log_with_its_reason(world: Any, live: LiveBattle) -> None:
    entry = LogEntry.objects.filter(campaign=world.campaign).first()
    dispute = dispute_open(actor=world.west_leader, campaign=world.campaign, ref=f"L{entry.pk}", text="Why?")
    dispute_answer(actor=world.moderator, dispute=dispute, answer="The log is right: see T6.1.")
    dispute.refresh_from_db()
    logged = LogEntry.objects.get(pk=dispute.answer_entry_id)
    assert (dispute.status, dispute.answer, logged.kind, logged.reason, logged.actor) == (
        "answered",
        "The log is right: see T6.1.",
        "dispute_answered",
        "The log is right: see T6.1.",
        world.moderator,
    )
    row = next(r for r in audit_log(campaign=world.campaign) if r.ref == f"L{logged.pk}")
    assert row.text == f"The moderator answered dispute #{dispute.pk} about entry L{entry.pk}."


def test_the_csv_export_has_a_header_and_one_line_per_entry(world: Any, live: LiveBattle) -> None:
    response = _client().get(URL + "export.csv", {"battle": live.pk})
    lines = _body(response).splitlines()
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert lines[0] == "ref,created_at,turn,battle,version,actor,kind,rule,text,reason"
    assert len(lines) == 1 + len(audit_log(campaign=world.campaign, filters=AuditFilter(battle=live.pk)))


def test_the_bbcode_export_is_a_forum_list(world: Any, live: LiveBattle) -> None:
    text = _body(_client().get(URL + "export.txt", {"person": "west_leader"}))
    lines = text.splitlines()
    assert (lines[0], lines[1], lines[-1]) == ("[b]Log of Limes[/b]", "[list]", "[/list]")
    assert lines[2].startswith(f"[*][i]B{live.pk}v4[/i] ")


def test_a_move_into_contact_names_both_units(in_contact: LiveBattle) -> None:
    row = next(r for r in audit_log(campaign=in_contact.campaign) if r.ref == f"B{in_contact.pk}v20")
    east, west = units_of(in_contact, "attacker")[0], units_of(in_contact, "defender")[0]
    name = in_contact.roster[east]["name"]
    assert row.text == f"{name} ({east}) moved to (8, 3). (contact: {name} ({east}) and {name} ({west}))"


def test_a_battle_event_links_to_its_step_of_the_replay(live: LiveBattle) -> None:
    page = _client().get(URL).content.decode()
    assert f'href="/c/limes/battles/{live.pk}/replay/?v=3">#{live.pk} v3</a>' in page


# The probe's reason: a spreadsheet opening the CSV would run it as a formula (DDE).
FORMULA = "=cmd|' /C calc'!A0"


def test_a_reason_that_reads_as_a_formula_is_quoted_in_the_csv(world: Any) -> None:
    entry = log_append(
        campaign=world.campaign, kind="settings_changed", actor=world.other_moderator, reason=FORMULA
    )
    response = _client().get(URL + "export.csv", {"person": "other_moderator"})
    assert _body(response) == (
        "ref,created_at,turn,battle,version,actor,kind,rule,text,reason\r\n"
        f"L{entry.pk},{entry.created_at.isoformat()},1,,,other_moderator,settings_changed,,"
        "The campaign settings were changed.,'=cmd|' /C calc'!A0\r\n"
    )


def test_a_reason_with_tags_is_plain_text_in_the_bbcode(world: Any) -> None:
    entry = log_append(
        campaign=world.campaign,
        kind="settings_changed",
        actor=world.other_moderator,
        rule="S4]",
        reason="[/i][url=https://evil.example]see[/url]",
    )
    text = _body(_client().get(URL + "export.txt", {"person": "other_moderator"}))
    assert text == (
        "[b]Log of Limes[/b]\n"
        "[list]\n"
        f"[*][i]L{entry.pk}[/i] {entry.created_at:%Y-%m-%d %H:%M} UTC — other_moderator (S4］):"
        " The campaign settings were changed."
        " [i]Reason: ［/i］［url=https://evil.example］see［/url］[/i]\n"
        "[/list]\n"
    )
