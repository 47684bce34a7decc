"""Template tags of the `cards` rule set's pages: the public Hand sizes shown on the game page."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def cards_hand_sizes(context, game):
    """Every player's Hand size now and after each past phase (public; see
    games.rulesets.cards.views.hand_sizes_context), or None for a game of another rule set."""
    from games.rulesets.cards.views import hand_sizes_context

    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None:
        return None
    return hand_sizes_context(user, game)
