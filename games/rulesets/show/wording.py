"""The show's words (seed 000, «Шоу»): its heroes and teams, its stages, every reason code of its
engine, its actions and the texts of every event kind it emits (docs/rulesets/show.md, "Events").
Imports Django's translation and games.wording only (docs/architecture.md, "Wording")."""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.rulesets.show.privileges.wording import SITE_PRIVILEGE_REASONS, site_event_text
from games.wording import RulesetWording, agreed, gender_of, name_case, names_joined

ROLE_NAMES = {
    "mason": gettext_lazy("Mason"),
    "saviour": gettext_lazy("Saviour"),
    "reptiloid": gettext_lazy("Reptiloid"),
    "demon": gettext_lazy("Demon"),
}
FACTION_NAMES = {
    "masons": gettext_lazy("the Masons"),
    "reptiloids": gettext_lazy("the Reptiloids"),
    "demon": gettext_lazy("the Demon"),
    "none": gettext_lazy("nobody (a draw)"),
}
# A key says what a hero is NOT.
KEY_NAMES = {
    "not_mason": gettext_lazy("not a Mason"),
    "not_saviour": gettext_lazy("not the Saviour"),
    "not_reptiloid": gettext_lazy("not a Reptiloid"),
    "not_demon": gettext_lazy("not the Demon"),
}
# One name per stage, everywhere (issue 28, item 14): the panel, the thread, the status, the ledger,
# the results and the core's phase label (site.ShowSite.phase_label) all ask stage_label. The
# re-vote is the seed's «Повторное Голосование» (the club's «Переголосование» is another msgid).
STAGE_NAMES = {
    "greetings": gettext_lazy("Greetings"),
    "day": gettext_lazy("Day vote"),
    "defence": gettext_lazy("Defence speeches"),
    "revote": pgettext_lazy("show stage", "Re-vote"),
    "judge": gettext_lazy("Judge's decision"),
    "night": gettext_lazy("Night choice"),
    "allies": gettext_lazy("Choice of an ally"),
    # issue 28, item 7: the last stage, after the end (the site's epilogue phase)
    "doomsday": gettext_lazy("Judgment Day"),
}
OWNER_NAMES = {
    "public": gettext_lazy("a public slave"),
    "reptiloids": gettext_lazy("a slave of the Reptiloids"),
    "demon": gettext_lazy("a slave of the Demon"),
}
# Part 3: the privileges («Привилегии», docs/glossary.md)
PRIVILEGE_NAMES = {
    "snakelet": gettext_lazy("Snakelet"),
    "bouncer": gettext_lazy("Bouncer"),
    "secretary": gettext_lazy("Secretary"),
    "bingo": gettext_lazy("Bingo"),
    "talker": gettext_lazy("Talker"),
    "hare": gettext_lazy("Hare"),
    "hacker": gettext_lazy("Hacker"),
    "genius": gettext_lazy("Genius"),
    "authority": gettext_lazy("Authority"),
    "lawyer": gettext_lazy("Lawyer"),
    "mole": gettext_lazy("Mole"),
}
SLEEP_NAMES = {"asleep": gettext_lazy("Asleep"), "coma": gettext_lazy("In coma")}
POST_KINDS = {
    "greeting": gettext_lazy("greeting"),
    "defence": gettext_lazy("defence speech"),
    "opinion": gettext_lazy("opinion"),
}

