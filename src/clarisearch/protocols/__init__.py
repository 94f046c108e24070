"""One module per benchmark protocol: CTS (clarify -> rewrite -> deep search) and DiscoBench."""
