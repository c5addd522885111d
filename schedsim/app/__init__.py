"""The application layer: the command line, study definitions, sweeps, reports.

It sits above the three core packages (`schedsim.workloads` <- `schedsim.model`
<- `schedsim.policies`) and is the only layer that knows policies by name
(`schedsim.app.registry`); the model takes policy objects.
"""
