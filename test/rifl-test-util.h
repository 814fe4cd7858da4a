/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Small helpers shared by the module's test suites (header only, included by
 * the test sources that need them; not installed).
 */

#ifndef RIFL_TEST_UTIL_H
#define RIFL_TEST_UTIL_H

#include "ns3/multiprocessor-topology-helper.h"

#include <functional>
#include <stdexcept>
#include <string>

namespace ns3
{
namespace rifltest
{

/**
 * \param f a call expected to throw std::invalid_argument.
 * \return its message, or "" if it did not throw.
 */
inline std::string
InvalidArgumentMessage(const std::function<void()>& f)
{
    try
    {
        f();
    }
    catch (const std::invalid_argument& e)
    {
        return e.what();
    }
    return "";
}

/**
 * \param s a message. \param part a part.
 * \return true if \p s contains \p part.
 */
inline bool
Has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

/**
 * \param m a deadlock-avoidance mode.
 * \return its name, as the saturation tests print it.
 */
inline std::string
ModeName(MultiprocessorTopologyHelper::DeadlockAvoidance m)
{
    switch (m)
    {
        case MultiprocessorTopologyHelper::NO_AVOIDANCE:
            return "same VC, shortest routes";
        case MultiprocessorTopologyHelper::DATELINE_ROUTING:
            return "dateline routing";
        case MultiprocessorTopologyHelper::DATELINE_VCS:
            return "dateline VCs";
    }
    return "?";
}

} // namespace rifltest
} // namespace ns3

#endif // RIFL_TEST_UTIL_H
