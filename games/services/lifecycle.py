"""A game's life: signups, the start (roles dealt with a seeded RNG and committed), the end."""

from __future__ import annotations

import hashlib
import random
import secrets
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.communication.rooms import rooms_close_all
from games.engine.rulesets import get_ruleset
from games.models import Game, Seat, Thread
from games.permissions import in_play, is_game_master
from games.rulesets import registry
from games.selectors.commitment import as_dealt, commitment_payload, revealed_roles, role_changes
from games.selectors.communication import team_chat_enabled
from games.services import ActionRefused, notifications
from games.services.journal import gm_log, store_events
from games.services.phases import phase_open_named
from games.services.posts import post_create
from games.wording import faction_label


def role_table_for(game: Game, size: int) -> list[str]:
    ruleset = get_ruleset(game.ruleset)
    if game.role_table:
        roles = list(game.role_table)
        if len(roles) != size:
            raise ActionRefused(
                _("The role list has %(roles)d roles for %(players)d players.") % {"roles": len(roles), "players": size},
                code="roles_mismatch")
        unknown = [r for r in roles if r not in ruleset.roles]
        if unknown:
            raise ActionRefused(_("Unknown roles: %(roles)s") % {"roles": ", ".join(unknown)}, code="bad_roles")
        return roles
    try:
        return registry.site(game.ruleset).default_roles(game=game, size=size)
    except ValueError:
        raise ActionRefused(
            _("This rule set is played by %(min)d to %(max)d players.") % {"min": ruleset.min_players, "max": ruleset.max_players},
            code="bad_size") from None


def game_signup(*, game: Game, user, application: str = "", overt_role: str = "", contacts: str = "") -> Seat:
    """Sign `user` up. The application may set more of the seat where the rule set says so
    (SiteRuleset.signup_extras; cards: the «Класс», overt role, unique in the game, and the
    «Внешность», contacts, for the GMs only)."""
    if not user.is_authenticated:
        raise ActionRefused(_("Log in to sign up."), code="anonymous")
    if game.status != Game.Status.SIGNUPS:
        raise ActionRefused(_("Signups are closed."), code="closed")
    if is_game_master(user, game):
        raise ActionRefused(_("The GM does not play in his own game."), code="gm")
    try:
        with transaction.atomic():
            Game.objects.select_for_update().filter(pk=game.pk).first()
            if Seat.objects.filter(game=game, user=user).exists():
                raise ActionRefused(_("You have already signed up."), code="already")
            if Seat.objects.filter(game=game).count() >= game.size:
                raise ActionRefused(_("The game is full."), code="full")
            refusal = registry.site(game.ruleset).signup_refusal(game=game, user=user)
            if refusal:
                raise ActionRefused(refusal, code="refused_by_rules")
            number = (Seat.objects.filter(game=game).aggregate(m=Max("number"))["m"] or 0) + 1
            extra = registry.site(game.ruleset).signup_extras(game=game, overt_role=overt_role, contacts=contacts)
            return Seat.objects.create(game=game, user=user, number=number, application=(application or "")[:2000],
                                       **extra)
    except IntegrityError:
        raise ActionRefused(_("You have already signed up."), code="already") from None


def game_withdraw(*, game: Game, user) -> None:
    if game.status != Game.Status.SIGNUPS:
        raise ActionRefused(_("Signups are closed: ask the GM for a replacement."), code="closed")
    deleted, _rows = Seat.objects.filter(game=game, user=user).delete()
    if not deleted:
        raise ActionRefused(_("You are not signed up."), code="not_signed")


