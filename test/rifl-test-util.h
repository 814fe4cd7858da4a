/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Small helpers shared by the module's test suites (header only, included by
 * the test sources that need them; not installed).
 */

#ifndef RIFL_TEST_UTIL_H
#define RIFL_TEST_UTIL_H

#include "ns3/multiprocessor-topology-helper.h"
#include "ns3/object.h"

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
 * \param object an object.
 * \param name an attribute.
 * \param value a new value.
 * \return the std::invalid_argument message SetAttribute() threw, or "" if the value was
 *         taken.
 */
inline std::string
TrySetAttribute(Ptr<Object> object, const std::string& name, const AttributeValue& value)
{
    return InvalidArgumentMessage(
        [&]()
        {
            object->SetAttribute(name, value);
        });
}

/**
 * \brief Set an attribute of an object whose link has started, expecting the refusal of
 *        LinkAttributeAccessor.
 * \param object the object.
 * \param type its TypeId name without "ns3::" (e.g. "RiflNetDevice").
 * \param name the attribute.
 * \param value a valid value.
 * \return "" if the set was refused with a message naming "ns3::TYPE::NAME", else what
 *         happened (the message, or that the value was taken).
 */
inline std::string
StartedLinkRefusal(Ptr<Object> object, const std::string& type, const std::string& name,
                   const AttributeValue& value)
{
    const std::string what = TrySetAttribute(object, name, value);
    if (what.find("ns3::" + type + "::" + name + " cannot change once the link has started")
        != std::string::npos)
    {
        return "";
    }
    return what.empty() ? name + " taken" : name + " refused otherwise: " + what;
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
