"""Views of the games app: parse the request, ask permissions, call a service, render."""
