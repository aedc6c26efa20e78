"""LoCoMo parsing and scoring: moved into the package (recollect_graph.analysis.locomo_eval).

The notebooks use it from an installed package; this name stays for ``benchmarks/locomo.py`` and
its tests (``from benchmarks import locomo_eval as le``): it *is* that module.
"""

import sys

from recollect_graph.analysis import locomo_eval

sys.modules[__name__] = locomo_eval
