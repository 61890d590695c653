from django.contrib import admin

from notifications.models import EmailDelivery, Notification, Profile, Webhook, WebhookDelivery

admin.site.register(Profile)
admin.site.register(Notification)
admin.site.register(EmailDelivery)
admin.site.register(Webhook)
admin.site.register(WebhookDelivery)