REASONS = {
    # games.rulesets.show.engine.ruleset.REASONS
    "game_over": gettext_lazy("the show is over"),
    "not_a_player": gettext_lazy("you are not a hero of this show"),
    "not_free": gettext_lazy("a slave makes no free hero's choices"),
    "not_your_action": gettext_lazy("you have no such action in this stage"),
    "missing_target": gettext_lazy("choose a hero"),
    "bad_target": gettext_lazy("that hero cannot be chosen for this"),
    "target_not_free": gettext_lazy("the hero must be free"),
    "target_not_slave": gettext_lazy("the hero must be a slave"),
    "self_forbidden": gettext_lazy("you may not choose yourself for this"),
    "self_save_used": gettext_lazy("the Saviour has already saved himself once"),
    "saved_before": gettext_lazy("this hero has already been saved once"),
    "relieved_before": gettext_lazy("this slave has been relieved already"),
    "not_on_bench": gettext_lazy("the judge decides only about the defendants"),
    "spare_not_allowed": gettext_lazy("with several defendants the judge must enslave one of them"),
    "bad_detail": gettext_lazy("you may not add that to your choice now"),
    "question_not_possible": gettext_lazy("the judge questions one of two or more unrevealed slaves"),
    "revealed": gettext_lazy("this hero's role is revealed already"),
    "key_used": gettext_lazy("the Saviour's public key is once per show"),
    "no_right": gettext_lazy("you hold no Secret Knowledge to use"),
    "no_key_left": gettext_lazy("there is no key left to learn about this hero"),
    "extra_knowledge_had": gettext_lazy("in a show with privileges the extra Secret Knowledge is at most one about each hero"),
    # part 3, the privileges
    "hacker": gettext_lazy("the Hacker gets no Secret Knowledge the ordinary way"),
    "stun_used": gettext_lazy("this hero has been stunned once already"),
    "stunned_tonight": gettext_lazy("you have stunned a hero this night already"),
    "excluded_before": gettext_lazy("this hero has been excluded once already"),
    "authority_off": gettext_lazy("the extra vote works only while more than five heroes are free"),
    "bad_guess": gettext_lazy("name the Secret Knowledge's number and who received it or whom it is about"),
    "no_open_knowledge": gettext_lazy("there is no such Secret Knowledge to intercept now"),
    "guessed_before": gettext_lazy("you have guessed this Secret Knowledge already"),
    "mole_used": gettext_lazy("the Mole buries one hero a stage"),
    "in_coma_already": gettext_lazy("this hero is in a coma already"),
    "fake_limit": gettext_lazy("at most five messages a stage under a false name"),
    # the site's own (games.rulesets.show.services)
    "not_running": gettext_lazy("the show is not running"),
    "no_stage": gettext_lazy("no stage is going on"),
    "bad_ballot": gettext_lazy("the ballot is «To slavery» or «Spare»"),
    "text_posts_off": gettext_lazy("in this show a text post does not stand in for a media post"),
    "in_coma": gettext_lazy("a hero in coma cannot be lulled again"),
    "pov": gettext_lazy("you are looking at someone else's page"),
    # part 2 on the site (games.rulesets.show.coins.services)
    "already_raised": gettext_lazy("you have raised the stakes in this stage already"),
    "already_answered": gettext_lazy("you have answered this trial already: one answer per slave"),
    "bad_grant": gettext_lazy("a grant is one of the show's amounts"),
    # issue 28, item 4
    "nothing_open": gettext_lazy("nothing optional is left for you in this stage"),
    # issue 28, item 6: the GM's task of the slaves' trial
    "no_trial": gettext_lazy("no slaves' trial is running now"),
    "trial_answered": gettext_lazy("a slave has answered this trial already: its task no longer changes"),
    "task_empty": gettext_lazy("write the task"),
    "task_too_long": gettext_lazy("the task is too long: at most 500 characters"),
    "tasks_bad": gettext_lazy("each task is one line of at most 500 characters, and there are at most 100 of them"),
}
VOTE_REASONS = {
    "not_a_voter": gettext_lazy("you may not vote now"),
    "self_vote_forbidden": gettext_lazy("nobody votes against himself"),
    "peace_not_allowed": gettext_lazy("there is no vote for peace"),
}
ACTION_LABELS = {
    "suspect": gettext_lazy("suspect"),
    "save": gettext_lazy("save"),
    "relieve": gettext_lazy("relieve a slave"),
    "enslave": gettext_lazy("enslave"),
    "spare": gettext_lazy("spare"),
    "vote": gettext_lazy("vote"),
    "request_opinion": gettext_lazy("request an opinion"),
    "use_knowledge": gettext_lazy("use Secret Knowledge"),
    "pick_ally": gettext_lazy("choose an ally"),
    "lull": gettext_lazy("lull"),
    "post": gettext_lazy("media post"),
    "greeting": gettext_lazy("greeting"),
    "defence": gettext_lazy("defence speech"),
    "opinion": gettext_lazy("opinion"),
    "bet": gettext_lazy("bet on a winner"),
    "raise": gettext_lazy("raise the stakes"),
    "sympathy": gettext_lazy("sympathy"),
    "trial_answer": gettext_lazy("trial answer"),
    "grant": gettext_lazy("grant"),
    "grant_pass": gettext_lazy("no grants (pay the base fee)"),
    "message_fee": gettext_lazy("message fee"),
    "wake": gettext_lazy("woke up"),
    # part 3, the privileges
    "stun": gettext_lazy("stun"),
    "exclude": gettext_lazy("exclude from the vote"),
    "extra_vote": gettext_lazy("extra vote"),
    "intercept": gettext_lazy("intercept Secret Knowledge"),
    "mole_coma": gettext_lazy("bury (/mole)"),
    "steal": gettext_lazy("steal a privilege"),
    "fake": gettext_lazy("post under a false name (/fake)"),
    # issue 28: what holds a stage open, and «Я всё»
    "done": gettext_lazy("done for this stage"),
}

# The ratings table's rows (games.rulesets.show.engine.ratings.TABLE), as «История Шоу» tells them:
# noun phrases, so that they agree with no hero's gender (issue 28, item 14).
RATING_REASONS = {
    "good_votes_bad": gettext_lazy("a day vote against a Reptiloid or the Demon"),
    "mason_suspects_bad": gettext_lazy("a night suspicion of a Reptiloid or the Demon"),
    "mason_votes_saviour": gettext_lazy("a Mason's day vote against the Saviour"),
    "good_judge_enslaves_bad": gettext_lazy("the judge's verdict: a Reptiloid or the Demon into slavery"),
    "mason_judge_enslaves_saviour": gettext_lazy("a Mason judge's verdict: the Saviour into slavery"),
    "bad_votes_enemy": gettext_lazy("a day vote against an enemy team's hero"),
    "reptiloid_votes_partner": gettext_lazy("a Reptiloid's day vote against his partner"),
    "bad_judge_enslaves_enemy": gettext_lazy("the judge's verdict: an enemy into slavery"),
    "reptiloid_judge_enslaves_partner": gettext_lazy("a Reptiloid judge's verdict: his partner into slavery"),
    "bad_takes_enemy": gettext_lazy("a night's capture of an enemy"),
    "saviour_saves": gettext_lazy("the Saviour's save that stopped an attack"),
    "ally_gain": gettext_lazy("the ally's gain, shared"),
}

