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

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

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

#endif /* RIFL_FUZZ_CHECK_H */
