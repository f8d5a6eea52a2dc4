"""Provider batch APIs end to end: each provider's batch file format and its translation to and
from the OpenAI-compatible request sent live (``formats``, so one cache key serves both), a
client for their files and batch endpoints (``client``) and the jobs a survey's batches are,
from submission to import (``jobs``). Imports ``engine`` (cache, endpoints) and ``survey``
(pending requests, the batch JSONL reader)."""
