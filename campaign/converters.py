"""The path converter of every row id in the project's URLs.

Django's ``int`` takes any run of digits, and a 20-digit id reached PostgreSQL's bigint and failed there
(a 500). Ids are at most 18 digits: a longer one matches no route and is a plain 404.
"""

from __future__ import annotations

from django.urls import register_converter

MAX_DIGITS = 18


class IdConverter:
    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


def register() -> None:
    register_converter(IdConverter, "id")
