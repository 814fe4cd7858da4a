/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_CHECK_H
#define RIFL_CHECK_H

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

#endif /* RIFL_CHECK_H */
