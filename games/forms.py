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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # One more than the limit so that the service, not the browser, explains the refusal.
        self.fields["body"].widget.attrs["maxlength"] = settings.MAFIA_POST_MAX_LENGTH + 1


class ThreadForm(PostForm):
    title = forms.CharField(label=_("Title"), max_length=200)
    field_order = ["title", "body"]
