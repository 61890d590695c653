"""The Celery app: the broker comes from settings (Redis, or the file system in the embedded mode)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("limes")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
