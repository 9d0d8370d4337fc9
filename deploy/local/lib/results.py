"""Imported by the deploy/local scripts whose tables read bin/benchmark's result files
(power-loss-table.sh, replication-cost.sh), with PYTHONPATH=deploy/local/lib: reading a result
and the figures those tables print the same way."""
import json


def load(path):
    """The result file at path, or None where a run left none or only part of one (it failed, or
    the script was stopped while it ran): its row then says n/a rather than the table failing."""
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None


def stable_peak(peak):
    """The stable peak rate (msg/s) of a peak search's result (None: no result), as printed."""
    stable = (peak or {}).get("search", {}).get("stablePeakMsgPerSec")
    return f"{stable:,.0f}" if isinstance(stable, (int, float)) else "n/a"
