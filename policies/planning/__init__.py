"""The planning library of the backfilling family: pure functions over availability profiles.

Any policy can use it, for its own schedule or to ask "what if":

* `schedsim.policies.planning.profile`: the availability profile (free cores
  over future time), built from a view's running jobs (`Profile.of_running`)
  and copied (`Profile.copy`) to plan without touching one's own;
* `schedsim.policies.planning.easy`: EASY's shadow time and extra cores
  (seed 000 section 2.1.2), from the running jobs or over a profile;
* `schedsim.policies.planning.conservative`: conservative backfilling's
  anchoring and compression (Kettimuthu 2003, section 2.1.1), a plan of a whole
  queue, and a job's estimated start and response time under conservative
  backfilling (what Zeng & Sodan 2009 ask at every submission);
* `schedsim.policies.planning.nodes`: EASY's shadow time on a machine of node
  groups with memory or partitions, node by node (the room per node);
* `schedsim.policies.planning.node_profile`: conservative backfilling's plan on
  such a machine, free cores and memory per node over time (`NodeProfile`):
  anchoring on named cores, compression, blocked nodes.

`schedsim.policies.backfilling` (EASY, conservative) is built on these.
"""
