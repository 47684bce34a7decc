"""Forms of the games app. Validation of content lives in the services; forms only carry it."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class PostForm(forms.Form):
    body = forms.CharField(
        label=_("Message"),
        required=False,  # the service says "the post is empty" with the same words everywhere
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "id": "reply-body", "placeholder": _("Write your message (BBCode)")}),
    )

    comment = forms.CharField(label=_("Comment"), required=False, max_length=300,
                              widget=forms.TextInput(attrs={"placeholder": _("e.g. комната: Вася, Петя")}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # One more than the limit so that the service, not the browser, explains the refusal.
        self.fields["body"].widget.attrs["maxlength"] = settings.MAFIA_POST_MAX_LENGTH + 1


class ThreadForm(PostForm):
    title = forms.CharField(label=_("Title"), max_length=200)
    field_order = ["title", "body"]


class GameCreateForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)
    ruleset = forms.ChoiceField(label=_("Rule set"), choices=[("forum", _("Forum mafia")), ("club", _("Club mafia")),
                                                              ("cards", _("Card mafia"))])
    size = forms.IntegerField(label=_("Number of players"), min_value=3, max_value=30, initial=9)
    roles = forms.CharField(
        label=_("Roles (optional)"), required=False,
        help_text=_("One role per player, comma-separated, e.g. «recruiter, reanimator, mafioso, killer, thief, "
                    "citizen, citizen». Empty: the default table for the number of players."),
    )
    phase_hours = forms.IntegerField(label=_("Phase length, hours"), min_value=1, max_value=240, initial=24)
    newcomers = forms.CharField(
        label=_("Newcomers (club)"), required=False, max_length=400,
        help_text=_("Club mafia: display names of newcomers, comma-separated; they cannot be voted out on day 1 "
                    "nor killed on night 1."),
    )

    hero = forms.BooleanField(
        label=_("A hero (cards)"), required=False,
        help_text=_("Card mafia: the hero replaces one member of the Law, drawn at random at the start."))
    extra_neutral = forms.ChoiceField(
        label=_("The extra neutral at 13-14 players (cards)"), initial="random", required=False,
        choices=[("random", _("the joker or the traitor, at random")), ("joker", _("the joker")),
                 ("traitor", _("the traitor"))])

    def clean_newcomers(self) -> list[str]:
        raw = self.cleaned_data.get("newcomers") or ""
        return [" ".join(n.split()) for n in raw.split(",") if n.strip()]

    def clean_roles(self) -> list[str]:
        """Role keys or their names in either language ("рекрутёр", "recruiter")."""
        from django.utils import translation

        from games.eventtext import ROLE_NAMES

        names = {}
        for ruleset_roles in ROLE_NAMES.values():
            for key, label in ruleset_roles.items():
                for language in ("ru", "en"):
                    with translation.override(language):
                        names[str(label).casefold().replace("ё", "е")] = key
        raw = self.cleaned_data.get("roles") or ""
        roles = []
        for item in raw.split(","):
            item = " ".join(item.split()).casefold().replace("ё", "е")
            if item:
                roles.append(names.get(item, item))
        return roles

    def clean(self):
        cleaned = super().clean()
        from games.engine.rulesets import get_ruleset

        ruleset = get_ruleset(cleaned.get("ruleset") or "forum")
        size, roles = cleaned.get("size"), cleaned.get("roles") or []
        if size is not None and not (ruleset.min_players <= size <= ruleset.max_players):
            self.add_error("size", _("This rule set is played by %(min)d to %(max)d players.")
                           % {"min": ruleset.min_players, "max": ruleset.max_players})
        if roles:
            unknown = sorted({r for r in roles if r not in ruleset.roles})
            if unknown:
                self.add_error("roles", _("Unknown roles: %(roles)s") % {"roles": ", ".join(unknown)})
            elif size is not None and len(roles) != size:
                self.add_error("roles", _("The role list has %(roles)d roles for %(players)d players.")
                               % {"roles": len(roles), "players": size})
        return cleaned


class CommunicationForm(forms.Form):
    """How the players of one game may talk (games.services.games.game_set_communication)."""

    private_messages = forms.ChoiceField(
        label=_("[private] messages in game posts"),
        choices=[("anyone", _("to any player")), ("neighbours", _("to the neighbours in the seating ring only")),
                 ("off", _("not allowed"))])
    rooms = forms.BooleanField(label=_("Chat rooms agreed in the post comment field («комната: …»)"), required=False)
    team_chat = forms.BooleanField(label=_("A chat for each team that knows itself (set before the start)"),
                                   required=False)
    anonymous_limit = forms.IntegerField(label=_("Anonymous messages through the GM, per player (0: none)"),
                                         min_value=0, max_value=50)
    anonymous_approval = forms.BooleanField(label=_("The GM reads anonymous messages before they are delivered"),
                                            required=False)


class CollectionForm(forms.Form):
    """A game's card collection as YAML (games.services.games.game_set_collection)."""

    text = forms.CharField(label=_("The collection (YAML)"), widget=forms.Textarea(attrs={"rows": 30, "spellcheck": "false"}),
                           required=False, max_length=400_000)
