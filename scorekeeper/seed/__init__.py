"""Made-up game nights, for a demo database, the tests and the benchmarks."""
