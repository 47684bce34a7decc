"""The default list of the slaves' daily tasks (issue 28, item 6): «Каждое утро раб получает общее
для всех рабов задание на этот день, ответом на которое может служить только одно фото, видео или
стикер в общий чат.»

The tasks are the show's content, not the site's words: written in Russian like the seed (the show's
communities play in Russian), each answerable by one photo, video or sticker. The GM edits the list
of his show (the option `trial_tasks`, the new-game form; the tasks still to come on his card while
the show runs); a morning with no task set takes the next one (trials.next_task).
"""

from __future__ import annotations

# The longest task text and the longest list the GM may give (stages.options_with_defaults checks them).
TASK_MAX_LENGTH = 500
TASKS_MAX = 100

DEFAULT_TRIAL_TASKS: tuple[str, ...] = (
    "Вид из вашего окна прямо сейчас.",
    "Ваша сегодняшняя еда одним кадром, снятая так, будто это улика.",
    "Стикер, который лучше всего описывает ваше рабство.",
    "Нарисуйте от руки Рептилоида и сфотографируйте рисунок.",
    "Короткое видео: изобразите Масона на тайном собрании Ложи.",
    "Предмет на вашем столе, который мог бы выдать вашу Роль.",
    "Автопортрет без лица: покажите себя, не показывая лица.",
    "Что-нибудь красное вокруг вас.",
    "Стикер — ваш ответ сегодняшнему Судье.",
    "Видео до десяти секунд: звук, который окружает вас сейчас.",
    "Облако, тень или пятно, в котором можно разглядеть Демона.",
    "Сложите из подручных предметов слово «СВОБОДА» и сфотографируйте.",
    "Самый бесполезный предмет в вашем доме.",
    "Ваша обувь в самом неожиданном месте.",
    "Жест, которым вы попросили бы Спасителя о помощи (фото или видео).",
)
