"""Runs: episode contexts, the run store, resumable batch execution."""
