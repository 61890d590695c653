"""The strategic app's models: the map and the armies (``map``), and the records after a battle (``after_battle``)."""

from strategic.models.after_battle import QuickBattleRecord, RetreatRecord
from strategic.models.map import (
    Army,
    Battle,
    BattleSupport,
    Border,
    Province,
    SupportPoints,
    Terrain,
    TerrainTransition,
    Unit,
    UnitClass,
    UnitType,
)
from strategic.models.schedule import BattleTime, BattleTimeAcceptance

__all__ = [
    "BattleTime", "BattleTimeAcceptance",
    "Army", "Battle", "BattleSupport", "Border", "Province", "QuickBattleRecord", "RetreatRecord", "SupportPoints",
    "Terrain", "TerrainTransition", "Unit", "UnitClass", "UnitType",
]
