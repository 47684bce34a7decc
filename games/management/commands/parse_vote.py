"""The `parse_vote` command: reads posts' BBCode on stdin and prints how their votes are read, as
JSON; with `--score FILE`, measures how well a corpus of posts is read (docs/votes.md, "Measuring a
corpus")."""

import argparse
import io
import json
import sys

from django.core.management.base import BaseCommand, CommandError

from games.rulesets import registry
from games.text.names import RosterMatcher
from games.text.vote_score import CorpusError, load_corpus, score_corpus
from games.text.votes import (
    DEFAULT_PROFILE,
    PROFILES,
    SYNTAX_ORDER,
    SYNTAXES,
    jsonl_results,
    parse_votes,
    profile_named,
    reading_to_json,
)


def _utf8(stream):
    # Posts are Russian whatever the locale says; a C locale would otherwise garble or crash.
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    if encoding and encoding != "utf8":
        try:
            stream.reconfigure(encoding="utf-8")
        except (AttributeError, ValueError, io.UnsupportedOperation):
            pass


def _default_profile() -> str:
    """The vote profile of the rule set a new game starts with (the forum's, «forum»)."""
    adapter = registry.find(registry.default_key())
    return adapter.vote_profile_name if adapter is not None else DEFAULT_PROFILE.name


class Command(BaseCommand):
    help = (
        'Read one post\'s BBCode on stdin and print {"final": F, "votes": [...]} for the roster given '
        'with --player. With --jsonl, read {"players": [...], "text": "..."} lines and print one result '
        "per line."
    )
    # Tests hand in their own stdin through call_command(..., stdin=StringIO(...)).
    stealth_options = ("stdin",)

    def add_arguments(self, parser):
        parser.add_argument(
            "--player", action="append", default=[], metavar="NAME", help="a player who may be voted for (repeat)"
        )
        parser.add_argument("--jsonl", action="store_true", help="read JSON lines, one case per line")
        # The first rule set's profile by default (the rule sets name theirs: SiteRuleset.vote_profiles).
        default = _default_profile()
        parser.add_argument("--profile", default=default, choices=sorted(PROFILES),
                            help=f"rule profile (default: {default})")
        parser.add_argument(
            "--peace",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="allow (--peace) or refuse (--no-peace) peace / no-jail votes; default: the profile's",
        )
        parser.add_argument(
            "--syntax",
            action="append",
            default=[],
            choices=sorted(SYNTAXES),
            help="also enable this vote syntax (repeat)",
        )
        # The GM's choice on the game page («Синтаксис голосов»): exactly these syntaxes, the
        # profile's own ones off — the rule set's own words (`native`) too unless named.
        parser.add_argument(
            "--only-syntax",
            action="append",
            default=None,
            choices=sorted(SYNTAXES),
            metavar="SYNTAX",
            help="read exactly these vote syntaxes, like a game set to them; the rule set's own words are "
                 f"`native` (repeat; one of {', '.join(SYNTAX_ORDER)}). A `##vote`-only game: "
                 "--only-syntax hash_vote --only-syntax hash_unvote",
        )
        parser.add_argument("--spoilers", action="store_true", help="count votes inside [spoiler], like a game set so")
        parser.add_argument(
            "--score", metavar="FILE",
            help="measure a corpus (YAML as votes/samples.yaml, or JSON lines with --jsonl or a .jsonl name; "
                 "'-' reads stdin): the share of posts and of votes read as meant, the misreads and the "
                 "names read by a short form or a typo; the options above are every case's settings",
        )

    def handle(self, *args, **options):
        try:
            profile = profile_named(options["profile"], peace=options["peace"], syntaxes=options["syntax"])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if options["only_syntax"] is not None:
            if options["syntax"]:
                raise CommandError("--syntax adds to the profile's syntaxes, --only-syntax replaces them: give one")
            profile = profile.only_syntaxes(options["only_syntax"])
        if options["spoilers"]:
            profile = profile.with_spoilers(True)
        stdin = options.get("stdin") or sys.stdin
        _utf8(stdin)
        _utf8(sys.stdout)
        if options["score"]:
            self._score(options["score"], stdin, jsonl=options["jsonl"], profile=profile)
            return
        if options["jsonl"]:
            for line in jsonl_results(stdin, profile=profile):
                self.stdout.write(line)
            return
        reading = parse_votes(stdin.read(), RosterMatcher(options["player"]), profile=profile)
        self.stdout.write(json.dumps(reading_to_json(reading), ensure_ascii=False))

    def _score(self, name: str, stdin, *, jsonl: bool, profile) -> None:
        """The corpus's figures, misreads and guesses, then the figures as one JSON line."""
        if name == "-":
            text = stdin.read()
        else:
            try:
                with open(name, encoding="utf-8") as corpus:
                    text = corpus.read()
            except OSError as exc:
                raise CommandError(f"cannot read {name}: {exc.strerror}") from exc
            jsonl = jsonl or name.endswith(".jsonl")
        try:
            cases = load_corpus(text, jsonl=jsonl, profile=profile)
        except CorpusError as exc:
            raise CommandError(f"{name}: {exc}") from exc
        score = score_corpus(cases)
        self.stdout.write(score.report())
        self.stdout.write(json.dumps(score.summary(), ensure_ascii=False))
