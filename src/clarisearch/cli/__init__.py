"""The `clarisearch` command line (sync wrappers around the async library)."""
