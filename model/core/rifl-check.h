/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_CHECK_H
#define RIFL_CHECK_H

#include "ns3/nstime.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

/**
 * \ingroup rifl-core
 * \file
 * \brief How the module reports bad input.
 *
 * Every configuration or argument error in the module throws
 * std::invalid_argument (std::out_of_range for an index) whose message names
 * the parameter, the value given and the allowed range, e.g.
 * "RiflFrame: FrameSize = 300 is not one of 128, 256, 512, 1024". Exceptions
 * (rather than NS_FATAL_ERROR) let tests check the message and let the Python
 * bindings turn them into ValueError instead of killing the interpreter. An
 * uncaught one ends a C++ program with the message printed.
 */

/**
 * \ingroup rifl-core
 * \brief Throw std::invalid_argument with a streamed message if \p cond holds.
 * \param cond the error condition.
 * \param msg the message, an ostream expression.
 */
#define RIFL_CHECK_ARG(cond, msg)                             \
    do                                                        \
    {                                                         \
        if (cond)                                             \
        {                                                     \
            std::ostringstream riflCheckOss_;                 \
            riflCheckOss_ << msg;                             \
            throw std::invalid_argument(riflCheckOss_.str()); \
        }                                                     \
    } while (false)

/**
 * \ingroup rifl-core
 * \brief Throw std::out_of_range with a streamed message if \p cond holds.
 * \param cond the error condition.
 * \param msg the message, an ostream expression.
 */
#define RIFL_CHECK_INDEX(cond, msg)                       \
    do                                                    \
    {                                                     \
        if (cond)                                         \
        {                                                 \
            std::ostringstream riflCheckOss_;             \
            riflCheckOss_ << msg;                         \
            throw std::out_of_range(riflCheckOss_.str()); \
        }                                                 \
    } while (false)

namespace ns3
{

/**
 * \ingroup rifl-core
 * \brief Check a time given in microseconds that becomes whole nanoseconds: it must
 *        be in [0.001, maxUs] (1 ns up), or 0 if \p zeroAllowed; a value in (0, 1 ns)
 *        would become 0 ns in silence. Throws std::invalid_argument naming it, e.g.
 *        "durationUs = 0.0004 is out of range [0.001, 1e9] (1 ns to 1000 s)".
 * \param name the parameter.
 * \param us the value.
 * \param zeroAllowed whether 0 is allowed.
 * \param maxUs the largest value.
 */
inline void
RiflCheckMicroseconds(const char* name, double us, bool zeroAllowed, double maxUs)
{
    // A power of ten as "1e9", not "1e+09".
    const int e = static_cast<int>(std::lround(std::log10(maxUs)));
    std::ostringstream max;
    if (e > 0 && std::pow(10.0, e) == maxUs)
    {
        max << "1e" << e;
    }
    else
    {
        max << maxUs;
    }
    RIFL_CHECK_ARG(!(((zeroAllowed && us == 0) || us >= 0.001) && us <= maxUs),
                   name << " = " << us << " is out of range" << (zeroAllowed ? ": 0 or " : " ")
                        << "[0.001, " << max.str() << "] (1 ns to " << maxUs / 1e6 << " s)");
}

/**
 * \ingroup rifl-core
 * \brief A time given in microseconds as a Time, rounded to the nanosecond. ns-3.37's
 *        MicroSeconds() has no overload for double: a double binds to its uint64_t
 *        overload, so MicroSeconds(20.9) is 20 us and a negative value wraps. Check the
 *        value first (RiflCheckMicroseconds()).
 * \param us the time in microseconds.
 * \return the Time.
 */
inline Time
RiflMicroseconds(double us)
{
    return NanoSeconds(std::llround(us * 1000.0));
}

} // namespace ns3

#endif /* RIFL_CHECK_H */
