"""The club rule set's adapter for the site."""

from django.utils.translation import gettext_lazy as _

from games.rulesets.base import GmInput, SiteRuleset
from games.services.gm_writes import COUNT, THREADS
from games.rulesets.base import ScenarioSpec
from games.rulesets.club import forms, services, views
from games.rulesets.club.engine import CLUB
from games.rulesets.club.wording import WORDING


class ClubSite(SiteRuleset):
    key = "club"
    label = _("Club mafia")
    engine = CLUB
    wording = WORDING
    # Scenario files: the GM's fouls (names) and a team's forfeit; no tie-break (a tie re-votes).
    scenario = ScenarioSpec(gm={"fouls": "seats", "forfeit": "value"})

    # Its own page: the rating after the end (games:rating); the game page links it when the
    # game is over (`game|ruleset_has:"rating"`), the leaderboard adds the rating column.
    urls_module = "games.rulesets.club.urls"
    capabilities = frozenset({"rating"})
    # The game page's rating link after the winner; the GM dashboard's «Decisions and overrides»
    # card: the foul and forfeit forms.
    template_panels = {"game.winner": ("games/club_rating_link.html",),
                       "gm.decisions": ("games/club_gm_decisions.html",)}

    def panel_context(self, place: str, context: dict) -> dict:
        return views.gm_panel_context() if place == "gm.decisions" else {}

    def gm_inputs(self) -> dict[str, GmInput]:
        # A foul may remove a player (the count's voters), a forfeit ends the game (its posts).
        return {"foul": GmInput(views.gm_foul, changes=(COUNT, THREADS), confirmed=True),
                "forfeit": GmInput(views.gm_forfeit, changes=(COUNT, THREADS), confirmed=True)}

    def leaderboard_sorts(self) -> dict[str, object]:
        return {"rating": _("rating")}

    def seat_ratings(self, games) -> dict[int, float]:
        return services.seat_ratings(games)

    # --- The new-game form: the newcomers, immune on day 1 and night 1 -------------------------
    def option_fields(self) -> dict:
        return forms.option_fields()

    def options_from(self, cleaned: dict) -> dict:
        return forms.options_from(cleaned)

    # --- Automatic games (docs/rulesets/club.md, "Automatic games"): fouls and forfeits are a
    # human judge's; the site gives none.
    auto_host = True

    def auto_host_rules(self, *, game) -> list:
        return [
            _("A tie on the day goes to one re-vote; a second tie ends the day in peace, as the rules say."),
            _("Night orders are sent on the site before the deadline; an order not sent is no action. The "
              "don has the last word on the mafia's kill; without him the shooters must agree."),
            _("Fouls and forfeits are a judge's decisions: in an automatic game nobody gives them."),
        ]

    # --- Talking (003): «30 секунд на прощание с городом» — one farewell post in the game thread
    # for a player voted out (day or re-vote) or taken to the grave by the voted-out don (the
    # engine's public events say which); anyone else out of play leaves the table without a word.
    out_of_play_talk = "farewell"
    farewell_events = ("executed", "taken")

    # --- Communication: the club game is played at the table's pace, in public: no [private]
    # tags and no anonymous messages unless the GM turns them on.
    private_mode_default = "off"
    anonymous_default = None


SITE = ClubSite()
