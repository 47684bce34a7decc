"""Forms of the games app. Validation of content lives in the services; forms only carry it."""

import json

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from games.engine.rulesets import get_ruleset
from games.wording import role_label
from games.rulesets import registry
from games.text.roletable import RoleNames, parse_role_table, role_names


class PostForm(forms.Form):
    body = forms.CharField(
        label=_("Message"),
        required=False,  # the service says "the post is empty" with the same words everywhere
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "id": "reply-body", "placeholder": _("Write your message (BBCode)")}),
    )

    comment = forms.CharField(label=_("Comment"), required=False, max_length=300,
                              widget=forms.TextInput(attrs={"placeholder": _("e.g. комната: Вася, Петя")}))
    # A media post's file (shown only where the game's rule set owes one: games/services/media.py
    # checks its content; the accept filter only helps the browser's picker).
    # The name the post is signed with instead of the author's (the Show's Говорун, /fake): a user
    # id among the rule set's choices (SiteRuleset.post_sender_choices), offered only to him.
    shown_as = forms.IntegerField(label=_("Send as"), required=False, min_value=1)
    media = forms.FileField(label=_("Audio or video"), required=False,
                            widget=forms.ClearableFileInput(attrs={"accept": "audio/*,video/*"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Exactly the service's limit (games.services.posts.post_clean_body counts as the browser
        # does), stated under the box by games/_bbcode_help.html, with a counter (static/js/site.js).
        self.max_length = settings.MAFIA_POST_MAX_LENGTH
        self.fields["body"].widget.attrs.update({"maxlength": self.max_length, "aria-describedby": "post-limit"})
        # The request-level cap (config/upload_limits.py), told to the browser so that a file over
        # it is refused before it is sent (static/js/site.js); the server refuses it anyway.
        cap = settings.MAFIA_REQUEST_MAX_BYTES
        self.fields["media"].widget.attrs.update({
            "data-max-bytes": cap,
            "data-too-large": _("This file is larger than %(size)s. Choose a smaller one.") % {"size": filesizeformat(cap)},
        })


class _SharedFields(dict):
    """A form class's fields that its instances share instead of deep-copying them (Django copies
    them per instance so that one may change its widgets): only for a form that is cleaned and
    never changed or rendered (a field's clean() changes nothing)."""

    def __deepcopy__(self, memo):
        return self


class PostValues(PostForm):
    """The reply form's data cleaned exactly as PostForm cleans it (the same fields), for the view
    that stores the post: an accepted reply renders no form, and making a PostForm (its fields and
    widgets deep-copied, the file size cap formatted) cost a sixteenth of a plain post (issue 30
    part 3, third session). A form to show again (a refusal, a preview) is a PostForm."""

    def __init__(self, *args, **kwargs):
        forms.Form.__init__(self, *args, **kwargs)  # not PostForm's: its widgets are never rendered


PostValues.base_fields = _SharedFields(PostForm.base_fields)


class ThreadForm(PostForm):
    title = forms.CharField(label=_("Title"), max_length=200)
    field_order = ["title", "body"]


class GameCreateForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)
    # The registered rule sets (settings.MAFIA_RULESETS), in their order.
    ruleset = forms.ChoiceField(label=_("Rule set"), choices=registry.choices)
    size = forms.IntegerField(label=_("Number of players"), min_value=2, max_value=30, initial=9)
    roles = forms.CharField(
        label=_("Roles (optional)"), required=False, max_length=2000,
        help_text=_("One role per player, comma-separated, by name; a count for several: «2 мафиози», «мирный ×3». "
                    "Empty: the default table for the number of players."),
    )
    phase_hours = forms.IntegerField(label=_("Phase length, hours"), min_value=1, max_value=240, initial=24)
    # Issue 31: the site hosts the game itself (games.services.autohost); you are not its GM.
    automatic = forms.BooleanField(
        label=_("Automatic game"), required=False,
        help_text=_("The site hosts it: it starts when the table is full, closes every phase at its deadline and "
                    "posts the results. You will not be its GM."))
    # Then each rule set's own fields (SiteRuleset.option_fields: club's newcomers, cards' hero and
    # extra neutral), in the rule sets' order; options_of() turns them into the game's options.

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The player count starts at the chosen rule set's (SiteRuleset.default_size: the Show's 10);
        # static/js/site.js moves it when another rule set is picked, unless the GM typed one.
        sizes = {a.key: a.default_size or self.fields["size"].initial for a in registry.adapters()}
        self.fields["size"].initial = sizes.get(self.chosen_ruleset(), self.fields["size"].initial)
        self.fields["size"].widget.attrs["data-ruleset-sizes"] = json.dumps(sizes)
        # Whose each option field is: the page marks it (data-ruleset-field) so that static/js/site.js
        # shows only the chosen rule set's, and full_clean() ignores the others' (without JavaScript
        # every field shows, each named after its rule set).
        self.ruleset_of: dict[str, str] = {}
        for adapter in registry.adapters():
            fields = adapter.option_fields()
            self.fields.update(fields)
            self.ruleset_of.update(dict.fromkeys(fields, adapter.key))
        # Each rule set's roles by the names the site shows; static/js/site.js shows only the
        # chosen rule set's line.
        field = self.fields["roles"]
        field.help_text = format_html(
            "{} {}", field.help_text,
            format_html_join(" ", '<span class="roles-help" data-ruleset-help="{}">{}: {}.</span>', (
                (key, label, ", ".join(role_label(key, role) for role in _role_table_roles(key)))
                for key, label in self.fields["ruleset"].choices)))
        self.fields["ruleset"].widget.attrs["data-ruleset-select"] = ""

    def field_groups(self) -> list[tuple]:
        """The visible fields, each with the key of the rule set it belongs to ("" for everyone's)."""
        return [(field, self.ruleset_of.get(field.name, "")) for field in self.visible_fields()]

    def chosen_ruleset(self) -> str:
        """The rule set the form is for: the submitted one when it is known, else the default."""
        raw = self.data.get(self.add_prefix("ruleset")) if self.is_bound else self.initial.get("ruleset")
        return raw if raw in registry.keys() else registry.default_key()

    def full_clean(self):
        """Another rule set's fields are not this game's: their input is ignored, never refused."""
        super().full_clean()
        if not self.is_bound or self._errors is None:
            return
        chosen = self.chosen_ruleset()
        for name, key in self.ruleset_of.items():
            if key != chosen:
                self._errors.pop(name, None)
                getattr(self, "cleaned_data", {}).pop(name, None)

    def clean_roles(self) -> str:
        return self.cleaned_data.get("roles") or ""

    def options_of(self) -> dict:
        """The new game's options from the chosen rule set's fields (SiteRuleset.options_from)."""
        return registry.site(self.cleaned_data["ruleset"]).options_from(self.cleaned_data)

    def clean(self):
        cleaned = super().clean()
        ruleset = get_ruleset(cleaned.get("ruleset") or registry.default_key())
        size, raw = cleaned.get("size"), cleaned.get("roles") or ""
        # A table the GM writes may be smaller than the automatic one: the rule set's
        # min_players_own_table, any size where the game is not over at the start (forum: 2).
        own_min = min(getattr(ruleset, "min_players_own_table", ruleset.min_players), ruleset.min_players)
        lowest = own_min if raw.strip() else ruleset.min_players
        if size is not None and not (lowest <= size <= ruleset.max_players):
            if not raw.strip() and own_min <= size < ruleset.min_players:
                self.add_error("size", _("The automatic role table is for %(min)d to %(max)d players; for a smaller "
                                         "game write the role table yourself.")
                               % {"min": ruleset.min_players, "max": ruleset.max_players})
            else:
                self.add_error("size", _("This rule set is played by %(min)d to %(max)d players.")
                               % {"min": lowest, "max": ruleset.max_players})
        adapter = registry.site(ruleset.key)
        # The chosen rule set's fields taken together (the Show: its amounts agree with each other).
        for name, message in adapter.option_errors(cleaned).items():
            if name is None or (name in self.fields and name not in self.errors):
                self.add_error(name, message)
        if cleaned.get("automatic") and not adapter.auto_host:
            self.add_error("automatic", adapter.auto_host_refusal)
        table = parse_role_table(raw, _role_names(ruleset.key))
        cleaned["roles"] = list(table.roles)
        if table.unknown:
            self.add_error("roles", _("Unknown roles: %(roles)s. The roles of this rule set: %(known)s.") % {
                "roles": ", ".join(f"«{item}»" for item in table.unknown),
                "known": ", ".join(role_label(ruleset.key, role) for role in _role_table_roles(ruleset.key))})
        elif table.roles and size is not None and len(table.roles) != size:
            self.add_error("roles", _("The role list has %(roles)d roles for %(players)d players.")
                           % {"roles": len(table.roles), "players": size})
        elif table.roles and callable(getattr(ruleset, "validate_roles", None)):
            try:  # the rule set's own judgement: e.g. a game over before it starts
                ruleset.validate_roles(list(table.roles))
            except ValueError as error:
                self.add_error("roles", _("These roles make no game of this rule set: %(why)s.") % {"why": error})
        return cleaned


def _role_table_roles(ruleset_key: str) -> list[str]:
    return list(get_ruleset(ruleset_key).roles)


def _role_names(ruleset_key: str) -> RoleNames:
    """The names a GM may type for each role of the rule set: its key, its label in each of the
    site's languages, the rule set's own synonyms (games.text.roletable reads any form of them)."""
    ruleset = get_ruleset(ruleset_key)
    synonyms = getattr(ruleset, "role_synonyms", {})
    names = {}
    for role in ruleset.roles:
        labels = []
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                labels.append(role_label(ruleset_key, role))
        names[role] = [*labels, *synonyms.get(role, ())]
    return role_names(names)


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
    night_silence = forms.BooleanField(label=_("Night silence: the players in play do not post in the game thread "
                                               "at night"), required=False)
