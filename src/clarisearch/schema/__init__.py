"""Every on-disk shape: datasets, corpus documents, run configs, events and results."""

from clarisearch.schema.corpus import CorpusDoc
from clarisearch.schema.cts import CtsEvidence, CtsGold, CtsInstance, Nugget
from clarisearch.schema.disco import AmbiguityType, Checkpoint, DiscoSample
from clarisearch.schema.loader import DataError, DataProblem, load_records, validate_file

__all__ = [
    "AmbiguityType",
    "Checkpoint",
    "CorpusDoc",
    "CtsEvidence",
    "CtsGold",
    "CtsInstance",
    "DataError",
    "DataProblem",
    "DiscoSample",
    "Nugget",
    "load_records",
    "validate_file",
]
