/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rifl
 * libFuzzer target "flow-size-cdf": the reader of flow-size CDF files
 * (DcnFlowSizeDistribution::Parse, which Load() calls on a file's content: the
 * shipped CDF files in data/ and any file a user names with flowSizeCdf).
 *
 * Input: the file's text. Parse() must either accept it or throw
 * std::invalid_argument whose message names the file (never abort, never another
 * exception). An accepted text holds no NUL byte and gives at least one point,
 * sizes in (0, 2^32 - 1] (a flow's size) and cdf values
 * in [0, 1], both non-decreasing, the last cdf exactly 1; its mean is finite and
 * within the sizes; and the variable made from it (MakeVariable) draws finite
 * sizes no larger than the last point's.
 */

#include "fuzz-check.h"
#include "ns3/dcn-flow-size-distribution.h"
#include "ns3/random-variable-stream.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

using namespace ns3;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string name = "fuzz.cdf";
    const std::string text(reinterpret_cast<const char*>(data), size);
    DcnFlowSizeDistribution d;
    try
    {
        d = DcnFlowSizeDistribution::Parse(text, name);
    }
    catch (const std::invalid_argument& e)
    {
        RIFL_FUZZ_CHECK(std::string(e.what()).find(name) != std::string::npos,
                        "the message names the file: " << e.what());
        return 0;
    }
    const auto& pts = d.GetPoints();
    RIFL_FUZZ_CHECK(!pts.empty(), "an accepted file has points");
    RIFL_FUZZ_CHECK(text.find('\0') == std::string::npos, "an accepted file has no NUL byte");
    for (std::size_t i = 0; i < pts.size(); ++i)
    {
        RIFL_FUZZ_CHECK(pts[i].first > 0 && pts[i].first <= 4294967295.0, "size in (0, 2^32 - 1]");
        RIFL_FUZZ_CHECK(pts[i].second >= 0 && pts[i].second <= 1, "cdf in [0, 1]");
        RIFL_FUZZ_CHECK(i == 0 || pts[i].first >= pts[i - 1].first, "sizes non-decreasing");
        RIFL_FUZZ_CHECK(i == 0 || pts[i].second >= pts[i - 1].second, "cdf non-decreasing");
    }
    RIFL_FUZZ_CHECK(pts.back().second == 1.0, "the last cdf is 1");
    const double mean = d.GetMeanBytes();
    const double maxSize = pts.back().first;
    // The mean may overflow to infinity only for sizes near DBL_MAX.
    RIFL_FUZZ_CHECK(!std::isnan(mean) && mean >= 0
                        && (mean <= maxSize * (1 + 1e-12) || std::isinf(maxSize * 2)),
                    "mean " << mean << " within the sizes (last " << maxSize << ")");
    Ptr<EmpiricalRandomVariable> v = d.MakeVariable(1);
    for (int i = 0; i < 4; ++i)
    {
        const double x = v->GetValue();
        RIFL_FUZZ_CHECK(std::isfinite(x) && x >= 0 && x <= maxSize,
                        "a drawn size " << x << " within [0, " << maxSize << "]");
    }
    return 0;
}
