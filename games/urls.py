"""URLs of the forum and the games."""

from importlib import import_module

from django.urls import path

from games import feeds
from games.rulesets import registry
from games.views import archive, dashboard, forum, live, lobby, moderation, notifications, play, search, stats, votes

app_name = "games"

urlpatterns = [
    # First: every open last page asks it every few seconds (the cheaper it resolves, the better).
    path("threads/<int:pk>/poll/", live.thread_poll, name="thread_poll"),
    path("", forum.index, name="index"),
    path("forum/<str:kind>/", forum.section, name="section"),
    path("forum/<str:kind>/new/", forum.thread_new, name="thread_new"),
    path("threads/<int:pk>/", forum.thread_detail, name="thread"),
    path("threads/<int:pk>/reply/", forum.thread_reply, name="thread_reply"),
    path("threads/<int:pk>/preview/", forum.thread_preview, name="thread_preview"),
    path("threads/<int:pk>/moderate/", forum.thread_moderate, name="thread_moderate"),
    path("threads/<int:pk>/unread/", forum.thread_first_unread, name="thread_unread"),
    path("threads/<int:pk>/posts/<int:number>/", forum.post_permalink, name="post"),
    path("threads/<int:pk>/posts/<int:number>/quote/", forum.post_quote, name="post_quote"),
    path("posts/<int:post_pk>/edit/", forum.post_edit_view, name="post_edit"),
    path("posts/<int:post_pk>/history/", forum.post_history, name="post_history"),
    path("posts/<int:post_pk>/media/", forum.post_media, name="post_media"),
    path("posts/<int:post_pk>/delete/", forum.post_delete_view, name="post_delete"),
    path("posts/<int:post_pk>/report/", moderation.post_report, name="post_report"),
    path("moderation/reports/", moderation.reports_queue, name="reports"),
    path("moderation/reports/<int:report_pk>/", moderation.report_action, name="report_action"),
    path("me/absences/", moderation.absences, name="absences"),
    path("me/", dashboard.dashboard, name="dashboard"),
    path("me/notifications/", notifications.notification_list, name="notifications"),
    path("me/notifications/read/", notifications.notifications_read_all, name="notifications_read"),
    path("me/notifications/bell/", notifications.bell, name="notifications_bell"),
    path("me/notifications/<int:pk>/", notifications.notification_open, name="notification_open"),
    path("search/", search.search, name="search"),
    path("leaderboards/", stats.leaderboard, name="leaderboards"),
    path("leaderboards/<str:ruleset>/", stats.leaderboard, name="leaderboard"),
    path("threads/<int:pk>/feed.atom", feeds.thread_feed, name="thread_feed"),
    path("games/", forum.game_list, name="games"),
    path("games/new/", play.game_new, name="game_new"),
    path("games/<int:pk>/", forum.game_detail, name="game"),
    path("games/<int:pk>/join/", play.game_join, name="game_join"),
    path("lobby/", lobby.lobby, name="lobby"),
    path("lobby/<int:pk>/join/", lobby.lobby_join, name="lobby_join"),
    path("games/<int:pk>/autohost/", lobby.autohost_control, name="autohost_control"),
    path("games/<int:pk>/standby/", lobby.standby_view, name="standby"),
    path("games/<int:pk>/start/", play.game_start_view, name="game_start"),
    path("games/<int:pk>/co-gm/", play.co_gm_view, name="co_gm"),
    path("games/<int:pk>/role/", play.role_page, name="role"),
    path("games/<int:pk>/role/order/", play.order_view, name="order"),
    path("games/<int:pk>/role/replacement/", notifications.replacement_request, name="replacement_request"),
    path("games/<int:pk>/archive/", archive.archive, name="archive"),
    path("games/<int:pk>/replay/", archive.replay, name="replay"),
    path("games/<int:pk>/export.json", archive.export_json, name="export"),
    path("games/<int:pk>/anonymous/", play.anonymous_view, name="anonymous"),
    path("games/<int:pk>/gm/", play.gm_dashboard, name="gm_dashboard"),
    path("games/<int:pk>/commitment/", play.commitment_check, name="commitment"),
    path("games/<int:pk>/gm/action/", play.gm_action, name="gm_action"),
    path("games/<int:pk>/votes/", votes.vote_count_page, name="votes"),
    path("games/<int:pk>/votes/live/", votes.vote_count_fragment, name="votes_live"),
    path("games/<int:pk>/votes/correct/", votes.vote_correct_view, name="votes_correct"),
    path("games/<int:pk>/votes/post-count/", votes.vote_count_post_view, name="votes_post_count"),
    path("games/<int:pk>/phase/", votes.phase_control, name="phase_control"),
    path("games/<int:pk>/vote-options/", votes.vote_options, name="vote_options"),
    path("games/<int:pk>/seats/<int:seat_pk>/aliases/", votes.seat_aliases, name="seat_aliases"),
    path("games/<int:pk>/communication/", play.communication_options, name="communication"),
]

# Each rule set's own pages (SiteRuleset.urls_module), under the same namespace: the core names no
# rule set; a rule set's URL names are its own («games:cards», «games:rating»).
for _adapter in registry.adapters():
    if _adapter.urls_module:
        urlpatterns += import_module(_adapter.urls_module).urlpatterns
