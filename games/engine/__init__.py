"""The pure rules engine: no Django import anywhere below here (tests/test_settings.py checks)."""
