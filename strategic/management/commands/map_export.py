"""``manage.py map_export <campaign> [-o FILE]``: write a campaign's map as one JSON file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.models import Campaign
from strategic.services.map_file import map_export


class Command(BaseCommand):
    help = "Export a campaign's map (provinces, borders, terrain transitions) as JSON in the import format."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="the campaign's short name (slug)")
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"No campaign {options['campaign']!r}.")
        text = json.dumps(map_export(campaign=campaign), ensure_ascii=False, indent=1) + "\n"
        if options["output"]:
            Path(options["output"]).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote the map of {campaign.slug} to {options['output']}.")
        else:
            self.stdout.write(text, ending="")
