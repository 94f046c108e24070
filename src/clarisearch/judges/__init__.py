"""Judges: nugget coverage (full/partial/none), answer equivalence, and gold nugget extraction."""
