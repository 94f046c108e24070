"""Trajectory viewer: `clarisearch view RUN [RUN...]` serves every episode turn by turn on localhost."""

from clarisearch.viewer.app import ViewerServer, serve
from clarisearch.viewer.data import ViewerData, episode_row

__all__ = ["ViewerData", "ViewerServer", "episode_row", "serve"]