# The extras of a night choice.
DETAIL_LABELS = {
    "question": gettext_lazy("questions the slave"),
    "public_key": gettext_lazy("a public key about"),
    "extra_knowledge": gettext_lazy("extra Secret Knowledge about"),
}


def _name(data: dict, key: str = "name") -> str:
    value = data.get(key)
    if isinstance(value, dict):
        value = value.get("name")
    return str(value or "—")


def _name_of(item) -> str:
    return str(item.get("name") if isinstance(item, dict) else item)


def _names(items) -> str:
    """Heroes joined the Russian way («Вася, Петя и Маша»), «—» for none."""
    return names_joined([_name_of(item) for item in items or ()])


def privilege_names(items) -> str:
    return ", ".join(str(PRIVILEGE_NAMES.get(p, p)) for p in items or ()) or "—"


def key_label(key: str) -> str:
    return str(KEY_NAMES.get(key, key))


def role_name(role: str | None) -> str:
    return str(ROLE_NAMES.get(role or "", role or "—"))


def owners_text(owners) -> str:
    return ", ".join(str(OWNER_NAMES.get(o, o)) for o in owners or ()) or "—"


def standing_text(*, free: bool, owners=(), relieved: bool = False) -> str:
    """A hero's freedom on the status page: «на свободе», «раб Рептилоидов, без Бремени»
    (not «Свобода: свободная», issue 28, item 14)."""
    if free:
        return pgettext("show hero", "free")
    text = owners_text(owners) if owners else _("a slave")
    return _("%(slave)s, relieved of the burden") % {"slave": text} if relieved else text


def stage_name(kind: str, number: int | str | None = None) -> str:
    """«Дневное голосование 2», «Приветствия» (the greetings are the one stage without a number)."""
    label = str(STAGE_NAMES.get(kind, kind))
    return f"{label} {number}" if number not in (None, "", 0, "0") else label


def stage_label(phase: str) -> str:
    """«Дневное голосование 2» from the engine's "day 2" (a ledger line's stage, a rating change's)."""
    kind, _sep, number = (phase or "").partition(" ")
    return stage_name(kind, number)


# The re-vote's two ballots with one defendant, as the buttons say them: «В рабство» / «Пощадить».
BALLOT_LABELS = {
    "enslave": gettext_lazy("To slavery"),
    "spare": gettext_lazy("Spare"),
}


def ballot_label(word) -> str:
    """A re-vote ballot word (or a hero's name, as it is) as the panel's buttons say it."""
    return str(BALLOT_LABELS.get(word, word if word is not None else "—"))


