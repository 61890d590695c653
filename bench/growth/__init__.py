"""Builders of the growth benchmark (bench/growth_bench.py): long logs, long battles, big maps, old campaigns."""
