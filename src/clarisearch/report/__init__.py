"""Reports: the seeds' tables as Markdown/HTML/JSON, plots, and the trajectory viewer."""