def percent_text(value) -> str:
    """A rating's share in the reader's number format, the same in the thread and on the results
    page (issue 28, item 14): «18,05 %», «0 %»; «—» for none."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "—"
    value = round(float(value), 2)
    shown = number_format(int(value)) if value.is_integer() else number_format(value, decimal_pos=2)
    return f"{shown}\u00a0%"


def signed_coins(amount) -> str:
    """«+142 ㉿», «−63 ㉿» (a true minus sign)."""
    return f"{int(amount):+d}".replace("-", "\u2212") + "\u00a0㉿"


def duration_text(seconds) -> str:
    """What is left of a stage, as a duration: «2 д 4 ч», «3 ч 20 мин», «45 мин», «меньше минуты»."""
    left = max(0, int(seconds or 0))
    days, hours, minutes = left // 86400, left % 86400 // 3600, left % 3600 // 60
    if days:
        parts = [_("%(n)s d") % {"n": days}] + ([_("%(n)s h") % {"n": hours}] if hours else [])
    elif hours:
        parts = [_("%(n)s h") % {"n": hours}] + ([_("%(n)s min") % {"n": minutes}] if minutes else [])
    elif minutes:
        parts = [_("%(n)s min") % {"n": minutes}]
    else:
        return _("less than a minute")
    return " ".join(parts)


def duration_units() -> str:
    """duration_text's words for the page's script, which counts the time down the same way:
    «%(n)s д|%(n)s ч|%(n)s мин|меньше минуты»."""
    return "|".join((_("%(n)s d"), _("%(n)s h"), _("%(n)s min"), _("less than a minute")))


def time_left(deadline, now) -> dict[str, Any] | None:
    """A running stage's timer for its pages: what is left as a duration, the deadline apart (a
    date is not a duration: not «Осталось: 28 ноября, 05:07», issue 28, item 14)."""
    if deadline is None:
        return None
    return {"text": duration_text((deadline - now).total_seconds()), "deadline": deadline, "units": duration_units()}


def role_line(role: str | None, faction: str | None) -> str:
    """A hero's role with his team, said once (issue 28, item 14: not «Демон (Демон)»): «Масон,
    команда: Масоны»; the Demon is his own team; an unknown role (the Крот's own) is
    UNKNOWN_ROLE_LINE."""
    if not role:
        return str(UNKNOWN_ROLE_LINE)
    name = role_name(role)
    team = str(FACTION_NAMES.get(faction or "", "")) if faction else ""
    if not team or team.casefold() == name.casefold():
        return name
    return _("%(role)s, team: %(team)s") % {"role": name, "team": team}


# The Крот's own role while the show runs («Крот не знает свою Роль»), after «Роль:».
UNKNOWN_ROLE_LINE = gettext_lazy("unknown to you, to be found out during the show")


def you_are_text(role: str | None, faction: str | None) -> str:
    """The hero's own sentence on his panel: «Вы — Масон, команда: Масоны.»; the Крот's, who does
    not know his role, is a sentence of its own (not «Вы — Неизвестна: …»)."""
    if not role:
        return _("You do not know your role: find it out during the show.")
    return _("You are %(role)s.") % {"role": role_line(role, faction)}


# --- The show's coins in words: every reason code of a ledger line (issue 28, item 13) ----------------
# The engine's transfer reasons (engine.coins.TRANSFER_REASONS) and the site's own (services'
# OBSERVER_FEE), each in words from either side: one text, or (the side the coins leave, the side
# they reach). A line's detail is worded inside its text (ledger_text): an owner code, a hero's name.
LEDGER_WORDS = {
    "entry_fee": gettext_lazy("Initial fee to the show's bank"),
    "stage_fee": gettext_lazy("Stage fee to the show's bank"),
    "coma_fee": gettext_lazy("Coma fee to the show's bank"),
    "message_fee": gettext_lazy("Fee for a message over the free limit"),
    "anonymous_fee": gettext_lazy("Fee for an anonymous message"),
    "observer_fee": gettext_lazy("An observer's fee for a message in the show"),
    "trial_pass": gettext_lazy("Base fee for skipping the slaves' answers"),
    "grant": gettext_lazy("Grant to a slave's answer"),
    "grant_share": gettext_lazy("Share of the grants (a Talent's sponsor)"),
    "burden": (gettext_lazy("Burden paid"), gettext_lazy("Burden received")),
    "demon_burdens": gettext_lazy("The burdens of the Demon's slaves, held until the end"),
    "mole_burdens": gettext_lazy("Burdens held for you while you did not know your role"),
    "demon_return": gettext_lazy("Burden returned: the Demon was revealed"),
    "bet": (gettext_lazy("Base bet to the winners' pot"), gettext_lazy("Bet")),
    "bet_raise": gettext_lazy("Bet raised by a Talent"),
    "pot_share": gettext_lazy("Share of the winners' pot"),
    "pot_even": gettext_lazy("Share of the winners' pot, split evenly: nobody picked a winner"),
    "stake_returned": gettext_lazy("Bet returned: there are no winners"),
    "bank_share": gettext_lazy("Share of the show's bank"),
    "bingo": (gettext_lazy("Bingo: the loss doubled"), gettext_lazy("Bingo: the share doubled")),
    "ally_split": (gettext_lazy("Split with the ally: paid to the ally"),
                   gettext_lazy("Split with the ally: received from the ally")),
}
# The reasons the site posts itself besides the engine's transfers (services.OBSERVER_FEE; a paid
# or anonymous message's line is the engine's «message_fee»).
SITE_LEDGER_REASONS = frozenset({"observer_fee"})
# Whom a burden goes to (engine.economy: the line's detail is the slave's owner).
BURDEN_PAID_TO = {
    "public": gettext_lazy("Burden paid to the bank (a public slave)"),
    "reptiloids": gettext_lazy("Burden paid to the Reptiloids"),
    "demon": gettext_lazy("Burden paid to the Demon (held until the end)"),
}
BURDEN_FROM = {
    "reptiloids": gettext_lazy("Burden from a slave of the Reptiloids"),
    "demon": gettext_lazy("Burden from a slave of the Demon"),
}
# The sources of a hero's coins on the results page (item 23), each reason in one of them.
LEDGER_SOURCES = {
    "fees": ("entry_fee", "stage_fee", "coma_fee", "message_fee", "anonymous_fee", "observer_fee", "trial_pass"),
    "burdens": ("burden", "demon_burdens", "mole_burdens", "demon_return"),
    "bets": ("bet", "bet_raise", "pot_share", "pot_even", "stake_returned"),
    "bank": ("bank_share", "bingo"),
    "alliances": ("ally_split",),
    "grants": ("grant", "grant_share"),
}
SOURCE_NAMES = {
    "fees": gettext_lazy("Fees"),
    "burdens": gettext_lazy("Burdens"),
    "bets": gettext_lazy("Bets and the pot"),
    "bank": gettext_lazy("Bank"),
    "alliances": gettext_lazy("Alliance"),
    "grants": gettext_lazy("Grants"),
}
SOURCE_OF = {reason: source for source, reasons in LEDGER_SOURCES.items() for reason in reasons}


def ledger_text(reason: str, detail: str = "", *, incoming: bool) -> str:
    """A ledger line of the show in words, its detail inside («Ставка на Зину в Куш Победителей»,
    «Бремя уплачено Рептилоидам»): the one text of the «Баланс» page (coins asks it through
    coins.wording.register_game_words), «Обо мне» and the results. A fee's detail is its stage,
    which the line shows beside it."""
    detail = str(detail or "")
    if reason == "burden":
        table = BURDEN_FROM if incoming else BURDEN_PAID_TO
        if detail in table:
            return str(table[detail])
    if reason == "bet" and detail and not incoming:
        return _("Base bet to the winners' pot, on %(name)s") % {"name": name_case(detail, "accs")}
    if reason == "bet_raise" and detail:
        return _("Bet raised by the Talent %(name)s") % {"name": name_case(detail, "ablt")}
    words = LEDGER_WORDS.get(reason)
    if words is None:
        return _("Other movement of coins")
    return str(words[1] if incoming else words[0]) if isinstance(words, tuple) else str(words)


def ledger_stage_text(stage: str) -> str:
    """A ledger line's stage («night 2») in words; none for a line outside a stage."""
    return stage_label(stage) if stage else ""


class LedgerWords:
    """The show's words for its lines on the coins app's «Баланс» page (coins.wording asks it)."""

    def reason_text(self, reason: str, detail: str, *, incoming: bool) -> str:
        return ledger_text(reason, detail, incoming=incoming)

    def stage_text(self, stage: str) -> str:
        return ledger_stage_text(stage)


LEDGER = LedgerWords()


def number_text(value: float, places: int = 2) -> str:
    """A fractional number as the site writes it: rounded to `places` decimals, trailing zeros
    dropped, the language's decimal mark (ru «0,01», never «0,010000000000000002»)."""
    rounded = round(float(value), places)
    return number_format(int(rounded) if rounded == int(rounded) else rounded)


def chance_text(value: float) -> str:
    """A chance in percent, one decimal at most («12,5 %»); a chance above 0 but below 0.1% is «< 0,1 %»,
    never a rounded «0 %» for a chance that exists (the judge's lot with many suspicions). A rating's
    share is percent_text (two decimals, as the results give it)."""
    if 0 < value < 0.1:
        return _("< %(number)s%%") % {"number": number_text(0.1, 1)}
    return _("%(number)s%%") % {"number": number_text(value, 1)}


def _ballots(ballots: Any) -> str:
    if not isinstance(ballots, dict) or not ballots:
        return "—"
    return "; ".join(f"{voter} → {ballot_label(target)}" for voter, target in ballots.items())


class ShowWording(RulesetWording):
    role_names = ROLE_NAMES
    role_help = {
        "mason": gettext_lazy("Each night name the hero you suspect most: each Mason's suspicion makes that hero ten "
                              "times less likely to be drawn as the next day's judge."),
        "saviour": gettext_lazy("Each night either save a free hero from the night's attack (yourself once per show), "
                                "or relieve a slave of his burden for the rest of the show and reveal his role. Once "
                                "per show you may add a public key about a hero; in the first three nights you may "
                                "take an extra Secret Knowledge."),
        "reptiloid": gettext_lazy("You know your partner. Each night you must agree on one victim to enslave; choosing "
                                  "yourself abstains."),
        "demon": gettext_lazy("You are alone. Each night enslave a victim, or choose yourself to take nobody."),
    }
    faction_names = FACTION_NAMES
    faction_goals = {
        "masons": gettext_lazy("Your team wins when every Reptiloid and the Demon are slaves."),
        "reptiloids": gettext_lazy("Your team wins when the free Reptiloids are at least as many as all the other "
                                   "free heroes together."),
        "demon": gettext_lazy("You win alone when at most one other hero is free besides you, and no Reptiloid."),
    }
    action_labels = ACTION_LABELS
    order_reasons = {**REASONS, **VOTE_REASONS, **SITE_PRIVILEGE_REASONS}
    # issue 28, item 6: the GM's writes of the slaves' tasks, in his log
    gm_action_labels = {
        "trial_task": gettext_lazy("The task of the slaves' trial changed"),
        "trial_tasks": gettext_lazy("The trial tasks to come saved"),
    }

    def gm_log_detail(self, action: str, key: str, value: Any, seat_name) -> tuple[str, str] | None:
        if action in ("trial_task", "trial_tasks"):
            labels = {"day": _("day"), "task": _("the task"), "count": _("tasks to come")}
            if key in labels:
                return str(labels[key]), str(value if value not in (None, "") else "—")
        return None

    def results_heading(self, phase) -> str | None:
        """«Дневное голосование 2: итоги», «Приветствия: итоги» (the stage's one name: not
        «Итоги: приветствия 0»)."""
        return _("[b]%(stage)s: results[/b]") % {"stage": stage_name(phase.kind, phase.number)}

    def event_text(self, kind: str, data: dict) -> str | None:
        d = dict(data or {})
        name = _name(d)
        changed = site_event_text(kind, d)  # part 3's change to part 1's words (privileges/wording.py)
        if changed is not None:
            return changed
        if kind == "game_started":
            return _("The show begins: %(heroes)s.") % {"heroes": _names(d.get("heroes"))}
        if kind == "role":
            return _("You are %(name)s: %(role)s.") % {"name": name, "role": role_name(d.get("role"))}
        if kind == "team":
            return _("The Reptiloids know each other: %(members)s.") % {"members": _names(d.get("members"))}
        if kind == "innate_keys":
            keys = d.get("keys") or {}
            listed = "; ".join(f"{who}: {', '.join(key_label(k) for k in ks)}" for who, ks in keys.items()) or "—"
            return _("Your innate keys: %(keys)s.") % {"keys": listed}
        if kind == "stage":
            return _("The stage begins: %(stage)s.") % {"stage": stage_label(str(d.get("phase") or ""))}
        if kind == "woke":
            return _("%(name)s wakes up from the coma.") % {"name": name}
        if kind == "coma":
            return _("%(name)s missed the stage and falls into a coma.") % {"name": name}
        if kind == "lulled":
            return _("By the majority's will %(name)s is lulled into a coma.") % {"name": name}
        # A list with nobody in it is left out, or said in words, never as «—» (issue 28, item 14).
        if kind == "greetings":
            if not d.get("heroes"):
                return _("Nobody greeted the show.")
            return _("Greeted the show: %(heroes)s.") % {"heroes": _names(d.get("heroes"))}
        if kind == "day_votes":
            if not d.get("ballots"):
                return _("Nobody voted in the day vote.")
            return _("The day vote's ballots: %(ballots)s.") % {"ballots": _ballots(d.get("ballots"))}
        if kind == "bench":
            return _("On the bench: %(heroes)s.") % {"heroes": _names(d.get("heroes"))}
        if kind == "no_bench":
            return _("Nobody was voted for: the bench stays empty.")
        if kind == "opinions":
            if not d.get("requested"):
                return _("Nobody requested an opinion.")
            requested = names_joined([_name_of(i) for i in d.get("requested")], "gent")  # «у Зины и Ильи»
            if not d.get("posted"):
                return _("Opinions requested of %(requested)s; nobody gave one.") % {"requested": requested}
            return _("Opinions requested of %(requested)s; given by: %(posted)s.") % {
                "requested": requested, "posted": _names(d.get("posted"))}
        if kind == "opinions_gm":
            requests = d.get("requests") or {}
            listed = "; ".join(f"{r} → {t}" for r, t in requests.items()) or "—"
            return _("Who asked whose opinion: %(requests)s.") % {"requests": listed}
        if kind == "knowledge_lot":
            return _("The Secret Knowledge lot (among %(n)s heroes) goes to %(name)s.") % {
                "n": d.get("among", "?"), "name": name}
        if kind == "knowledge_won":
            return _("You have won a Secret Knowledge: choose a hero on the game page to learn one of his keys.")
        if kind == "knowledge_received":
            return _("Someone received a Secret Knowledge (%(count)s so far).") % {"count": d.get("count", 1)}
        if kind == "secret_key":
            return _("Secret Knowledge: %(name)s is %(key)s.") % {"name": name, "key": key_label(str(d.get("key")))}
        if kind == "secret_key_gm":
            return _("%(holder)s learned in secret that %(name)s is %(key)s.") % {
                "holder": d.get("holder_name") or "—", "name": name, "key": key_label(str(d.get("key")))}
        if kind == "knowledge_empty":
            return _("Your extra Secret Knowledge about %(name)s found nothing new.") % {"name": name}
        if kind == "judge_removed":
            return _("The judge %(name)s is on the bench and loses his status: everyone free re-votes.") % {
                "name": name}
        if kind == "defence":
            return _("%(name)s gave his defence speech.") % {"name": name}
        if kind == "revote_result":
            ballots = _("The re-vote: %(ballots)s.") % {"ballots": _ballots(d.get("ballots"))} if d.get("ballots") \
                else _("Nobody voted in the re-vote.")
            if not d.get("enslaved"):
                return f"{ballots} {_('Nobody loses the freedom.')}"
            return f"{ballots} {_('Enslaved: %(names)s.') % {'names': _names(d.get('enslaved'))}}"
        if kind == "judge_decision":
            if d.get("enslaved"):
                return _("The judge sends %(name)s into slavery.") % {"name": name_case(_name(d, "enslaved"), "accs")}
            return _("The judge spares %(name)s.") % {"name": name_case(_name(d, "spared"), "accs")}
        if kind == "judge_missed":
            # The close's «coma» line says the judge falls into a coma: this one says what follows.
            return agreed(gender_of(name), _("The judge %(name)s did not decide in time: everyone free re-votes."),
                          pgettext("masculine", "The judge %(name)s did not decide in time: everyone free re-votes."),
                          pgettext("feminine", "The judge %(name)s did not decide in time: everyone free re-votes.")) % {
                "name": name}
        if kind == "enslaved":
            return _("%(name)s loses his freedom: %(owners)s.") % {"name": name, "owners": owners_text(d.get("owners"))}
        if kind == "public_key":
            return _("A public key: %(name)s is %(key)s.") % {"name": name, "key": key_label(str(d.get("key")))}
        if kind == "role_revealed":
            return _("All three keys of %(name)s are known: %(role)s.") % {"name": name,
                                                                          "role": role_name(d.get("role"))}
        if kind == "relieved":
            return _("The Saviour relieved %(name)s of his burden: %(role)s.") % {"name": name,
                                                                                "role": role_name(d.get("role"))}
        if kind == "questioned":
            return _("The judge questioned the slave %(name)s.") % {"name": name_case(name, "accs")}
        if kind == "saviour_key":
            return _("The Saviour adds a public key about %(name)s.") % {"name": name}
        # part 2: coins, ratings, alliances
        if kind == "bet":
            return _("Your bet on a winner: %(name)s.") % {"name": name}
        if kind == "bets_gm":
            bets = d.get("bets") or {}
            listed = "; ".join(f"{who} → {pick}" for who, pick in bets.items()) or "—"
            return _("The bets: %(bets)s. The pot: %(pot)s coins.") % {"bets": listed, "pot": d.get("pot", 0)}
        if kind == "trial_results":
            if not d.get("talents"):
                return _("The trial's results: no Talents today.")
            return _("The trial's results: the Talents of the day are %(talents)s.") % {
                "talents": _names(d.get("talents"))}
        if kind == "demon_returned":
            return agreed(gender_of(name), _("The Demon %(name)s is revealed and returns the burdens he took to his slaves."),
                          pgettext("masculine", "The Demon %(name)s is revealed and returns the burdens he took to his slaves."),
                          pgettext("feminine", "The Demon %(name)s is revealed and returns the burdens he took to his slaves.")) % {
                "name": name}
        if kind == "alliances":
            return _("Alliances made: %(count)s.") % {"count": d.get("count", 0)}
        if kind == "ally":
            return _("You and %(name)s are allies until the end of the show.") % {"name": name}
        if kind == "alliances_gm":
            pairs = "; ".join(" + ".join(pair) for pair in d.get("pairs") or ()) or "—"
            return _("The alliances: %(pairs)s.") % {"pairs": pairs}
        if kind == "ratings_gm":
            changes = "; ".join(f"{c.get('name')} {int(c.get('delta', 0)):+d}" for c in d.get("changes") or ())
            return _("Ratings changed: %(changes)s.") % {"changes": changes} if changes else _("No rating changed.")
        if kind == "show_results":
            percents = d.get("percents") or {}
            listed = "; ".join(f"{who} {percent_text(value)}" for who, value in percents.items()) or "—"
            return _("The show's results. Ratings: %(ratings)s.") % {"ratings": listed}
        if kind == "night_choices":
            choices = d.get("choices") or {}
            listed = "; ".join(f"{who}: {ACTION_LABELS.get(c[0], c[0]) if c else '—'} → {c[1] if c else '—'}"
                               for who, c in choices.items()) or "—"
            if not d.get("auto"):
                return _("Night choices: %(choices)s.") % {"choices": listed}
            return _("Night choices: %(choices)s. Made automatically (coma): %(auto)s.") % {
                "choices": listed, "auto": ", ".join(d.get("auto"))}
        if kind == "morning":
            # an empty list is left out, not said as «—» (issue 28, item 14)
            enslaved = d.get("enslaved") or ()
            parts = [_("Morning. New slaves: %(slaves)s.") % {"slaves": ", ".join(
                f"{_name(v)} ({owners_text(v.get('owners'))})" for v in enslaved)} if enslaved
                else _("Morning. Nobody lost the freedom this night.")]
            if d.get("saved"):
                parts.append(_("The Saviour stopped an attack."))
            burdens = d.get("burdens") or ()
            if burdens:
                parts.append(_("Slaves and their owners: %(slaves)s.") % {"slaves": "; ".join(
                    f"{_name(b)} ({owners_text(b.get('owners'))}"
                    + (_(", burden %(amount)s ㉿") % {"amount": b["amount"]} if b.get("amount") is not None else "")
                    + ")" for b in burdens)})
            return " ".join(parts)
        if kind == "judge":
            return _("The judge of day %(day)s is %(name)s.") % {"day": d.get("day", "?"), "name": name}
        if kind == "judge_lot":
            weights = d.get("weights") or {}
            total = sum(w for w in weights.values() if isinstance(w, (int, float)))
            listed = "; ".join(f"{who}: {chance_text(100 * w / total)}" if isinstance(w, (int, float)) and total
                               else f"{who}: {w}" for who, w in weights.items()) or "—"
            return _("The judge's lot, each hero's chance: %(weights)s; drawn: %(name)s.") % {
                "weights": listed, "name": d.get("judge") or name}
        if kind == "no_judge":
            return _("There is no judge on day %(day)s.") % {"day": d.get("day", "?")}
        if kind == "insomnia":
            return _("Insomnia: the night would decide the show, so there is no night; day %(day)s follows.") % {
                "day": d.get("day", "?")}
        if kind in ("trial_task", "trial_queue_gm", "doomsday"):
            return self.stage_event_text(kind, d)
        if kind == "game_over":
            roles = "; ".join(f"{_name(r)}: {role_name(r.get('role'))}" for r in d.get("roles") or ()
                              if isinstance(r, dict))
            winner = str(FACTION_NAMES.get(str(d.get("winner")), d.get("winner") or "—"))
            return _("The show is over. Winner: %(winner)s. Roles: %(roles)s.") % {"winner": winner,
                                                                                  "roles": roles or "—"}
        return self.privilege_event_text(kind, d, name)

    def stage_event_text(self, kind: str, d: dict) -> str | None:
        """Issue 28: the slaves' daily task (item 6) and Судный День (item 7)."""
        if kind == "trial_task":
            if d.get("changed"):
                return _("The GM changed the task of the slaves' trial of day %(day)s: «%(task)s».") % {
                    "day": d.get("day", "?"), "task": d.get("task") or "—"}
            if d.get("task"):
                return _("The slaves' trial of day %(day)s. The task: «%(task)s». Each slave answers with one "
                         "photo, video or sticker, posted anonymously in the game thread.") % {
                    "day": d.get("day", "?"), "task": d["task"]}
            return _("The slaves' trial of day %(day)s: the GM will give its task.") % {"day": d.get("day", "?")}
        if kind == "trial_queue_gm":
            if d.get("next"):
                return _("Trial tasks to come: %(count)s; the next morning's: «%(task)s».") % {
                    "count": d.get("count", 0), "task": d["next"]}
            return _("No trial task is left to come: the GM gives each one himself.")
        if kind == "doomsday":
            return _("Then comes the last stage, Judgment Day (%(hours)s h): every role and every secret is "
                     "open, the results are published, and every hero, slaves too, may say his last words in "
                     "the game thread, free of fees. Then the thread closes.") % {"hours": d.get("hours", "?")}
        return None

    def privilege_event_text(self, kind: str, d: dict, name: str) -> str | None:
        """Part 3's events (docs/rulesets/show.md, "Part 3: privileges")."""
        if kind == "privileges":
            return _("Your privileges: %(privileges)s.") % {"privileges": privilege_names(d.get("privileges"))}
        if kind == "privileges_gm":
            holders = d.get("holders") or {}
            return _("Privileges dealt: %(holders)s.") % {"holders": "; ".join(
                f"{who}: {privilege_names(ps)}" for who, ps in holders.items()) or "—"}
        if kind == "mole_role":
            return _("You are %(name)s, the Mole: you do not know your role and must find it out.") % {"name": name}
        if kind == "buried":
            return agreed(gender_of(name), _("%(name)s has been buried into a coma."),
                          pgettext("masculine", "%(name)s has been buried into a coma."),
                          pgettext("feminine", "%(name)s has been buried into a coma.")) % {"name": name}
        if kind == "buried_gm":
            return agreed(gender_of(d.get("mole")), _("The Mole %(mole)s buried %(name)s."),
                          pgettext("masculine", "The Mole %(mole)s buried %(name)s."),
                          pgettext("feminine", "The Mole %(mole)s buried %(name)s.")) % {
                "mole": d.get("mole") or "—", "name": name}
        if kind == "stunned":
            return _("You are stunned: you may send no message until the night ends.")
        if kind == "stunned_gm":
            return agreed(gender_of(d.get("bouncer")), _("The Bouncer %(bouncer)s stunned %(target)s."),
                          pgettext("masculine", "The Bouncer %(bouncer)s stunned %(target)s."),
                          pgettext("feminine", "The Bouncer %(bouncer)s stunned %(target)s.")) % {
                "bouncer": d.get("bouncer") or "—", "target": d.get("target") or "—"}
        if kind == "stun_failed":
            return _("The Bouncer %(bouncer)s and %(target)s picked each other: no stun.") % {
                "bouncer": d.get("bouncer") or "—", "target": d.get("target") or "—"}
        if kind == "excluded":
            return _("Excluded from today's vote list: %(heroes)s.") % {"heroes": _names(d.get("heroes"))}
        if kind == "excluded_gm":
            return agreed(gender_of(d.get("lawyer")), _("The Lawyer %(lawyer)s excluded %(target)s."),
                          pgettext("masculine", "The Lawyer %(lawyer)s excluded %(target)s."),
                          pgettext("feminine", "The Lawyer %(lawyer)s excluded %(target)s.")) % {
                "lawyer": d.get("lawyer") or "—", "target": d.get("target") or "—"}
        if kind == "extra_vote_gm":
            target = d.get("target")
            return agreed(gender_of(d.get("authority")), _("The Authority %(authority)s added a vote: %(target)s."),
                          pgettext("masculine", "The Authority %(authority)s added a vote: %(target)s."),
                          pgettext("feminine", "The Authority %(authority)s added a vote: %(target)s.")) % {
                "authority": d.get("authority") or "—", "target": ballot_label(target)}
        if kind == "intercept_result":
            if d.get("right"):
                return _("Intercepted Secret Knowledge no. %(number)s: %(name)s is %(key)s.") % {
                    "number": d.get("number", "?"), "name": d.get("about") or "—", "key": key_label(str(d.get("key")))}
            return _("Your guess of Secret Knowledge no. %(number)s was wrong.") % {"number": d.get("number", "?")}
        if kind == "intercept_gm":
            return _("The Hacker %(hacker)s guessed Secret Knowledge no. %(number)s: %(result)s.") % {
                "hacker": d.get("hacker") or "—", "number": d.get("number", "?"),
                "result": _("right") if d.get("right") else _("wrong")}
        if kind == "privilege_stolen":
            return _("You stole a privilege from %(name)s: %(privilege)s.") % {
                "name": name, "privilege": privilege_names([d.get("privilege")])}
        if kind == "privilege_lost":
            return _("A privilege was stolen from you: %(privilege)s.") % {
                "privilege": privilege_names([d.get("privilege")])}
        if kind == "theft_failed":
            return _("Your theft from %(name)s failed: nothing could be taken.") % {"name": name}
        if kind == "thefts_gm":
            thefts = d.get("thefts") or {}
            results = d.get("results") or {}
            return _("The carousel: %(thefts)s.") % {"thefts": "; ".join(
                f"{thief} → {victim}: {privilege_names([results[thief]]) if results.get(thief) else '—'}"
                for thief, victim in thefts.items()) or "—"}
        if kind == "snakelet_turned":
            if d.get("name"):
                return agreed(gender_of(name), _("The Snakelet %(name)s has become a Reptiloid."),
                              pgettext("masculine", "The Snakelet %(name)s has become a Reptiloid."),
                              pgettext("feminine", "The Snakelet %(name)s has become a Reptiloid.")) % {"name": name}
            return _("The Snakelet has become a Reptiloid.")
        if kind == "snakelet_turned_gm":
            return agreed(gender_of(name), _("The Snakelet %(name)s (%(role)s) has become a Reptiloid."),
                          pgettext("masculine", "The Snakelet %(name)s (%(role)s) has become a Reptiloid."),
                          pgettext("feminine", "The Snakelet %(name)s (%(role)s) has become a Reptiloid.")) % {
                "name": name, "role": role_name(d.get("old_role"))}
        if kind == "genius_judge":
            return _("You know the judge of day %(day)s: %(name)s.") % {"day": d.get("day", "?"), "name": name}
        return None


WORDING = ShowWording()
