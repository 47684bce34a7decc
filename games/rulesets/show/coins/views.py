"""The show's fines page: the GMs and the site's moderators fine a hero for a forbidden act and
see the fines given (with their reporters, hidden from everyone else); 404 for anybody else."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts.models import display_name_key
from games.models import Game, Seat
from games.rulesets.show.coins.fines import fines_of, may_fine, show_fine
from games.rulesets.show.coins.services import show_trial_task, show_trial_tasks
from games.services import ActionRefused, gm_writes


class FineForm(forms.Form):
    offender = forms.ModelChoiceField(label=gettext_lazy("Offender"), queryset=Seat.objects.none())
    reporter = forms.CharField(label=gettext_lazy("First reporter (display name)"), max_length=40)
    report = forms.CharField(label=gettext_lazy("What was reported"), widget=forms.Textarea(attrs={"rows": 3}), max_length=5000)
    decision = forms.CharField(label=gettext_lazy("Decision"), widget=forms.Textarea(attrs={"rows": 2}), max_length=5000)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["offender"].queryset = Seat.objects.filter(game=game).select_related("user").order_by("number")
        self.fields["offender"].label_from_instance = lambda seat: seat.dealt_name or seat.user.display_name

    def clean_reporter(self):
        name = self.cleaned_data["reporter"]
        user = get_user_model().objects.filter(display_name_key=display_name_key(name), is_active=True).first()
        if user is None:
            raise forms.ValidationError(_("No user has that display name."))
        return user


@require_http_methods(["GET", "POST"])
@gm_writes.declare(gm_writes.changes(), game=gm_writes.game_of_url)  # the coins and the GM's log: the game
def show_fines(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("gm"), pk=pk)
    if game.ruleset != "show" or not may_fine(request.user, game):
        raise Http404
    form = FineForm(request.POST or None, game=game)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            show_fine(game=game, by=request.user, offender=data["offender"], reporter=data["reporter"],
                      report=data["report"], decision=data["decision"])
        except ActionRefused as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(request, _("The fine is paid to the reporter."))
            return redirect("games:show_fines", pk=game.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/show_fines.html", {"game": game, "form": form, "fines": fines_of(game)},
                  status=status)


# --- The GM's inputs on his dashboard (SiteRuleset.gm_inputs): games:gm_action calls them after its
# checks (the GM, a phase going on); a refusal is an ActionRefused it shows, nothing changed.
def gm_trial_task(request: HttpRequest, game: Game, phase, now) -> None:
    """The running slaves' trial's task, changed until its first answer (issue 28, item 6)."""
    task = show_trial_task(game=game, by=request.user, text=request.POST.get("task", ""), now=now)
    messages.success(request, _("The task of the slaves' trial of day %(day)s is changed and told in the game thread.")
                     % {"day": task["day"]})


def gm_trial_tasks(request: HttpRequest, game: Game, phase, now) -> None:
    """The trial tasks still to come, one a line; the next morning's trial takes the first."""
    left = show_trial_tasks(game=game, by=request.user, tasks=request.POST.get("tasks", "").splitlines(), now=now)
    messages.success(request, _("The trial tasks to come are saved: %(n)s.") % {"n": len(left)})
