"""Where the plugin's bundled files live, whatever the plugin folder is called."""

import os

PLUGIN_DIR = os.path.dirname(os.path.abspath(__file__))
RESOURCES = os.path.join(PLUGIN_DIR, "resources")
ICON = os.path.join(RESOURCES, "icon.svg")
STYLES = os.path.join(RESOURCES, "styles")
DATA = os.path.join(RESOURCES, "data")