def game_start(*, game: Game, by, now: datetime | None = None, seed: int | None = None,
               roles_in_seat_order: list[str] | None = None, seat_data: dict | None = None) -> Game:
    """Close signups, deal the roles with a seeded RNG, commit to them, open the first phase.
    `roles_in_seat_order` deals fixed roles instead (scenario files say who is who). The rule set
    may hand new_game more (SiteRuleset.new_game_arguments; cards: each seat's «Класс» as its overt
    role, and `seat_data`, {seat pk: {...}} of scenario files, adds decks, Hands and Sleeves); the
    roles stored are the state's (a rule set's new_game may draw placeholders of the table)."""
    now = now or timezone.now()
    if not is_game_master(by, game):
        raise ActionRefused(_("Only the GM starts the game."), code="not_allowed")
    ruleset = get_ruleset(game.ruleset)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.SIGNUPS:
            raise ActionRefused(_("The game has already started."), code="started")
        seats = list(game.seats.select_related("user").order_by("number"))
        # A table the GM wrote may be smaller than the automatic one (the rule set judges it:
        # validate_roles in new_game); the automatic table needs min_players.
        own_table = bool(game.role_table) or roles_in_seat_order is not None
        minimum = min(getattr(ruleset, "min_players_own_table", ruleset.min_players), ruleset.min_players) \
            if own_table else ruleset.min_players
        if len(seats) < minimum:
            raise ActionRefused(_("Not enough players: %(n)d, at least %(min)d.") % {"n": len(seats), "min": minimum},
                                code="too_few")
        game.rng_seed = seed if seed is not None else secrets.randbits(62)
        if roles_in_seat_order is not None:
            roles = list(roles_in_seat_order)
            if len(roles) != len(seats) or any(r not in ruleset.roles for r in roles):
                raise ActionRefused(_("The role list does not fit the players."), code="roles_mismatch")
        else:
            roles = role_table_for(game, len(seats))
            random.Random(game.rng_seed).shuffle(roles)
        table = [(s.pk, s.user.display_name, r) for s, r in zip(seats, roles)]
        adapter = registry.site(game.ruleset)
        arguments = adapter.new_game_arguments(game=game, seats=seats, seat_data=seat_data)
        try:
            state, events = ruleset.new_game(table, options=adapter.engine_options(game=game), **arguments)
        except ValueError as error:  # the rule set refused the table or an option; nothing is written
            raise ActionRefused(_("The game cannot start: %(why)s") % {"why": error}, code="bad_setup") from None
        for seat in seats:
            seat_state = state.seat(seat.pk)
            # The state's role: a placeholder of the table is drawn by new_game.
            seat.role, seat.faction, seat.status = seat_state.role, seat_state.faction, seat_state.status
            seat.is_alive = in_play(game, seat_state)  # the rule set says who still plays
            seat.dealt_name, seat.dealt_role = seat.user.display_name, seat.role
        Seat.objects.bulk_update(seats, ["role", "faction", "status", "is_alive", "dealt_name", "dealt_role"])
        game.commitment_salt = secrets.token_hex(16)
        game.commitment = hashlib.sha256(commitment_payload(game, seats).encode("utf-8")).hexdigest()
        game.state = state.to_json()
        game.status = Game.Status.RUNNING
        game.started_at = now
        game.size = len(seats)
        game.save()
        store_events(game=game, phase=None, events=events, now=now)
        private_threads_create(game=game, seats=seats)
        gm_log(game=game, user=by, action="start", data={"players": len(seats)}, now=now)
        with translation.override(settings.LANGUAGE_CODE):  # posts are written in the site's language
            body = str(_("[b]The game begins.[/b] Roles have been dealt; everyone finds his on the role page.\n"
                       "Commitment to the role list (SHA-256): [code]%(hash)s[/code]\n"
                       "It is revealed with the salt when the game ends, so anyone can check that nobody "
                       "changed a role.")) % {"hash": game.commitment}
        post_create(thread=game.game_thread, author=game.gm, now=now, body=body)
        phase_open_named(game=game, name=state.phase, now=now)
    return game


