"""User simulators: the CTS user answerer and the DiscoBench clue-releasing responder."""
