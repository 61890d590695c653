"""The static files storage of production: collectstatic's hashed, compressed files, served by WhiteNoise."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    # The board's ES modules import each other ("./render.js"): without this the imported files keep their
    # plain names, so WhiteNoise cannot serve them as immutable and a new release could pair a new board.js
    # with a cached old module.
    support_js_module_import_aggregation = True
