"""The «Баланс» page: a user's balance and every line of his ledger, for him and the staff only."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from coins import selectors

PAGE_SIZE = 50


@login_required
@require_GET
def balance_mine(request: HttpRequest) -> HttpResponse:
    return redirect("coins:balance", pk=request.user.pk)


@require_GET
def balance(request: HttpRequest, pk: int) -> HttpResponse:
    """404 for anybody but the owner and the staff: whether a balance moved is the owner's business."""
    if not request.user.is_authenticated or (request.user.pk != pk and not request.user.is_staff):
        raise Http404
    person = get_object_or_404(get_user_model(), pk=pk)
    account = selectors.account_of(person)
    page = Paginator(selectors.history(person), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "coins/balance.html", {
        "person": person, "balance": account.balance if account else 0, "page": page,
        "rows": selectors.history_rows(person, page.object_list), "indicode": selectors.indicode_of(person)})
