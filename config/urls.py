"""URL routes: pages, the API with its schema and docs, the admin, i18n."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

# Django tries the routes in order, and every include passed on costs a walk of its patterns: live battles'
# API, the busiest path (issue 4), comes first.
urlpatterns = [
    path("api/tactical/", include("tactical.api_urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include("campaign.api_urls")),
    path("api/", include("strategic.api.urls")),
    path("api/moderation/", include("moderation.api_urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("campaign.account_urls")),
    path("", include("campaign.urls")),
    path("", include("tactical.urls")),
    path("", include("moderation.urls")),
    path("", include("strategic.urls")),
]
