/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_SCENARIO_ATTRIBUTES_H
#define RIFL_SCENARIO_ATTRIBUTES_H

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup rifl-scenario
 * \brief Set ns-3 attribute defaults by full name, with errors instead of aborts.
 *
 * Scenarios (and the Python bindings) take a map such as
 * {"ns3::RiflNetDevice::FrameSize": "512", "ns3::RiflChannel::Engine": "Reference"}.
 * Each entry is applied with Config::SetDefaultFailSafe; an unknown class or
 * attribute, text of the wrong form for the attribute's value type, or a
 * value its checker rejects, throws std::invalid_argument naming the entry
 * and what is allowed (ns-3's own Config::SetDefault would abort the process,
 * killing a Python interpreter), e.g.
 * attributes["ns3::RiflNetDevice::Lanes"] = "17" is outside the allowed range 1..16.
 */
class ScenarioAttributes
{
  public:
    /**
     * \brief Apply every entry as an attribute default.
     * \param attributes full attribute name -> value as text.
     */
    static void Apply(const std::map<std::string, std::string>& attributes);

    /**
     * \brief Check one name without applying it.
     * \param fullName "ns3::Class::Attribute".
     * \return an empty string if the class and attribute exist, else the reason.
     */
    static std::string Check(const std::string& fullName);

    /**
     * \brief The values an attribute's checker accepts, as text.
     *
     * From the checker's value type and underlying type information:
     * "1..64" (integers), "[0, 1]" or ">= 1" (numbers), "[0ns, 10000ns]"
     * (times), "Fast|Reference" (enums), "true|false" (booleans); an empty
     * string where the checker holds no range (the value type alone says
     * what is allowed: strings, addresses, pointers, unbounded numbers).
     * Module checks made when a link starts (e.g. FrameSize in 128, 256,
     * 512, 1024) can narrow this further.
     * \param fullName "ns3::Class::Attribute" (std::invalid_argument if unknown).
     * \return the text.
     */
    static std::string AllowedValues(const std::string& fullName);
};

} // namespace ns3

#endif /* RIFL_SCENARIO_ATTRIBUTES_H */
