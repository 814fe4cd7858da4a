"""The analytic functions check their integer arguments (no wrapping modulo 2^32,
no truncation of 256.9, no negative values) and report the C++ model's errors
with the Python names."""

import numpy as np
import pytest

import ns3rifl


@pytest.mark.parametrize("call, exc, words", [
    (lambda: ns3rifl.frame_error_rate(1e-6, 2**32 + 256), ValueError,
     "frame_bits = 4294967552 is out of range [1, 4294967295]"),
    (lambda: ns3rifl.frame_error_rate(1e-6, -1), ValueError, "frame_bits = -1 is out of range"),
    (lambda: ns3rifl.frame_error_rate(1e-6, 256.9), ValueError,
     "frame_bits = 256.9 is not a whole number"),
    (lambda: ns3rifl.frame_error_rate(1e-6, np.array([256, 2**32 + 256])), ValueError,
     "frame_bits = 4294967552 is out of range"),
    (lambda: ns3rifl.frame_error_rate(1e-6, np.array([256.0, 256.5])), ValueError,
     "frame_bits = 256.5 is not a whole number"),
    (lambda: ns3rifl.frame_error_rate(1e-6, True), TypeError, "frame_bits must be an integer"),
    (lambda: ns3rifl.rifl_bandwidth_ratio(1e-7, 256, 4, 161, directions=2**32 + 1), ValueError,
     "directions = 4294967297 is out of range [1, 2]"),
    (lambda: ns3rifl.rifl_bandwidth_ratio(1e-7, 256, -4, 161), ValueError,
     "lanes = -4 is out of range"),
    (lambda: ns3rifl.rifl_fc_buffer_frames(2**32 + 6), ValueError,
     "frame_id_width = 4294967302 is out of range [1, 12]"),
    (lambda: ns3rifl.rifl_rtt_frames(1e20, 10, 256), ValueError,
     "rifl_rtt_frames: lane_rate_bps = 1e+20 is out of range (0, 1e+15] bit/s"),
    (lambda: ns3rifl.rifl_frame_id_width(1e300, 10, 256), ValueError, "lane_rate_bps = 1e+300"),
    (lambda: ns3rifl.rifl_rtt_frames(1e15, 100000, 128), ValueError,
     "frames per round trip, more than 4294967263"),
    (lambda: ns3rifl.network_mtbf_seconds([1.0, -1.0]), ValueError,
     "network_mtbf_seconds: mtbf_seconds[1] = -1 must be > 0"),
])
def test_analytic_integers_do_not_wrap_or_truncate(call, exc, words):
    with pytest.raises(exc) as e:
        call()
    assert words in str(e.value)
    assert "LinkReliabilityModel" not in str(e.value) and "frameBits" not in str(e.value)


def test_analytic_integers_of_any_integer_type_are_taken():
    ref = ns3rifl.frame_error_rate(1e-6, 256)
    assert ns3rifl.frame_error_rate(1e-6, np.int64(256)) == ref
    assert ns3rifl.frame_error_rate(1e-6, 256.0) == ref
    out = ns3rifl.frame_error_rate(np.array([1e-6, 1e-6]), np.array([256.0, 256.0]))
    assert list(out) == [ref, ref]
    assert ns3rifl.rifl_frame_id_width(28e9, 10.0, np.uint16(256)) == 6
