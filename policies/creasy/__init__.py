"""CREASY (Feitelson & Shmueli 2009, section 2): EASY with the queue ordered by
criticality and seniority.

* `schedsim.policies.creasy.policy`: the policy (``creasy``), its priority
  (Equations 1 and 2) and its pass in Python;
* `schedsim.policies.creasy.kernels`: the same pass as one loop compiled with numba,
  which a process switches to once it has made `policy.PYTHON_BUDGET` passes.
"""
