"""``manage.py demo_logins``: print the demo accounts (user name, password, role, faction, commander)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.urls import reverse

from strategic.demo.loader import demo_campaign, demo_data, demo_logins
from strategic.models import Army


class Command(BaseCommand):
    help = "Print the demo logins: user names, passwords and roles."

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = demo_campaign()
        if campaign is None:
            self.stdout.write("The demo campaign is not loaded: run `manage.py load_demo` first.")
            return
        self.stdout.write(f"Demo logins for {campaign.name_en} ({reverse('campaign', args=[campaign.slug])}):")
        rows = [("user", "password", "role", "faction", "commander")]
        rows += [(d.username, d.password, str(d.role), d.faction, d.commander) for d in demo_logins()]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            self.stdout.write(
                "  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
            )
        self.stdout.write("Factions in turn order, with their colours on the map:")
        for f in demo_data()["factions"]:
            self.stdout.write(
                f"  {f['turn_order']}. {f['name_en']} / {f['name_ru']}: {f['color_en']} / {f['color_ru']} "
                f"({f['color']})"
            )
        current = campaign.current_faction
        if current is None:
            return
        self.stdout.write(
            f"It is the turn of {current.name_en} ({campaign.get_phase_display()}, turn {campaign.turn})."
        )
        thrace = Army.objects.filter(
            campaign=campaign, name="Army of Thrace", province__code="moesia", moved_turn__isnull=True
        ).first()
        if current.slug == "east" and thrace is not None:
            self.stdout.write(
                "To begin a battle: log in as aspar (or theodosius) and move the Army of Thrace from "
                "Moesia into Dacia, where the Host of Attila stands."
            )
