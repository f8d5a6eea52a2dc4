"""Placeholder; filled in once the Processing algorithms land."""
