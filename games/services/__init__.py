"""Write operations of the games app: keyword-only <entity>_<action> functions."""


class ActionRefused(Exception):
    """A user action the rules refuse; the message is translated and safe to show."""

    def __init__(self, message, *, code: str = "refused"):
        super().__init__(str(message))
        self.message = message
        self.code = code
