"""The analytic reliability model (``LinkReliabilityModel``) with checked arguments.

The functions of ``ns3rifl._core`` take their integer parameters (``frame_bits``,
``lanes``, ``directions``, ...) as C++ ``uint32_t``: a NumPy array of another
integer or float type is converted element by element, so ``2**32 + 256``
wraps to 256, ``-1`` to 4294967295 and ``256.9`` truncates to 256.  The
functions here, exported as ``ns3rifl.<name>``, check every integer parameter
first (a scalar or any array: each element must be a whole number in the
parameter's range, bools are refused) and report the C++ model's own errors
with the Python names (``frame_bits``, not ``frameBits``).

Errors: TypeError for a value that is no number (or a bool), ValueError for a
number that is not whole or is outside the range, naming the parameter and the
range.
"""

from __future__ import annotations

import functools
import numbers
import re
from typing import Any, Callable, Dict, Tuple

import numpy as np

from . import _core

U32 = 2**32 - 1

#: Function -> its integer parameters -> (lowest, highest) allowed value.  Where
#: the C++ model takes a set of values (frame_bits: 128, 256, 512 or 1024) the range
#: here is the 32-bit one and the model reports a value outside the set.
INTEGER_PARAMETERS: Dict[str, Dict[str, Tuple[int, int]]] = {
    "frame_error_rate": {"frame_bits": (1, U32)},
    "rifl_framing_efficiency": {"packet_bytes": (1, U32), "frame_bits": (0, U32)},
    "rifl_framing_asymptote": {"frame_bits": (0, U32)},
    "rifl_payload_bits": {"frame_bits": (0, U32)},
    "rifl_frame_id_width": {"frame_bits": (0, U32)},
    "rifl_rtt_frames": {"frame_bits": (0, U32)},
    "rifl_fc_buffer_frames": {"frame_id_width": (1, 12)},
    "rifl_fc_threshold_on": {"frame_id_width": (1, 12)},
    "rifl_fc_threshold_off": {"frame_id_width": (1, 12)},
    "rifl_replay_slots": {"frame_id_width": (1, 12)},
    "rifl_bandwidth_ratio": {"frame_bits": (0, U32), "lanes": (1, U32), "directions": (1, 2)},
    "rifl_undetected_paper": {"frame_bits": (0, U32)},
    "rifl_undetected_exact": {"frame_bits": (0, U32)},
    "rifl_accepted_spectrum": {"frame_bits": (0, U32)},
    "rifl_mtbf_paper_seconds": {"frame_bits": (0, U32)},
    "rifl_mtbf_exact_seconds": {"frame_bits": (0, U32)},
    "direct_link_interleave_spectrum": {"interleave": (0, 1), "poly": (0, 255)},
    "direct_link_undetected_exact": {"poly": (0, 255)},
    "ethernet_spectrum": {"frame_bytes": (0, U32)},
    "ethernet_undetected_exact": {"frame_bytes": (0, U32)},
    "ethernet_packet_loss": {"packet_bytes": (1, U32), "overhead_bytes": (0, U32)},
    "weight_spectrum": {"width": (1, 32), "poly": (0, U32), "n": (0, U32),
                        "max_weight": (1, 4)},
}

#: The analytic functions without integer parameters (their errors are renamed too).
OTHER_FUNCTIONS = ("rifl_sizing_rtt_s", "rifl_retrans_buffer_bytes", "direct_link_undetected_paper",
                   "mtbf_seconds", "network_mtbf_seconds", "fit", "go_back_n_efficiency")


def _type_name(value: Any) -> str:
    return type(value).__name__


def check_integer(value: Any, name: str, lo: int, hi: int) -> Any:
    """An integer parameter (a scalar or array-like) checked against [lo, hi].

    Returns an int for a scalar, an int64 or uint64 ndarray otherwise.  Floats
    holding whole numbers are taken; bools, other floats, NaN and anything that
    is no number are refused.
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer in [{lo}, {hi}], not bool")
    if isinstance(value, numbers.Number) and not isinstance(value, numbers.Real):
        raise TypeError(f"{name} = {value!r} must be an integer in [{lo}, {hi}], "
                        f"not {_type_name(value)}")
    if isinstance(value, numbers.Real):
        if not isinstance(value, numbers.Integral):
            f = float(value)
            if not (np.isfinite(f) and f == int(f)):
                raise ValueError(f"{name} = {value!r} is not a whole number "
                                 f"(an integer in [{lo}, {hi}])")
        v = int(value)
        if not lo <= v <= hi:
            raise ValueError(f"{name} = {v} is out of range [{lo}, {hi}]")
        return v
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name} must be an integer or an array of integers in "
                        f"[{lo}, {hi}]: {e}") from None
    kind = arr.dtype.kind
    if kind == "O":
        # Python ints beyond 64 bits (or a mix of types): check element by element.
        flat = [check_integer(v, name, lo, hi) for v in arr.ravel().tolist()]
        return np.asarray(flat, dtype=np.int64).reshape(arr.shape)
    if kind == "b":
        raise TypeError(f"{name} must hold integers in [{lo}, {hi}], not bools")
    if kind not in "iuf":
        raise TypeError(f"{name} must be an integer or an array of integers in [{lo}, {hi}], "
                        f"not {_type_name(value)} of {arr.dtype}")
    if arr.size == 0:
        return arr.astype(np.int64)
    if kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.floor(arr))
        if bad.any():
            raise ValueError(f"{name} = {arr[bad].flat[0]!r} is not a whole number "
                             f"(an integer in [{lo}, {hi}])")
    out = (arr < lo) | (arr > hi)
    if out.any():
        v = arr[out].flat[0]
        raise ValueError(f"{name} = {int(v) if kind != 'f' else v!r} is out of range [{lo}, {hi}]")
    return arr.astype(np.int64)


def _camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def python_message(message: str, function: str, parameters) -> str:
    """A C++ model message with the Python function and parameter names."""
    message = re.sub(r"\b(LinkReliabilityModel|WeightSpectrum)::\w+", function, message)
    for p in parameters:
        message = re.sub(rf"\b{_camel(p)}\b", p, message)
    return message


def _parameter_names(fn: Callable) -> Tuple[str, ...]:
    """The parameter names of a pybind11 function, from its signature line."""
    first = (fn.__doc__ or "").strip().split("\n", 1)[0]
    inside = first[first.index("(") + 1:first.rindex(")")]
    return tuple(m.group(1) for m in re.finditer(r"(?:^|,\s*)(\w+):", inside))


def _checked(name: str) -> Callable:
    core = getattr(_core, name)
    names = _parameter_names(core)
    ints = INTEGER_PARAMETERS.get(name, {})

    @functools.wraps(core)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if len(args) <= len(names):
            args = list(args)
            for i, pname in enumerate(names[:len(args)]):
                if pname in ints:
                    args[i] = check_integer(args[i], pname, *ints[pname])
            for pname in ints.keys() & kwargs.keys():
                kwargs[pname] = check_integer(kwargs[pname], pname, *ints[pname])
        try:
            return core(*args, **kwargs)
        except ValueError as e:
            raise ValueError(python_message(str(e), name, names)) from None

    return wrapper


for _name in (*INTEGER_PARAMETERS, *OTHER_FUNCTIONS):
    globals()[_name] = _checked(_name)

__all__ = [*INTEGER_PARAMETERS, *OTHER_FUNCTIONS]