def private_threads_create(*, game: Game, seats: list[Seat]) -> None:
    """The game's private threads: a chat for each team that knows itself (where the game has team
    chats: `team_chat_enabled`), letters to the GM for each seat, and the lounge of the fallen and
    the spectators."""
    ruleset = get_ruleset(game.ruleset)
    with translation.override(settings.LANGUAGE_CODE):
        threads = []
        teams = {s.faction for s in seats if s.faction and ruleset.roles[s.role].knows_team}
        for faction in sorted(teams if team_chat_enabled(game) else ()):
            threads.append(Thread(kind=Thread.Kind.FACTION, game=game, faction=faction, created_by=game.gm,
                                  title=str(_("%(game)s: chat of %(team)s")) % {"game": game.title,
                                                                                 "team": faction_label(faction)}))
        for seat in seats:
            threads.append(Thread(kind=Thread.Kind.GM_CHAT, game=game, seat=seat, created_by=game.gm,
                                  title=str(_("%(game)s: seat %(n)d and the GM")) % {"game": game.title, "n": seat.number}))
        lounge = registry.site(game.ruleset).lounge_label  # the Show's slaves' chat
        title = (str(_("%(game)s: %(lounge)s")) % {"game": game.title, "lounge": lounge} if lounge is not None
                 else str(_("%(game)s: lounge")) % {"game": game.title})
        threads.append(Thread(kind=Thread.Kind.LOUNGE, game=game, created_by=game.gm, title=title))
    Thread.objects.bulk_create(threads)


def game_finish(*, game: Game, winner: str, now: datetime) -> None:
    """Called inside the close that ended the game: reveal the commitment, and lock every room
    still open (the Conspirator's lasts «до конца игры»; the others closed with their phase)."""
    game.status = Game.Status.FINISHED
    game.winner = winner or "none"
    game.finished_at = now
    game.save(update_fields=["status", "winner", "finished_at"])
    rooms_close_all(game=game)
    seats = list(game.seats.select_related("user").order_by("number"))
    with translation.override(settings.LANGUAGE_CODE):
        # The roles as dealt, by their names in the site's language (the rule set's wording), not
        # the codes of the committed text; that text, its salt and their check are on the
        # commitment page and the archive (docs/architecture.md, "The role commitment"), so the
        # thread and the search read names, not `citizen`. A role a rule changed since is told
        # beside the deal, never written into it (issue 28).
        roles = "\n".join(f"{row['number']}. {row['name']} — {row['label']}"
                          for row in revealed_roles(game, as_dealt(seats)))
        body = str(_("[b]The game is over.[/b] The roles:\n%(roles)s\n\n"
                     "SHA-256 of the role list published at the start: [code]%(hash)s[/code]\n"
                     "The list with its salt, as committed, and its check: [url=%(url)s]the commitment page[/url].")) % {
            "roles": roles, "hash": game.commitment, "url": notifications.site_url() + reverse("games:commitment", args=[game.pk])}
        changes = role_changes(game, seats)
        if changes:
            body += "\n" + str(_("Roles changed during the game by its rules:")) + "\n" + "\n".join(
                str(_("#%(number)s %(name)s: at the deal %(dealt)s, now %(now)s")) % {
                    "number": c.number, "name": c.name, "dealt": c.dealt, "now": c.now} for c in changes)
    post_create(thread=game.game_thread, author=game.gm, now=now, body=body)


def game_set_co_gm(*, game: Game, by, name: str, add: bool, now: datetime | None = None):
    """The GM adds or removes a co-GM by display name (co-GMs see and do what the GM does)."""
    from accounts.models import User, display_name_key

    if not (by.is_authenticated and (by.pk == game.gm_id or by.is_staff)):
        raise ActionRefused(_("Only the game's GM chooses co-GMs."), code="not_allowed")
    user = User.objects.filter(display_name_key=display_name_key(name or ""), is_active=True).first()
    if user is None:
        raise ActionRefused(_("No user has that name."), code="unknown_user")
    if add:
        if user.pk == game.gm_id:
            raise ActionRefused(_("The GM is already the GM."), code="already_gm")
        if game.seats.filter(user=user).exists():
            raise ActionRefused(_("A player of the game cannot be its co-GM."), code="player")
        game.co_gms.add(user)
    else:
        game.co_gms.remove(user)
    gm_log(game=game, user=by, action="co_gm_add" if add else "co_gm_remove", data={"user": user.pk}, now=now)
    return user
