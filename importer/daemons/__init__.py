"""The long-running processes: the worker, the timer scheduler, the loop they share and the
metrics they serve."""
