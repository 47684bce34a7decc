"""The show's fields of the new-game form (SiteRuleset.option_fields) and the game's options they
make (docs/rulesets/show.md, "The site": options). Field names start with `show_`: they are unique
across rule sets."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.rulesets.show.engine.privilege_keys import PRIVILEGES
from games.rulesets.show.engine.stages import DOOMSDAY_MAX_HOURS, OPTION_DEFAULTS, STAGE_KINDS, clean_tasks
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
        "show_timer_table": forms.CharField(
            label=_("Timer table (show)"), required=False, initial=_timer_default(), max_length=200,
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
    return {
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
