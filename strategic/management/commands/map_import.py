"""``manage.py map_import <campaign> <file> --user NAME [--replace]``: load a map file into a campaign."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.errors import ServiceError
from campaign.models import Campaign
from strategic.services.map_file import map_import


class Command(BaseCommand):
    help = (
        "Import a map file (JSON, '-' for standard input) into a campaign as one of its moderators; a bad "
        "file is refused with every error, naming the entry and field, and nothing is changed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", help="the campaign's short name (slug)")
        parser.add_argument("file", help="the map file, or - for standard input")
        parser.add_argument("--user", required=True, help="user name of a moderator of the campaign (M1)")
        parser.add_argument(
            "--replace", action="store_true", help="replace the campaign's map, matching provinces by code"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["campaign"]).first()
        if campaign is None:
            raise CommandError(f"No campaign {options['campaign']!r}.")
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"No user {options['user']!r}.")
        try:
            text = (
                sys.stdin.read()
                if options["file"] == "-"
                else Path(options["file"]).read_text(encoding="utf-8")
            )
            data = json.loads(text)
        except OSError as error:
            raise CommandError(f"Cannot read {options['file']}: {error.strerror}.") from error
        except json.JSONDecodeError as error:
            raise CommandError(f"{options['file']} is not JSON: {error}.") from error
        try:
            report = map_import(actor=user, campaign=campaign, data=data, replace=options["replace"])
        except ServiceError as error:
            for key, messages in error.errors.items():
                for message in messages:
                    self.stderr.write(f"{key}: {message}")
            raise CommandError(error.message) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported into {campaign.slug}: {report.created} provinces created, {report.updated} updated, "
                f"{report.deleted} deleted; {report.borders} borders, {report.transitions} transitions; "
                f"{report.outlines_computed} outlines drawn."
            )
        )
