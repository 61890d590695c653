"""The map file over the API: export for anyone who may read the campaign, import for its moderators."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.api import READ_ERRORS, CampaignView, errors
from campaign.errors import Invalid
from campaign.parsers import JSONRefused, read_json
from campaign.serializers import keyword_fields
from strategic.services import map_file as map_io

NOT_JSON = _("The uploaded file is not JSON: %(error)s")


class ImportReportOut(serializers.Serializer):
    """What an import did."""

    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    deleted = serializers.IntegerField()
    borders = serializers.IntegerField()
    transitions = serializers.IntegerField()
    outlines_computed = serializers.IntegerField()


class MapProvinceOut(serializers.Serializer):
    """A province of the map file."""

    code = serializers.CharField()
    name_en = serializers.CharField()
    name_ru = serializers.CharField()
    terrain = serializers.CharField()
    x = serializers.IntegerField()
    y = serializers.IntegerField()
    port = serializers.BooleanField()
    fortress = serializers.BooleanField()
    fortress_capacity = serializers.IntegerField()
    tribe = serializers.BooleanField()
    outline = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField()),
        help_text="[[x, y], ...] on the map picture",
    )


class MapBorderOut(serializers.Serializer):
    """A border between two provinces, by code."""

    a = serializers.CharField()
    b = serializers.CharField()
    kind = serializers.CharField()


class MapTransitionOut(serializers.Serializer):
    """The battlefield terrain of a move from one province into another (S9)."""

    to = serializers.CharField()
    terrain = serializers.CharField()


keyword_fields(MapTransitionOut, **{"from": serializers.CharField()})


class MapFileOut(serializers.Serializer):
    """The campaign's map in the import format (provinces, borders, terrain transitions: S5, S9, R1.3)."""

    format = serializers.CharField()
    version = serializers.IntegerField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    provinces = MapProvinceOut(many=True)
    borders = MapBorderOut(many=True)
    transitions = MapTransitionOut(many=True)


class ReplaceIn(serializers.Serializer):
    """The query of an import: ``?replace=true`` changes a campaign that already has a map."""

    replace = serializers.BooleanField(default=False)


class MapView(CampaignView):
    """``GET``: the campaign's map file; ``POST`` a map file: import it (moderators)."""

    @extend_schema(responses={200: MapFileOut, **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """The map in the import format: provinces, borders, terrain transitions (S5, S9, R1.3)."""
        response = Response(map_io.map_export(campaign=self.campaign))
        if request.query_params.get("download"):
            response["Content-Disposition"] = f'attachment; filename="{self.campaign.slug}-map.json"'
        return response

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        parameters=[
            OpenApiParameter("replace", bool, description="Replace the campaign's map (matched by code).")
        ],
        responses=errors({201: ImportReportOut}),
    )
    def post(self, request: Request, slug: str) -> Response:
        """Import a map file (the JSON body, or a multipart upload named ``file``); a bad file is refused with
        every error keyed by entry and field."""
        self.require_moderator()
        replace = self.valid(ReplaceIn, data=request.query_params)["replace"]
        report = map_io.map_import(
            actor=request.user, campaign=self.campaign, data=self._file(request), replace=replace
        )
        return Response(ImportReportOut(report.as_dict()).data, status=201)

    @staticmethod
    def _file(request: Request) -> Any:
        upload = request.FILES.get("file")
        if upload is None:
            return request.data
        try:
            return read_json(upload.read().decode("utf-8"))
        except (ValueError, JSONRefused) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise Invalid(NOT_JSON, params={"error": str(error)}, field="file") from error
