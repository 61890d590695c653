"""URL routes: pages, the API with its schema and docs, the admin, i18n."""

from csp.decorators import csp_update
from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

# The API docs: Swagger UI's page and its script as two files (no inline script), under the site's policy
# but for the pictures Swagger UI draws from data: URLs (its style sheet and its script).
api_docs = csp_update({"img-src": ["data:"]})(
    SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html")
)

def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """The site's icon, named at request time (in production its name carries the manifest's hash)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


# Django tries the routes in order, and every include passed on costs a walk of its patterns: live battles'
# API, the busiest path (issue 4), comes first.
urlpatterns = [
    # Browsers ask for /favicon.ico whatever the page links: send them to the site's icon, not to a 404.
    path("favicon.ico", favicon, name="favicon"),
    path("api/tactical/", include("tactical.api_urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("api/", include("campaign.api_urls")),
    path("api/", include("strategic.api.urls")),
    path("api/moderation/", include("moderation.api_urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("campaign.account_urls")),
    path("accounts/", include("notifications.account_urls")),
    path("", include("notifications.urls")),
    path("", include("campaign.urls")),
    path("", include("tactical.urls")),
    path("", include("moderation.urls")),
    path("", include("strategic.urls")),
]
