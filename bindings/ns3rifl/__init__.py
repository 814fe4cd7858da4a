"""ns3rifl: Python access to the rifl ns-3 module.

The extension module ``ns3rifl._core`` binds the scenario level of the C++
module: the analytic reliability model (LinkReliabilityModel, vectorised over
NumPy arrays; ``ns3rifl.analytic`` checks the integer arguments before they
reach C++) and scenario runners that configure a simulation from keyword
arguments and return plain Python data.  ``ns3rifl.sweep`` (module ``ns3rifl.sweeps``) fans scenarios out
to worker processes (one simulation per process: ns-3's simulator is
process-global) or to a Dask cluster.
"""

from ._core import *  # noqa: F401,F403
from ._core import SECONDS_PER_YEAR, run_rifl_link  # noqa: F401
from .analytic import *  # noqa: F401,F403 - the analytic functions with checked arguments
from .sweeps import SCENARIOS, sweep  # noqa: F401

__all__ = [name for name in dir() if not name.startswith("_")]
