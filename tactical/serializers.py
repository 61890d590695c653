"""The answers of the live battle's HTTP API as the schema shows them (docs/tactical-protocol.md §2, §5, §6).

The views build these bodies themselves (``tactical.protocol``: the same JSON the socket pushes); these
serializers only describe them, and must follow the protocol when a field is added there.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from campaign.serializers import RefusalOut, keyword_fields


def cell(**kwargs: Any) -> serializers.ListField:
    """A cell as ``[x, y]``."""
    return serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2, **kwargs)


def cells(**kwargs: Any) -> serializers.ListField:
    """A list of ``[x, y]`` cells (a path: the cells entered in order, the start cell excluded)."""
    return serializers.ListField(child=cell(), **kwargs)


class BoardCellOut(serializers.Serializer):
    """A special cell of the map (T5)."""

    x = serializers.IntegerField()
    y = serializers.IntegerField()
    feature = serializers.CharField(help_text="river, swamp, gorge or wall")


class UnitCardOut(serializers.Serializer):
    """A unit type of the battle: its card (T3)."""

    name = serializers.CharField()
    mounted = serializers.BooleanField()
    health = serializers.FloatField(help_text="In lines.")
    damage = serializers.DictField(child=serializers.FloatField(), help_text="Lines dealt to each class.")
    missile = serializers.BooleanField()
    arrows = serializers.IntegerField()
    missile_damage = serializers.DictField(child=serializers.FloatField(), allow_null=True)
    speed = serializers.IntegerField()


keyword_fields(UnitCardOut, **{"class": serializers.CharField(help_text="LI1, LI2, HI, LC or HC")})


class BoardFactionOut(serializers.Serializer):
    """A unit's faction."""

    id = serializers.IntegerField()
    name = serializers.CharField(help_text="In English.")
    name_ru = serializers.CharField()
    color = serializers.CharField()


class NamedOut(serializers.Serializer):
    """A commander by id and name."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class BoardUnitOut(serializers.Serializer):
    """A unit on the board."""

    id = serializers.CharField(help_text='The engine id, "u<strategic unit id>".')
    name = serializers.CharField()
    type = serializers.CharField()
    mounted = serializers.BooleanField()
    side = serializers.CharField(help_text="attacker or defender")
    faction = BoardFactionOut(allow_null=True)
    commander = NamedOut(allow_null=True)
    status = serializers.CharField(help_text="field, routed, withdrawn, reserve or undeployed")
    x = serializers.IntegerField(allow_null=True, help_text="Null while undeployed or in reserve.")
    y = serializers.IntegerField(allow_null=True, help_text="Null while undeployed or in reserve.")
    facing = serializers.CharField(help_text="N, E, S or W")
    health = serializers.FloatField(help_text="In lines.")
    max_health = serializers.FloatField()
    arrows = serializers.IntegerField()
    max_arrows = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Points left in this side's turn (T4, T5).")
    speed = serializers.IntegerField()
    may_move = serializers.BooleanField()
    shot = serializers.BooleanField(help_text="Volley used in the current side's turn (T9.3).")
    restricted = serializers.BooleanField(help_text="T10.3")
    in_contact = serializers.BooleanField()
    reinforcement = serializers.BooleanField(help_text="Arrives in reinforcement_round (T9.6).")


keyword_fields(BoardUnitOut, **{"class": serializers.CharField()})


class ContactOut(serializers.Serializer):
    """Two enemy units in contact (T7)."""

    a = serializers.CharField()
    b = serializers.CharField()
    initiator = serializers.CharField(allow_null=True)


class OpenInterceptionOut(serializers.Serializer):
    """An interception declared in the open window (T10)."""

    unit = serializers.CharField()
    target = serializers.CharField()
    volley = serializers.BooleanField()


class MeleeOut(serializers.Serializer):
    """What a unit in contact would deal and take if the turn ended now (T7), in lines."""

    unit = serializers.CharField()
    target = serializers.CharField(allow_null=True)
    deals = serializers.FloatField()
    takes = serializers.FloatField()
    health = serializers.FloatField()
    routed = serializers.BooleanField()
    needs_die = serializers.BooleanField(help_text="A T7.6 die decides it.")


class BoardDiceOut(serializers.Serializer):
    """The sealed dice (M2)."""

    commitment = serializers.CharField(help_text="SHA-256 of the seed, hex.")
    rolls_used = serializers.IntegerField()
    seed = serializers.CharField(allow_null=True, help_text="Hex, revealed when the battle is over.")


class BoardStateOut(serializers.Serializer):
    """The viewer-independent board of a live battle at its current version (§2)."""

    battle = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField(help_text="setup (the moderator prepares the field), deployment, live or ended")
    phase = serializers.CharField(help_text="deployment, move, interception or ended (T13)")
    round = serializers.IntegerField()
    side = serializers.CharField(help_text="The side to act.")
    winner = serializers.CharField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True, help_text="End of the current side's turn (T6.1).")
    paused = serializers.BooleanField()
    seconds_left = serializers.FloatField(allow_null=True, help_text="While paused: the turn's time left.")
    awaiting_die = serializers.BooleanField()
    server_time = serializers.DateTimeField()
    turn_seconds = serializers.IntegerField()
    terrain = serializers.CharField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    cells = BoardCellOut(many=True)
    map_seed = serializers.IntegerField()
    deployment_rows = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()))
    reinforcement_round = serializers.IntegerField()
    unit_types = serializers.DictField(child=UnitCardOut(), help_text="By type code.")
    units = BoardUnitOut(many=True)
    contacts = ContactOut(many=True)
    pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Pairs of the previous melee (T7.1).",
    )
    interceptions = OpenInterceptionOut(many=True)
    melee = MeleeOut(many=True)
    ready = serializers.ListField(child=serializers.CharField())
    done = serializers.ListField(child=serializers.IntegerField(), help_text="Commanders who said done.")
    dice = BoardDiceOut()


class ViewerOut(serializers.Serializer):
    """Who the user is in the battle."""

    user = serializers.CharField(allow_null=True)
    is_moderator = serializers.BooleanField()
    commanders = serializers.ListField(child=serializers.IntegerField())
    sides = serializers.ListField(child=serializers.CharField())
    units = serializers.ListField(child=serializers.CharField(), help_text="Units he may act with (T2).")
    chief_of = serializers.ListField(child=serializers.CharField(), help_text="Sides he may concede for.")
    may_act = serializers.BooleanField()


class BoardOut(serializers.Serializer):
    """The board and who I am in it."""

    state = BoardStateOut()
    viewer = ViewerOut()


class StateOut(serializers.Serializer):
    """The board after a moderator's change."""

    state = BoardStateOut()


