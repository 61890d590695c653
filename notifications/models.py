"""Tables of notifications: the reader's profile (time zone, language, e-mail), the inbox, the mail sent."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign


class Profile(models.Model):
    """What a user chose for himself: time zone, language, a verified address, the mails he does not want."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    timezone = models.CharField(_("time zone"), max_length=64, blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True)
    email_verified = models.CharField(_("verified address"), max_length=254, blank=True)
    email_off = models.JSONField(_("kinds not mailed"), default=list, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")


class Notification(models.Model):
    """One notice in a user's inbox: its kind and params are rendered in the reader's language when shown."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    campaign = models.ForeignKey(Campaign, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=40)
    params = models.JSONField(default=dict, blank=True)
    link = models.CharField(max_length=300, blank=True)
    # One notice per event and person: the same event reported twice (a task retried) adds nothing.
    key = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "read_at"])]


class EmailDelivery(models.Model):
    """A mail sent for one notice: the unique key is what makes a task that runs twice send it once."""

    key = models.CharField(max_length=200, unique=True)
    notification = models.ForeignKey(Notification, null=True, on_delete=models.SET_NULL, related_name="+")
    to = models.CharField(max_length=254)
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("mail sent")
        verbose_name_plural = _("mails sent")


class Webhook(models.Model):
    """An address the campaign's events are posted to (a forum's or a chat's channel), set by its moderator."""

    class Format(models.TextChoices):
        JSON = "json", _("JSON signed with HMAC-SHA256")
        DISCORD = "discord", _("Discord")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(_("address"), max_length=500)
    format = models.CharField(_("format"), max_length=10, choices=Format.choices, default=Format.JSON)
    events = models.JSONField(_("events"), default=list)
    language = models.CharField(_("language"), max_length=8, default="en")
    # The key of the signature: shown to the moderator once, when the webhook is made.
    secret = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")
        ordering = ["id"]


class WebhookDelivery(models.Model):
    """One event posted (or to be posted) to one webhook: its body, how each try went."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        DELIVERED = "delivered", _("delivered")
        FAILED = "failed", _("failed")

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    key = models.CharField(max_length=200)
    event = models.CharField(max_length=40)
    body = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-id"]
        # One delivery per event and webhook: the same event told twice is posted once.
        constraints = [models.UniqueConstraint(fields=["webhook", "key"], name="webhook_delivery_once")]
