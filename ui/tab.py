"""What the dock asks of every tab: one contract instead of methods looked up by name.

A tab is a QWidget with its .ui form that also derives from DockTab, built with the dock as its
parent (`Tab(dock)`) and registered by one line in dock.TABS; it overrides what it takes part
in. See docs/design.md, "A new dock tab".
"""


class DockTab:
    """The dock's calls on a tab; each does nothing unless the tab overrides it."""

    def fill(self, settings):
        """Write the tab's choices into the project's survey settings (ui/settings.py)."""

    def apply(self, settings):
        """Show the settings of an opened project."""

    def reset(self):
        """Drop the results shown (a new or opened project); a job in progress goes on."""

    def close_tab(self):
        """Release map tools, signals and background work before the dock closes."""

    def run_panel(self):
        """The tab's own run panel, shown below the tabs while it is current (None: the
        dock's, through dock.start_job)."""
        return None
