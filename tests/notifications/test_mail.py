"""Mails through a real SMTP server: recipients, language, links, once per event, and a game that goes on when
the mail server is down."""

from __future__ import annotations

import re
import zoneinfo
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from campaign import services as campaign_services
from campaign.models import Campaign
from notifications.models import EmailDelivery, Notification, Profile
from notifications.tasks import email_send

pytestmark = pytest.mark.usefixtures("eager")


def _verified(user: Any, email: str, **profile: Any) -> None:
    user.email = email
    user.save(update_fields=["email"])
    Profile.objects.update_or_create(user=user, defaults={"email_verified": email, **profile})


def _pass_east(w: Any, capture: Any) -> None:
    with capture(execute=True):
        campaign_services.economic_phase_end(actor=w.moderator, campaign=w.campaign)
    with capture(execute=True):
        campaign_services.faction_turn_pass(actor=w.east_leader, faction=w.east)


def test_s4_the_next_faction_is_mailed_in_its_language_and_zone(
    world: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _verified(world.west_leader, "aetius@example.org", language="ru", timezone="Europe/Moscow")
    world.west.name_ru = "Западный Рим"
    world.west.save(update_fields=["name_ru"])
    _pass_east(world, django_capture_on_commit_callbacks)
    deadline = Campaign.objects.get(pk=world.campaign.pk).faction_deadline
    local = timezone.localtime(deadline, timezone=zoneinfo.ZoneInfo("Europe/Moscow"))
    [(to, message)] = smtp.messages
    body = message.get_content()
    assert (to, message["Subject"].strip(), message["Content-Language"]) == (
        ["aetius@example.org"], "Начался ход вашей фракции · Лимес", "ru"
    )
    assert (f"Ваша фракция Западный Рим ходит в Лимес, ход 1: срок — {local:%Y-%m-%d %H:%M} UTC+03:00."
            in body)
    assert "https://limes.example/c/limes/turn/" in body
    unsubscribe = re.search(r"https://limes\.example(/accounts/unsubscribe/[^/\s]+/)", body).group(1)
    assert message["List-Unsubscribe"].strip() == f"<https://limes.example{unsubscribe}>"


def test_the_unsubscribe_link_stops_that_kind_of_mail(
    world: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _verified(world.west_leader, "aetius@example.org")
    _pass_east(world, django_capture_on_commit_callbacks)
    link = re.search(r"https://limes\.example(/accounts/unsubscribe/[^/\s]+/)",
                     smtp.messages[0][1].get_content()).group(1)
    assert "Stop these mails" in Client().get(link).content.decode()
    answer = Client(enforce_csrf_checks=True).post(link)  # the mail client's one-click POST has no CSRF token
    assert "No more mails for “Your faction&#x27;s turn began”." in answer.content.decode()
    assert Profile.objects.get(user=world.west_leader).email_off == ["turn_began"]


def test_a_mail_is_sent_once_however_often_the_task_runs(
    world: Any, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _verified(world.west_leader, "aetius@example.org")
    _pass_east(world, django_capture_on_commit_callbacks)
    notice = Notification.objects.get(user=world.west_leader)
    assert email_send.apply(args=[notice.pk]).get() == "duplicate"
    assert email_send.apply(args=[notice.pk]).get() == "duplicate"
    assert (len(smtp.messages), EmailDelivery.objects.filter(key=notice.key).count()) == (1, 1)


def test_an_unverified_address_gets_no_mail(world: Any, smtp: Any, django_capture_on_commit_callbacks: Any) -> None:
    world.west_leader.email = "aetius@example.org"
    world.west_leader.save(update_fields=["email"])
    _pass_east(world, django_capture_on_commit_callbacks)
    assert (smtp.messages, Notification.objects.filter(user=world.west_leader).count()) == ([], 1)


def test_s4_a_pass_succeeds_while_the_mail_server_is_down_and_the_mail_follows(
    world: Any, smtp_down: int, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _verified(world.west_leader, "aetius@example.org")
    _pass_east(world, django_capture_on_commit_callbacks)
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert (campaign.current_faction_id, EmailDelivery.objects.count()) == (world.west.pk, 0)
    notice = Notification.objects.get(user=world.west_leader)
    from aiosmtpd.controller import Controller

    from tests.notifications.conftest import Inbox

    received = Inbox()
    controller = Controller(received, hostname="127.0.0.1", port=smtp_down)
    controller.start()
    try:
        assert email_send.apply(args=[notice.pk]).get() == "sent"
    finally:
        controller.stop()
    assert [to for to, _m in received.messages] == [["aetius@example.org"]]


def test_signup_mails_a_verification_link_that_confirms_the_address(db: Any, smtp: Any,
                                                                    django_capture_on_commit_callbacks: Any) -> None:
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/accounts/signup/", {
            "username": "marcellinus", "email": "marc@example.org", "timezone": "America/New_York",
            "password1": "Limes-of-the-Danube-9", "password2": "Limes-of-the-Danube-9",
        })
    assert answer.status_code == 302
    user = get_user_model().objects.get(username="marcellinus")
    assert (user.profile.timezone, user.profile.email_verified) == ("America/New_York", "")
    [(to, message)] = smtp.messages
    link = re.search(r"https://limes\.example(/accounts/verify/[^/\s]+/)", message.get_content()).group(1)
    assert (to, message["Subject"].strip()) == (["marc@example.org"], "Confirm your e-mail address · Limes")
    assert client.get(link).status_code == 302
    assert Profile.objects.get(user=user).email_verified == "marc@example.org"
    assert "marc@example.org is confirmed." in client.get("/accounts/me/").content.decode()


def test_a_forged_verification_link_is_refused(db: Any) -> None:
    answer = Client().get("/accounts/verify/forged/")
    assert (answer.status_code, "This link is invalid or has expired: ask for a new one." in
            answer.content.decode()) == (400, True)


def test_a_forgotten_password_is_reset_by_mail_in_russian(world: Any, smtp: Any) -> None:
    _verified(world.west_leader, "aetius@example.org")
    world.west_leader.set_password("Old-walls-of-Sirmium-1")
    world.west_leader.save()
    client = Client()
    client.cookies["django_language"] = "ru"
    assert client.post("/accounts/password/reset/", {"email": "aetius@example.org"}).status_code == 302
    [(to, message)] = smtp.messages
    assert (to, message["Subject"].strip()) == (["aetius@example.org"], "Новый пароль · Limes")
    link = re.search(r"http://testserver(/accounts/password/reset/[^\s]+/)", message.get_content()).group(1)
    form = client.get(link, follow=True)
    assert "Новый пароль" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "Walls-of-Sirmium-42",
                                                    "new_password2": "Walls-of-Sirmium-42"})
    assert done.status_code == 302
    world.west_leader.refresh_from_db()
    assert world.west_leader.check_password("Walls-of-Sirmium-42")


def test_the_account_page_keeps_zone_and_language(world: Any) -> None:
    client = Client()
    client.force_login(world.east_leader)
    answer = client.post("/accounts/me/", {"email": "", "timezone": "Europe/Moscow", "language": "ru"})
    assert answer.status_code == 302
    profile = Profile.objects.get(user=world.east_leader)
    assert (profile.timezone, profile.language) == ("Europe/Moscow", "ru")
    assert "Ваша учётная запись" in client.get("/accounts/me/").content.decode()
    refused = client.post("/accounts/me/", {"email": "", "timezone": "Mars/Olympus", "language": ""})
    assert refused.status_code == 400
    assert "Выберите корректный вариант." in refused.content.decode()


def test_the_language_switch_is_remembered_for_the_account(world: Any) -> None:
    client = Client()
    client.force_login(world.east_leader)
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert Profile.objects.get(user=world.east_leader).language == "ru"
