from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# HYPOTHESIS_PROFILE=deep for a long bug hunt; the default keeps the suite quick.
settings.register_profile("default", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=8000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
