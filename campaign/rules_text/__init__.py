"""The rules reference: every rule of RULES.md in the project's own words, one entry per rule id.

The texts are translatable; the rules page (campaign.views.rules_page) lists them by section with each
campaign setting a rule names beside it, and ``/c/<slug>/rules/<id>/`` returns one entry for the board.
The entries live one file per section (strategic, tactical, retreat, quick, moderation).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from campaign.rules_text import moderation, quick, retreat, strategic, tactical
from campaign.rules_text.entry import RuleEntry

__all__ = ["GLOSSARY", "RULES", "RULES_BY_ID", "SECTIONS", "RuleEntry"]

SECTIONS: tuple[tuple[str, Promise], ...] = (
    ("S", _("The strategic stage")),
    ("T", _("The tactical stage")),
    ("R", _("Retreat on the strategic map")),
    ("Q", _("Quick battle")),
    ("M", _("Moderation")),
)

RULES: tuple[RuleEntry, ...] = strategic.RULES + tactical.RULES + retreat.RULES + quick.RULES + moderation.RULES
RULES_BY_ID = {rule.id: rule for rule in RULES}

# The community's own words (RULES.md, glossary): shown as they are, in both languages.
GLOSSARY: tuple[tuple[str, str], ...] = (
    ("campaign", "кампания"),
    ("faction; faction leader", "фракция; лидер фракции"),
    ("commander; general; chieftain", "командующий; генерал; вождь"),
    ("moderator", "модератор"),
    ("province; province relief (terrain table)", "провинция; рельеф провинций"),
    ("strategic map / stage", "стратегическая карта / этап"),
    ("tactical map / stage", "тактическая карта / этап"),
    ("army; unit; roster", "армия; отряд; список войск"),
    ("economic turn; turn; round", "экономический ход; ход; раунд"),
    ("capture", "захват"),
    ("support (of an attack / defence)", "поддержка (наступления / обороны)"),
    ("health (lines)", "здоровье (линии)"),
    ("damage; flank strike; charge", "урон; удар во фланг; наскок"),
    ("light infantry level 1 / level 2; heavy infantry", "легкая пехота 1 / 2 уровня; тяжелая пехота"),
    ("light cavalry; heavy cavalry; elite troops", "легкая кавалерия (конница); тяжелая кавалерия (конница); элитные войска"),
    ("archers; horse archers; heavy spearmen", "лучники; конные лучники; тяжелые копейщики"),
    ("arrows (ammunition); range", "запас стрел; дальность"),
    ("speed (movement points)", "скорость (очки скорости)"),
    ("field; forest; mountains; desert", "поле; лес; горы; пустыня"),
    ("swamp; river; gorge", "болото; река; ущелье"),
    ("melee, engagement; binding rule; leaving melee", "схватка, бой; правило связки; выход из боя"),
    ("interception", "перехват"),
    ("routed (destroyed)", "разбит"),
    ("die roll", "бросок кубика"),
    ("attacker; defender", "нападающий (атакующий); обороняющийся (защищающийся)"),
    ("retreat; rout; retreat in good order; surrender", "отступление; бегство; отступление в порядке; сдача в плен"),
    ("fortress city; port; strait; rough terrain", "город-крепость; порт; пролив; пересеченная местность"),
    ("quick contest; margin of victory; morale", "быстрое состязание; разница; мораль"),
    ("support points (political)", "очки поддержки"),
)
