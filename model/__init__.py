"""The SimPy world: cluster, jobs, scheduler daemon, simulation facade, results."""
