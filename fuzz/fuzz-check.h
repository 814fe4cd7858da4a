/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_FUZZ_CHECK_H
#define RIFL_FUZZ_CHECK_H

/**
 * \file
 * \ingroup rifl
 * Helpers shared by the libFuzzer targets in fuzz/ (see tools/run-fuzz).
 *
 * A target aborts through RIFL_FUZZ_CHECK when a property fails, so that
 * libFuzzer reports the input as a crash and keeps it (crash-<sha1>). An
 * exception other than the documented std::invalid_argument / std::out_of_range
 * of bad arguments escapes and is reported the same way.
 */

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

/**
 * \brief Abort with a message when \p cond is false (a property of the target failed).
 * \param cond the property.
 * \param msg what failed (streamed).
 */
#define RIFL_FUZZ_CHECK(cond, msg)                                                                \
    do                                                                                            \
    {                                                                                             \
        if (!(cond))                                                                              \
        {                                                                                         \
            std::ostringstream rifl_fuzz_oss_;                                                    \
            rifl_fuzz_oss_ << msg;                                                                \
            std::fprintf(stderr, "RIFL_FUZZ_CHECK failed at %s:%d: %s: %s\n", __FILE__, __LINE__, \
                         #cond, rifl_fuzz_oss_.str().c_str());                                    \
            std::abort();                                                                         \
        }                                                                                         \
    } while (false)

/**
 * \brief Deterministic message bytes (xorshift32 from \p seed), so that a
 *        receiver can check content from a message's identity alone.
 * \param seed the stream's start (a function of the message's identity).
 * \param n the size.
 * \return the bytes.
 */
inline std::vector<uint8_t>
RiflFuzzBytes(uint32_t seed, uint32_t n)
{
    std::vector<uint8_t> p(n);
    uint32_t x = seed;
    for (uint32_t i = 0; i < n; ++i)
    {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = static_cast<uint8_t>(x);
    }
    return p;
}

#endif /* RIFL_FUZZ_CHECK_H */
