"""The show's fields of the new-game form (SiteRuleset.option_fields) and the game's options they
make (docs/rulesets/show.md, "The site": options). Field names start with `show_`: they are unique
across rule sets."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.rulesets.show.engine.privilege_keys import PRIVILEGES
from games.rulesets.show.engine.stages import (
    COIN_OPTIONS,
    DOOMSDAY_MAX_HOURS,
    OPTION_DEFAULTS,
    STAGE_KINDS,
    clean_tasks,
    options_with_defaults,
)
from games.rulesets.show.engine.trial_tasks import TASK_MAX_LENGTH, TASKS_MAX
from games.rulesets.show.wording import PRIVILEGE_NAMES

# The site's own options of a show, kept in Game.options beside the engine's; the engine gets only
# its own (ShowSite.engine_options).
SITE_OPTIONS = ("demon", "text_posts")
MINUTE_LABELS = {
    "greetings": _("Greetings, minutes (show)"),
    "day": _("Day vote, minutes (show)"),
    "defence": _("Defence speeches, minutes (show)"),
    "revote": _("Re-vote, minutes (show)"),
    "judge": _("Judge's decision, minutes (show)"),
    "night": _("Night choice, minutes (show)"),
    "allies": _("Choice of an ally, minutes (show)"),
}
TIMER_ROW = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")
# Part 2's amounts the GM sets (stages.COIN_OPTIONS; issue 28, item 18): each a whole number of ㉿ (a
# count of messages for `free_messages`), at most AMOUNT_MAX: no single fee, burden or stake above
# what a newcomer brings («При регистрации нового пользователя для него в системе создаётся 1000㉿»).
AMOUNT_MAX = 1000
AMOUNT_LABELS = {
    "entry_fee": _("Entry fee to the bank, ㉿ (show)"),
    "stage_fee_min": _("Stage fee for acting at once, ㉿ (show)"),
    "stage_fee_max": _("Stage fee for acting at the timer's end, ㉿ (show)"),
    "coma_fee": _("Coma fee per stage, ㉿ (show)"),
    "burden_public": _("A public slave's burden to the bank, ㉿ (show)"),
    "burden_reptiloids": _("A burden to the Reptiloids, ㉿ (show)"),
    "burden_demon": _("A burden to the Demon, ㉿ (show)"),
    "free_messages": _("Free messages per stage in the game thread (show)"),
    "message_fee": _("Fee for each message past them, ㉿ (show)"),
    "anonymous_fee": _("Fee for an anonymous message, ㉿ (show)"),
    "observer_fee": _("An observer's fee per message, ㉿ (show)"),
    "base_stake": _("Base stake on the winner, ㉿ (show)"),
    "pass_fee": _("Fee for a trial answer left without a grant, ㉿ (show)"),
}
GRANTS_MAX = 5  # «один из трёх грантов»: three by default; a GM may offer up to five amounts


def parse_timer_table(text: str) -> list[list[int]]:
    """«8:100, 5:75, 0:50» -> [[8, 100], [5, 75], [0, 50]]: from N free heroes, the percent."""
    rows = []
    for part in (text or "").split(","):
        if not part.strip():
            continue
        match = TIMER_ROW.match(part)
        if match is None:
            raise ValidationError(_("Write the timer table as «free heroes:percent», separated by commas."))
        rows.append([int(match.group(1)), int(match.group(2))])
    if not rows or any(p < 1 or p > 1000 for _n, p in rows):
        raise ValidationError(_("Write the timer table as «free heroes:percent», separated by commas."))
    return sorted(rows, key=lambda r: -r[0])


def _timer_default() -> str:
    return ", ".join(f"{n}:{p}" for n, p in OPTION_DEFAULTS["timer_table"])


def parse_grants(text: str) -> list[int]:
    """«10, 15, 25» -> [10, 15, 25]: the grants a hero may give a trial answer, each a whole number
    of ㉿ from 1 to AMOUNT_MAX, at most GRANTS_MAX different ones."""
    parts = [p.strip() for p in (text or "").split(",") if p.strip()]
    if not parts or any(not p.isdigit() for p in parts):
        raise ValidationError(_("Write the grants as whole numbers of ㉿ separated by commas, e.g. «10, 15, 25»."))
    amounts = sorted({int(p) for p in parts})
    if any(a < 1 or a > AMOUNT_MAX for a in amounts):
        raise ValidationError(_("Each grant is from 1 to %(max)d ㉿.") % {"max": AMOUNT_MAX})
    if len(amounts) > GRANTS_MAX:
        raise ValidationError(_("At most %(n)d different grants.") % {"n": GRANTS_MAX})
    return amounts


def _grants_default() -> str:
    return ", ".join(str(g) for g in OPTION_DEFAULTS["grants"])


class _TextOption(forms.CharField):
    """A text field whose `parse` refuses a bad value at the form's check (a translated error and
    nothing saved), instead of falling back to the default later."""

    def __init__(self, *, parse, **kwargs):
        self.parse = parse
        super().__init__(**kwargs)

    def validate(self, value):
        super().validate(value)
        if value not in self.empty_values:
            self.parse(value)


class TaskListField(forms.CharField):
    """The slaves' trial tasks, one a line (issue 28, item 6): a list of texts; blank keeps the default
    list (the GM gives a task himself, or empties the tasks to come, on his card while the show runs)."""

    widget = forms.Textarea(attrs={"rows": 6})

    def clean(self, value):
        text = super().clean(value)
        if not (text or "").strip():
            return None
        try:
            return clean_tasks(text.splitlines())
        except ValueError:
            raise ValidationError(_("Each task is one line of at most %(length)d characters; at most %(count)d tasks.")
                                  % {"length": TASK_MAX_LENGTH, "count": TASKS_MAX}) from None


def option_fields() -> dict[str, forms.Field]:
    fields: dict[str, forms.Field] = {
        "show_no_demon": forms.BooleanField(
            label=_("Without the Demon (show)"), required=False,
            help_text=_("The show: a big show is 10 heroes (6 Masons, the Saviour, 2 Reptiloids, the Demon); "
                        "a test show of 4-9 heroes is dealt by the same rule, here without the Demon.")),
        "show_media_only": forms.BooleanField(
            label=_("Media posts only (show)"), required=False,
            help_text=_("The show: unticked, a hero's first post in the game thread in a stage counts as his "
                        "greeting, defence speech or requested opinion.")),
        "show_timer_table": _TextOption(
            parse=parse_timer_table, label=_("Timer table (show)"), required=False, initial=_timer_default(),
            max_length=200,
            help_text=_("From how many free heroes which percent of the stage minutes: «8:100, 5:75, 0:50».")),
    }
    for kind in STAGE_KINDS:
        fields[f"show_minutes_{kind}"] = forms.IntegerField(
            label=MINUTE_LABELS[kind], required=False, min_value=1, max_value=14 * 24 * 60,
            initial=OPTION_DEFAULTS["stage_minutes"][kind])
    fields["show_save_once"] = forms.ChoiceField(
        label=_("The Saviour's once-per-show save (show)"), required=False, initial="self",
        choices=[("self", _("only saving himself is once per show")), ("each", _("every hero is saved once"))])
    fields["show_reptiloid_disagree"] = forms.ChoiceField(
        label=_("Reptiloids who name different victims (show)"), required=False, initial="nobody",
        choices=[("nobody", _("take nobody")), ("lot", _("one of the two by lot"))])
    fields["show_single_majority"] = forms.ChoiceField(
        label=_("A single defendant's majority (show)"), required=False, initial="cast",
        choices=[("cast", _("of the ballots cast")), ("voters", _("of everyone who may vote"))])
    fields["show_knowledge_lots"] = forms.ChoiceField(
        label=_("Secret Knowledge lots (show)"), required=False, initial="day",
        choices=[("day", _("one a day, at the day vote")),
                 ("day_stages", _("at every main day stage: the vote, the defence, the re-vote, the judge"))])
    fields["show_judge_from"] = forms.ChoiceField(
        label=_("Who may be drawn judge (show)"), required=False, initial="free",
        choices=[("free", _("the free heroes not in coma")), ("all", _("every hero not in coma, slaves too"))])
    fields["show_judge"] = forms.ChoiceField(
        label=_("Who learns the new judge (show)"), required=False, initial="auto",
        choices=[("auto", _("everyone, but only the judge and the GM when the Genius is in play")),
                 ("public", _("everyone")), ("private", _("only the judge himself and the GM"))])
    # Part 2's amounts (A17: «the seed gives no amounts except the base stake, the grants and the
    # pass fee; ours are defaults», each the GM's to change).
    for name in COIN_OPTIONS:
        fields[f"show_{name}"] = forms.IntegerField(
            label=AMOUNT_LABELS[name], required=False, initial=OPTION_DEFAULTS[name],
            min_value=1 if name == "base_stake" else 0, max_value=AMOUNT_MAX)
    fields["show_grants"] = _TextOption(
        parse=parse_grants, label=_("Grants a hero may give a trial answer, ㉿ (show)"), required=False,
        initial=_grants_default(), max_length=100,
        help_text=_("Whole amounts separated by commas: «10, 15, 25»."))
    # Part 3: «распределение доступных для этого Шоу Привилегий» and «КАРУСЕЛЬ ПРИВИЛЕГИЙ».
    fields["show_privileges"] = forms.MultipleChoiceField(
        label=_("Privileges in play (show)"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=[(p, PRIVILEGE_NAMES[p]) for p in PRIVILEGES],
        help_text=_("Dealt at random among the heroes at the start, each known only to its holder."))
    # issue 28, item 6: «Каждое утро раб получает общее для всех рабов задание на этот день»
    fields["show_trial_tasks"] = TaskListField(
        label=_("The slaves' trial tasks (show)"), required=False, initial="\n".join(OPTION_DEFAULTS["trial_tasks"]),
        max_length=TASKS_MAX * (TASK_MAX_LENGTH + 2),
        help_text=_("One task a line, each answered by one photo, video or sticker: each morning that opens a "
                    "trial takes the next. While the show runs you change the day's task and the tasks to come "
                    "on your dashboard."))
    # issue 28, item 7: «а затем наступает заключительный этап: Судный День»
    fields["show_doomsday_hours"] = forms.IntegerField(
        label=_("Judgment Day, hours (show)"), required=False, min_value=0, max_value=DOOMSDAY_MAX_HOURS,
        initial=OPTION_DEFAULTS["doomsday_hours"],
        help_text=_("The last stage after the win and the results: every secret open, the heroes' last words in "
                    "the game thread; then the thread closes. 0: none."))
    fields["show_carousel"] = forms.BooleanField(
        label=_("The privileges' carousel (show)"), required=False,
        help_text=_("After his day vote each hero may try to steal a random privilege; needs privileges in play."))
    return fields


def options_from(cleaned: dict) -> dict:
    """The show's options: the engine's (stage_minutes, timer_table and the decided readings) and
    the site's (`demon`, `text_posts`)."""
    minutes = {kind: int(cleaned[f"show_minutes_{kind}"]) for kind in STAGE_KINDS
               if cleaned.get(f"show_minutes_{kind}")}
    try:
        table = parse_timer_table(cleaned.get("show_timer_table") or _timer_default())
    except ValidationError:
        table = [list(r) for r in OPTION_DEFAULTS["timer_table"]]
    amounts = {name: int(cleaned[f"show_{name}"]) for name in COIN_OPTIONS
               if cleaned.get(f"show_{name}") is not None}
    if cleaned.get("show_grants"):
        amounts["grants"] = parse_grants(cleaned["show_grants"])
    return {
        **amounts,
        "demon": not cleaned.get("show_no_demon"),
        "text_posts": not cleaned.get("show_media_only"),
        "stage_minutes": minutes,
        "timer_table": table,
        "save_once": cleaned.get("show_save_once") or "self",
        "reptiloid_disagree": cleaned.get("show_reptiloid_disagree") or "nobody",
        "single_majority": cleaned.get("show_single_majority") or "cast",
        "knowledge_lots": cleaned.get("show_knowledge_lots") or "day",
        "judge_from": cleaned.get("show_judge_from") or "free",
        "judge_public": {"public": True, "private": False}.get(cleaned.get("show_judge") or "auto", "auto"),
        "privileges": [p for p in PRIVILEGES if p in (cleaned.get("show_privileges") or ())],
        # the carousel needs privileges in play (the engine refuses it otherwise): off without them
        "carousel": bool(cleaned.get("show_carousel")) and bool(cleaned.get("show_privileges")),
        # issue 28: the trial tasks (blank: the default list) and Судный День's hours (blank: 24)
        "trial_tasks": cleaned.get("show_trial_tasks") or list(OPTION_DEFAULTS["trial_tasks"]),
        "doomsday_hours": cleaned["show_doomsday_hours"] if cleaned.get("show_doomsday_hours") is not None
        else OPTION_DEFAULTS["doomsday_hours"],
    }


def option_errors(cleaned: dict) -> dict:
    """The amounts taken together (each field checked its own range before): the least stage fee
    is not above the greatest; and the engine's own check of the options, last (a message for the
    form as a whole; nothing is saved)."""
    errors: dict = {}
    low = cleaned.get("show_stage_fee_min")
    high = cleaned.get("show_stage_fee_max")
    low = OPTION_DEFAULTS["stage_fee_min"] if low is None else low
    high = OPTION_DEFAULTS["stage_fee_max"] if high is None else high
    if low > high:
        errors["show_stage_fee_max"] = _("The fee at the timer's end may not be below the fee for acting at once "
                                         "(%(low)d ㉿).") % {"low": low}
        return errors
    try:
        options = options_from(cleaned)
        options_with_defaults({k: v for k, v in options.items() if k in OPTION_DEFAULTS})
    except (ValidationError, ValueError, TypeError):
        errors[None] = _("These options of the show do not fit together; check the amounts.")
    return errors
