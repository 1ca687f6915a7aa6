"""Benchmarks run by `make bench` (python -m bench): see bench/__main__.py for the sections."""
