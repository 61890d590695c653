"""Accounts: sign up, log in, log out, and joining a campaign by an invitation link."""

from __future__ import annotations

import html
import re
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from campaign.models import Invitation, Membership
from tests.factories import CommanderFactory, InvitationFactory, UserFactory


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def test_sign_up_creates_the_account_and_logs_in(db: Any, client: Any) -> None:
    response = client.post(
        "/accounts/signup/?next=/c/limes/",
        {
            "username": "marcellinus",
            "password1": "Limes-of-the-Danube-9",
            "password2": "Limes-of-the-Danube-9",
        },
    )
    assert (response.status_code, response["Location"]) == (302, "/c/limes/")
    assert get_user_model().objects.filter(username="marcellinus").exists()
    assert "Signed in as <strong>marcellinus</strong>" in _text(client.get("/"))


def test_sign_up_with_different_passwords_is_refused(db: Any, client: Any) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "marcellinus",
            "password1": "Limes-of-the-Danube-9",
            "password2": "Limes-of-the-Rhine-9",
        },
    )
    assert response.status_code == 400
    assert "The two password fields didn’t match." in _text(response)


def test_sign_up_does_not_redirect_to_another_site(db: Any, client: Any) -> None:
    response = client.post(
        "/accounts/signup/?next=https://example.com/",
        {
            "username": "marcellinus",
            "password1": "Limes-of-the-Danube-9",
            "password2": "Limes-of-the-Danube-9",
        },
    )
    assert response["Location"] == "/"


def test_log_in_and_log_out(db: Any, client: Any) -> None:
    get_user_model().objects.create_user("aetius", password="Limes-of-the-Danube-9")
    response = client.post("/accounts/login/", {"username": "aetius", "password": "Limes-of-the-Danube-9"})
    assert (response.status_code, response["Location"]) == (302, "/")
    assert "Signed in as <strong>aetius</strong>" in _text(client.get("/"))
    assert client.post("/accounts/logout/").status_code == 302
    assert "Log in" in _text(client.get("/"))


def test_invitation_asks_an_anonymous_visitor_to_log_in_first(world: Any, client: Any) -> None:
    invitation = InvitationFactory(campaign=world.campaign, role=Membership.Role.LEADER, faction=world.goths)
    text = _text(client.get(f"/invite/{invitation.token}/"))
    assert "You are invited to <strong>Limes</strong> as <strong>Faction leader</strong>." in text
    assert f'href="/accounts/login/?next=/invite/{invitation.token}/"' in text
    assert "Accept the invitation" not in text


def test_accepting_an_invitation_gives_the_role_and_the_commander(world: Any, client: Any) -> None:
    user = UserFactory(username="fritigern")
    commander = CommanderFactory(faction=world.goths, name="Fritigern")
    invitation = InvitationFactory(
        campaign=world.campaign, role=Membership.Role.COMMANDER, faction=world.goths, commander=commander
    )
    client.force_login(user)
    response = client.post(f"/invite/{invitation.token}/", follow=True)
    assert response.redirect_chain == [("/c/limes/", 302)]
    assert "You joined Limes as Commander." in _text(response)
    assert "You play as Commander of Goths" in _text(response)
    assert Membership.objects.get(campaign=world.campaign, user=user).faction_id == world.goths.pk
    commander.refresh_from_db()
    assert commander.user_id == user.pk


def test_a_used_invitation_cannot_be_accepted_again(world: Any, client: Any) -> None:
    invitation = InvitationFactory(campaign=world.campaign, used_by=world.west_leader, used_at=timezone.now())
    client.force_login(world.outsider)
    assert "This invitation has already been used." in _text(client.get(f"/invite/{invitation.token}/"))
    response = client.post(f"/invite/{invitation.token}/")
    assert response.status_code == 409
    assert not Membership.objects.filter(user=world.outsider).exists()


def test_accepting_twice_in_one_campaign_is_409(world: Any, client: Any) -> None:
    invitation = InvitationFactory(campaign=world.campaign)
    client.force_login(world.west_leader)
    response = client.post(f"/invite/{invitation.token}/")
    assert response.status_code == 409
    assert "You already have a role in this campaign." in _text(response)
    assert Invitation.objects.get(pk=invitation.pk).used_at is None


def test_unknown_invitation_is_404(db: Any, client: Any) -> None:
    assert client.get("/invite/no-such-token/").status_code == 404


def test_one_person_plays_in_several_campaigns(world: Any, client: Any) -> None:
    from tests.factories import CampaignFactory

    second = CampaignFactory(slug="second", name_en="Second war")
    invitation = InvitationFactory(campaign=second)
    client.force_login(world.west_leader)
    client.post(f"/invite/{invitation.token}/")
    mine = _text(client.get("/")).split("My campaigns")[1].split("All campaigns")[0]
    assert re.findall(r'<span class="role-badge">([^<]+)', mine) == ["Faction leader · ", "Observer"]
