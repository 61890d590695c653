"""Reads of live battles: who may watch or act (T2, M1), the viewer, the event log."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from campaign.models import Membership
from campaign.permissions import can_moderate, can_read_campaign
from combat.battle.model import Side
from tactical import errors
from tactical.messages import NO_BATTLE
from tactical.models import BattleEvent, BattleOrder, BattleUnit, LiveBattle


def _authenticated(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def live_battle_get(*, battle_id: int) -> LiveBattle:
    """The live battle with this id, or 404 ``not_found``."""
    battle = LiveBattle.objects.select_related("campaign", "record").filter(pk=battle_id).first()
    if battle is None:
        raise errors.missing(NO_BATTLE)
    return battle


@dataclass
class Viewer:
    """Who the user is in a battle (docs/tactical-protocol.md §2 ``viewer``)."""

    user: Any
    is_moderator: bool = False
    commanders: list[int] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    chief_of: list[str] = field(default_factory=list)
    leads: list[int] = field(default_factory=list)  # faction ids the user leads among the fighting ones

    @property
    def is_participant(self) -> bool:
        """Commands units here or leads a faction that fights here."""
        return bool(self.commanders or self.leads)

    def as_dict(self) -> dict[str, Any]:
        """The JSON of the protocol."""
        return {
            "user": self.user.get_username() if _authenticated(self.user) else None,
            "is_moderator": self.is_moderator,
            "commanders": self.commanders,
            "sides": self.sides,
            "units": self.units,
            "chief_of": self.chief_of,
            "may_act": self.is_moderator or bool(self.units),
        }


def side_chief(*, battle: LiveBattle, side: Side) -> int | None:
    """The commander who may concede for a side (T11): see docs/tactical-protocol.md §3."""
    record = battle.record
    if side is Side.ATTACKER:
        if record.attacker_army_id is not None:
            return record.attacker_army.commander_id  # type: ignore[union-attr]
        rows = list(BattleUnit.objects.filter(battle=battle, side=side.value, commander__isnull=False)
                    .values_list("commander_id", flat=True))
        return max(sorted(set(rows)), key=rows.count) if rows else None
    rows = list(BattleUnit.objects.filter(battle=battle, side=side.value, commander__isnull=False)
                .values_list("commander_id", flat=True))
    leader = record.defender_faction.leader_id
    if leader is not None and leader in rows:
        return leader
    if not rows:
        return leader
    return max(sorted(set(rows)), key=rows.count)


def viewer_of(*, user: Any, battle: LiveBattle) -> Viewer:
    """The viewer record of a user in a battle."""
    viewer = Viewer(user=user)
    if not _authenticated(user):
        return viewer
    viewer.is_moderator = can_moderate(user, battle.campaign)
    rows = list(BattleUnit.objects.filter(battle=battle).select_related("commander", "faction__leader"))
    mine = [row for row in rows if row.commander is not None and row.commander.user_id == user.id]
    viewer.commanders = sorted({row.commander_id for row in mine if row.commander_id is not None})
    viewer.leads = sorted({row.faction_id for row in rows
                           if row.faction.leader is not None and row.faction.leader.user_id == user.id})
    if viewer.is_moderator:
        viewer.sides = [Side.ATTACKER.value, Side.DEFENDER.value]
        viewer.units = [row.engine_id for row in rows]
        viewer.chief_of = list(viewer.sides)
        return viewer
    viewer.sides = sorted({row.side for row in mine})
    viewer.units = [row.engine_id for row in mine]
    if viewer.commanders:  # a spectator is nobody's chief: no queries for him (a storm of sockets is mostly them)
        viewer.chief_of = [side.value for side in Side if side_chief(battle=battle, side=side) in viewer.commanders]
    return viewer


def can_watch(*, user: Any, battle: LiveBattle, viewer: Viewer | None = None) -> bool:
    """Participants, the campaign's moderators, and anyone where spectators are allowed and the campaign public."""
    campaign = battle.campaign
    if campaign.is_public and campaign.setting("spectators_allowed") and can_read_campaign(user, campaign):
        return True
    viewer = viewer or viewer_of(user=user, battle=battle)
    return viewer.is_moderator or viewer.is_participant


def watch_refusal(*, user: Any, battle: LiveBattle, viewer: Viewer | None = None) -> str | None:
    """Why the user may not watch the battle (``None`` if he may): ``"login"`` for an anonymous visitor, who
    might once logged in, else ``"forbidden"`` (docs/tactical-protocol.md §4: 403, never 404, for a battle
    that exists)."""
    if can_watch(user=user, battle=battle, viewer=viewer):
        return None
    return "forbidden" if _authenticated(user) else "login"


def events_since(*, battle: LiveBattle, since: int) -> list[BattleEvent]:
    """The log after version ``since``, in order."""
    return list(BattleEvent.objects.filter(battle=battle, version__gt=since)
                .select_related("actor").order_by("version"))


def orders_visible(*, battle: LiveBattle, viewer: Viewer) -> list[BattleOrder]:
    """Orders the viewer may read (T2): his own, to him, or all for a moderator."""
    orders = BattleOrder.objects.filter(battle=battle).select_related("author", "recipient").order_by("id")
    if viewer.is_moderator:
        return list(orders)
    mine = viewer.commanders
    return list(orders.filter(Q(recipient_id__in=mine) | Q(author_id__in=mine) | Q(user_id=getattr(viewer.user, "id", None))))


@dataclass
class BattleRow:
    """One battle of a campaign as the Battles page lists it: the record, its live board if any, its stage."""

    record: Any
    live: LiveBattle | None
    stage: str  # pending | setup | deployment | live | finished
    mine: bool
    retreats: list[Any] = field(default_factory=list)  # armies owing a retreat after it


STAGE_OF_LIVE = {LiveBattle.Status.SETUP: "setup", LiveBattle.Status.DEPLOYMENT: "deployment",
                 LiveBattle.Status.LIVE: "live", LiveBattle.Status.ENDED: "finished"}


def campaign_battles(*, campaign: Any, user: Any, records: Any) -> list[BattleRow]:
    """The campaign's battle records with their stage, in three queries; ``mine`` for the user's own: he
    commands a unit of the live battle, or an army of either faction's side before the board exists."""
    records = list(records.select_related("province", "attacker_faction", "defender_faction", "attacker_army"))
    lives = {b.pk: b for b in LiveBattle.objects.filter(pk__in=[r.pk for r in records])}
    own: set[int] = set()
    factions: set[int] = set()
    if _authenticated(user):
        own = set(BattleUnit.objects.filter(battle__in=list(lives), commander__user=user)
                  .values_list("battle_id", flat=True))
        factions = set(Membership.objects.filter(user=user, campaign=campaign, faction__isnull=False)
                       .values_list("faction_id", flat=True))
    rows = []
    for record in records:
        live = lives.get(record.pk)
        if live is not None:
            stage = STAGE_OF_LIVE.get(live.status, "live")
        else:
            stage = "finished" if record.status == "resolved" else "pending"
        mine = record.pk in own or bool({record.attacker_faction_id, record.defender_faction_id} & factions)
        rows.append(BattleRow(record=record, live=live, stage=stage, mine=mine))
    return rows
