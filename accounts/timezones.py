"""The time-zone picker's choices: the zones our players live in first, by their Russian names, then
every other zone grouped by region, each with its UTC offset now. City and country names of the
other zones come from the CLDR data that Babel ships, in the language of the page."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta
from functools import lru_cache

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

# The Russian-speaking world and its neighbours, in this order (west to east in Russia first).
FEATURED = (
    ("Europe/Kaliningrad", _("Kaliningrad")),
    ("Europe/Moscow", _("Moscow")),
    ("Europe/Volgograd", _("Volgograd")),
    ("Europe/Samara", _("Samara")),
    ("Asia/Yekaterinburg", _("Yekaterinburg")),
    ("Asia/Omsk", _("Omsk")),
    ("Asia/Novosibirsk", _("Novosibirsk")),
    ("Asia/Krasnoyarsk", _("Krasnoyarsk")),
    ("Asia/Irkutsk", _("Irkutsk")),
    ("Asia/Yakutsk", _("Yakutsk")),
    ("Asia/Vladivostok", _("Vladivostok")),
    ("Asia/Sakhalin", _("Sakhalin")),
    ("Asia/Magadan", _("Magadan")),
    ("Asia/Kamchatka", _("Kamchatka")),
    ("Europe/Minsk", _("Minsk")),
    ("Europe/Kyiv", _("Kyiv")),
    ("Europe/Chisinau", _("Chisinau")),
    ("Asia/Almaty", _("Almaty")),
    ("Asia/Tashkent", _("Tashkent")),
    ("Asia/Bishkek", _("Bishkek")),
    ("Asia/Dushanbe", _("Dushanbe")),
    ("Asia/Ashgabat", _("Ashgabat")),
    ("Asia/Baku", _("Baku")),
    ("Asia/Yerevan", _("Yerevan")),
    ("Asia/Tbilisi", _("Tbilisi")),
    ("Europe/Riga", _("Riga")),
    ("Europe/Tallinn", _("Tallinn")),
    ("Europe/Vilnius", _("Vilnius")),
    ("Europe/Berlin", _("Berlin")),
    ("Asia/Jerusalem", _("Israel")),
    ("Europe/London", _("London")),
    ("America/New_York", _("New York")),
)
REGIONS = {
    "Europe": _("Europe"), "Asia": _("Asia"), "America": _("America"), "Africa": _("Africa"),
    "Australia": _("Australia"), "Pacific": _("Pacific Ocean"), "Atlantic": _("Atlantic Ocean"),
    "Indian": _("Indian Ocean"), "Antarctica": _("Antarctica"), "Arctic": _("Arctic"),
}


@lru_cache(maxsize=1)
def _zones() -> tuple[str, ...]:
    """Every zone of the regions above, without the old aliases of another zone."""
    aliases = get_global("zone_aliases")
    return tuple(sorted(z for z in zoneinfo.available_timezones()
                        if z.split("/")[0] in REGIONS and z not in aliases))


def utc_offset(zone: str, now: datetime | None = None) -> str:
    """«UTC+3», «UTC+5:30», «UTC−3», «UTC» — the zone's offset at `now`."""
    offset = (now or timezone.now()).astimezone(zoneinfo.ZoneInfo(zone)).utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    if not minutes:
        return "UTC"
    sign, minutes = ("+" if minutes > 0 else "−"), abs(minutes)
    return f"UTC{sign}{minutes // 60}" + (f":{minutes % 60:02d}" if minutes % 60 else "")


@lru_cache(maxsize=8)
def _place_names(language: str) -> dict[str, str]:
    """Zone → «City, Country» in `language` (CLDR via Babel; the zone's own name where CLDR has none)."""
    try:
        locale = Locale.parse(language)
    except (ValueError, LookupError):
        locale = Locale.parse("en")
    territories = get_global("zone_territories")
    names = {}
    for zone in _zones():
        city = get_timezone_location(zone, locale=locale, return_city=True)
        if not city or "/" in city or city.startswith(("GMT", "UTC")):
            city = zone.rsplit("/", 1)[-1].replace("_", " ")
        country = locale.territories.get(territories.get(zone, ""), "")
        names[zone] = f"{city}, {country}" if country and country != city else city
    return names


def time_zone_choices(current: str | None = None) -> list:
    """Grouped choices for a select: the featured zones, then each region's zones by offset.
    `current` (a valid zone the list leaves out, such as an old alias) is kept, so that saving a
    profile never changes a time zone nobody touched."""
    now = timezone.now()
    choices, shown = _grouped(translation.get_language() or "ru", now.replace(minute=0, second=0, microsecond=0))
    choices = list(choices)
    if current and current not in shown and current in zoneinfo.available_timezones():
        choices.append((_("Other"), [(current, f"{current} ({utc_offset(current, now)})")]))
    return choices


@lru_cache(maxsize=16)
def _grouped(language: str, hour: datetime) -> tuple[tuple, frozenset[str]]:
    """The choices for one language at one hour (offsets change only on the hour)."""
    places = _place_names(language)
    with translation.override(language):
        featured = [(zone, f"{label} ({utc_offset(zone, hour)})") for zone, label in FEATURED]
        choices: list = [(str(_("Russia and neighbours")), featured)]
        shown = {zone for zone, _label in featured}
        groups: dict[str, list[tuple[int, str, str]]] = {}
        for zone in _zones():
            if zone in shown:
                continue
            offset = hour.astimezone(zoneinfo.ZoneInfo(zone)).utcoffset() or timedelta(0)
            groups.setdefault(zone.split("/")[0], []).append((int(offset.total_seconds()), places[zone], zone))
            shown.add(zone)
        for region, label in REGIONS.items():
            rows = sorted(groups.get(region, ()))
            if rows:
                choices.append((str(label), [(zone, f"{place} ({utc_offset(zone, hour)})") for _s, place, zone in rows]))
    return tuple(choices), frozenset(shown)
