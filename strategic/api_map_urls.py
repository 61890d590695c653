"""API route of the map file (included under ``api/``)."""

from django.urls import URLPattern, URLResolver, path

from strategic.api import map_file as api_map

app_name = "strategic-map-api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("campaigns/<slug:slug>/map/", api_map.MapView.as_view(), name="map"),
]
