"""The tactical benchmarks (bench/tactical_bench.py runs them)."""
