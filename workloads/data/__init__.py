"""Real logs from the Parallel Workloads Archive shipped with schedsim."""
