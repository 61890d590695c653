"""``manage.py load_demo``: load the demo campaign once (a second run says it is already there)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from strategic.demo.loader import demo_campaign, demo_load


class Command(BaseCommand):
    help = (
        "Load the demo campaign (late Roman map, six factions, armies, a login per role) if it is not there."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load even with LIMES_PRODUCTION=1 (the demo accounts have published passwords).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if getattr(settings, "PRODUCTION", False) and not options["allow_production"]:
            raise CommandError(
                "Refusing to load the demo in production: its accounts have published passwords. "
                "Pass --allow-production to load it anyway."
            )
        campaign = demo_load()
        if campaign is None:
            existing = demo_campaign()
            self.stdout.write(f"The demo campaign is already there: {existing.name_en} ({existing.slug}).")
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded the demo campaign {campaign.name_en} ({campaign.slug}): "
                f"{campaign.provinces.count()} provinces, {campaign.factions.count()} factions, "
                f"{campaign.armies.count()} armies, {campaign.units.count()} units."
            )
        )
