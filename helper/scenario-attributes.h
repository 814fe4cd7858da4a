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
 * attribute, or a value its checker rejects, throws std::invalid_argument
 * naming the entry (ns-3's own Config::SetDefault would abort the process,
 * killing a Python interpreter).
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
};

} // namespace ns3

#endif /* RIFL_SCENARIO_ATTRIBUTES_H */
