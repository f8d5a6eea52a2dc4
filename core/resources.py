"""Where the plugin's bundled data lie (resources/ beside core/): core must not import the
plugin's paths.py, so its own modules find the folder from here."""

import os

RESOURCES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "resources")


def resource(*parts: str) -> str:
    """The path of a bundled file, e.g. resource("herb", "descriptors.txt")."""
    return os.path.join(RESOURCES, *parts)
