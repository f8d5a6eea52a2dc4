"""The GeoBias Processing algorithms, one per file: leaves that only the provider imports."""