class EventActorOut(serializers.Serializer):
    """Who caused an event."""

    user = serializers.CharField(allow_null=True)
    commander = serializers.IntegerField(allow_null=True)


class EventOut(serializers.Serializer):
    """One version of the battle (§6 ``event``)."""

    type = serializers.CharField(help_text='Always "event".')
    battle = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = serializers.CharField()
    actor = EventActorOut(allow_null=True)
    action = serializers.JSONField(allow_null=True, help_text="The action as applied (§3).")
    events = serializers.ListField(child=serializers.DictField(), help_text="The engine's events.")
    created_at = serializers.DateTimeField()


class EventsOut(serializers.Serializer):
    """The log after a version."""

    version = serializers.IntegerField()
    items = EventOut(many=True)


class ActionAnswerOut(serializers.Serializer):
    """An applied action (or, for a resent id, the stored answer)."""

    id = serializers.CharField()
    version = serializers.IntegerField()
    replayed = serializers.BooleanField()
    events = serializers.ListField(child=serializers.DictField(), help_text="The engine's events.")
    state = BoardStateOut()


class ReachableOut(serializers.Serializer):
    """A legal end of a move."""

    x = serializers.IntegerField()
    y = serializers.IntegerField()
    cost = serializers.IntegerField()
    path = cells()
    contact = serializers.BooleanField()


class WithdrawOut(serializers.Serializer):
    """A cell of the own edge from which the unit steps off (+1)."""

    x = serializers.IntegerField()
    y = serializers.IntegerField()
    cost = serializers.IntegerField()
    path = cells()


class InterceptionOptionOut(serializers.Serializer):
    """A legal interception (open window only)."""

    target = serializers.CharField()
    volley = serializers.BooleanField()
    path = cells(allow_null=True)


class UnitOptionsOut(serializers.Serializer):
    """What a unit can do now (§5)."""

    unit = serializers.CharField()
    version = serializers.IntegerField()
    points = serializers.IntegerField()
    reachable = ReachableOut(many=True)
    withdraw = WithdrawOut(many=True)
    range = cells(help_text="Cells in range (T9.1) from where it stands.")
    targets = serializers.ListField(child=serializers.CharField(), help_text="Enemies it may shoot now (T9).")
    interceptions = InterceptionOptionOut(many=True)
    turn_costs = serializers.DictField(child=serializers.IntegerField(), help_text="By facing.")
    deploy = cells(help_text="Deployment: free cells of its rows.")


class PreviewOut(serializers.Serializer):
    """A dry run of a move: its cost and contacts, or the rule refusing it."""

    unit = serializers.CharField()
    version = serializers.IntegerField()
    legal = serializers.BooleanField()
    rule = serializers.CharField(required=False, allow_null=True, help_text="Refused: the rule, if any.")
    detail = serializers.CharField(required=False, help_text="Refused: why, in the request's language.")
    refusal = RefusalOut(required=False, help_text="Refused by the rules: the engine's code and params.")
    cost = serializers.IntegerField(required=False)
    points_left = serializers.IntegerField(required=False)
    contacts = serializers.ListField(child=serializers.CharField(), required=False)
    charge = serializers.BooleanField(required=False)


class OrderOut(serializers.Serializer):
    """An order of a leader to a subordinate (T2)."""

    id = serializers.IntegerField()
    to = NamedOut()
    text = serializers.CharField()
    created_at = serializers.DateTimeField()
    version = serializers.IntegerField()


keyword_fields(OrderOut, **{"from": NamedOut()})


class DiceRollOut(serializers.Serializer):
    """One roll of the battle's dice."""

    number = serializers.IntegerField()
    value = serializers.IntegerField()
    version = serializers.IntegerField()


class DiceOut(serializers.Serializer):
    """The sealed dice (M2): commitment, rolls so far, the seed once the battle is over."""

    commitment = serializers.CharField()
    rolls_used = serializers.IntegerField()
    seed = serializers.CharField(allow_null=True)
    verified = serializers.BooleanField(allow_null=True, help_text="Once over: every roll recomputed.")
    rolls = DiceRollOut(many=True)
