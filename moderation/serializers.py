"""The answers of the moderation API as the schema shows them; the views build the bodies themselves."""

from __future__ import annotations

from rest_framework import serializers


class DisputeOut(serializers.Serializer):
    """A dispute just opened."""

    id = serializers.IntegerField()
    entry = serializers.CharField(help_text="The disputed entry: L<id> or B<battle>v<version>.")
    status = serializers.CharField()


class CheckedRollOut(serializers.Serializer):
    """A logged roll and the roll recomputed from the seed."""

    number = serializers.IntegerField()
    asked_by = serializers.CharField()
    at = serializers.DateTimeField()
    why = serializers.CharField()
    logged = serializers.IntegerField()
    recomputed = serializers.IntegerField(allow_null=True, help_text="Null while the seed is secret.")
    matches = serializers.BooleanField(allow_null=True)


class DiceReportOut(serializers.Serializer):
    """M2: the commitment, the revealed seed and every logged roll recomputed."""

    battle = serializers.IntegerField()
    kind = serializers.CharField(help_text="tactical or quick")
    commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Hex, once revealed.")
    commitment_ok = serializers.BooleanField(allow_null=True)
    verified = serializers.BooleanField()
    problems = serializers.ListField(child=serializers.CharField())
    rolls = CheckedRollOut(many=True)


class RecordedRulingOut(serializers.Serializer):
    """The moderator's ruling on an interception (T10.4)."""

    verdict = serializers.CharField()
    reason = serializers.CharField()
    moderator = serializers.CharField()


class TakenBackOut(serializers.Serializer):
    """The moderator's undo that took an interception back (M1)."""

    version = serializers.IntegerField(help_text="The undo's own version.")
    at = serializers.DateTimeField()
    moderator = serializers.CharField()
    reason = serializers.CharField()


class InterceptionRecordOut(serializers.Serializer):
    """One declared interception and what the moderator recorded about it (T10.4)."""

    version = serializers.IntegerField()
    unit = serializers.CharField()
    target = serializers.CharField()
    volley = serializers.BooleanField()
    turn_ended_at = serializers.DateTimeField(allow_null=True)
    declared_at = serializers.DateTimeField()
    declared_by = serializers.CharField()
    ruling = RecordedRulingOut(allow_null=True)
    taken_back = TakenBackOut(allow_null=True)


class RulingOut(serializers.Serializer):
    """A ruling just recorded (T10.4)."""

    version = serializers.IntegerField()
    unit = serializers.CharField()
    target = serializers.CharField()
    verdict = serializers.CharField()
    reason = serializers.CharField()
    log_entry = serializers.IntegerField(allow_null=True)


class BattleEndOut(serializers.Serializer):
    """The battle the moderator ended (T11)."""

    battle = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()


class BattleControlOut(serializers.Serializer):
    """The battle and its clock after a console control (M1, T6.1, T7.6)."""

    battle = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    deadline = serializers.DateTimeField(allow_null=True)
    paused = serializers.BooleanField()
    seconds_left = serializers.FloatField(allow_null=True, help_text="While paused: the time left.")
    awaiting_die = serializers.BooleanField()
