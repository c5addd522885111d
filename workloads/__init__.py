"""Workload sources and formats: SWF I/O, transforms, shipped traces."""
