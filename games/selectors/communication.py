"""How the players of a game may talk, as it applies now: the rule set's defaults (SiteRuleset,
"Communication") with the GM's choices (Game.options) over them. Reads only, moved down from the
communication package and games.services.games (issue 15): the services that check a message,
the lifecycle that opens the team chats, the GM's settings form and the pages all ask here, and
none of them imports another's service for it."""

from __future__ import annotations

from games.models import Game
from games.permissions import night_silence as night_silence_of
from games.rulesets import registry

# Who may be written to with [private]: the rule set's default (SiteRuleset.private_mode_default),
# which a game may override with options["private_messages"]; a game of an unregistered rule set
# has none.
MODES = ("anyone", "neighbours", "off")


def private_mode(game: Game) -> str:
    adapter = registry.find(game.ruleset)
    default = adapter.private_mode_default if adapter is not None else "off"
    mode = (game.options or {}).get("private_messages") or default
    return mode if mode in MODES else "off"


def anonymous_rules(game: Game) -> dict | None:
    """{"limit": per player per game, "approval": the GM reads first} or None when the game has none."""
    adapter = registry.find(game.ruleset)
    default = adapter.anonymous_default if adapter is not None else None
    configured = (game.options or {}).get("anonymous_messages", default)
    if not configured:
        return None
    return {"limit": int(configured.get("limit", 5)), "approval": bool(configured.get("approval", False))}


def rooms_enabled(game: Game) -> bool:
    adapter = registry.find(game.ruleset)
    default = adapter.rooms_default if adapter is not None else False
    return bool((game.options or {}).get("rooms", default))


def team_chat_enabled(game: Game) -> bool:
    """Whether a team that knows itself gets a chat of its own."""
    adapter = registry.find(game.ruleset)
    default = adapter.team_chat_default if adapter is not None else True
    return bool((game.options or {}).get("team_chat", default))


def communication_of(game: Game) -> dict:
    """The game's communication settings as they apply now (the rule set's defaults filled in)."""
    anonymous = anonymous_rules(game)
    return {"private_messages": private_mode(game), "rooms": rooms_enabled(game), "team_chat": team_chat_enabled(game),
            "anonymous_limit": anonymous["limit"] if anonymous else 0,
            "anonymous_approval": bool(anonymous and anonymous["approval"]),
            "night_silence": night_silence_of(game)}
