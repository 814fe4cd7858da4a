/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RIFL_SCENARIO_ATTRIBUTES_H
#define RIFL_SCENARIO_ATTRIBUTES_H

#include <map>
#include <string>
#include <vector>

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

    /**
     * \brief Refuse attributes of classes a scenario does not use.
     *
     * A default set for a class the scenario never instantiates changes nothing;
     * taking it in silence would let a caller believe it did (e.g.
     * ns3::DirectLinkChannel::Ber on a RIFL link). The attribute "ns3::C::A" is
     * accepted if C is one of \p used, a base class of one (its attributes apply to
     * the derived objects too) or derived from one (an attribute or a pointer value
     * may select it, e.g. another BitErrorProcess). With \p strict false only the
     * module's classes (TypeId group "Rifl") and net devices and channels are
     * checked, every other class of ns-3 is accepted (for scenarios on ns-3's
     * internet stack, whose classes depend on its own attributes). Names that do not
     * exist are left to Apply().
     *
     * \param attributes full attribute name -> value.
     * \param used the TypeId names of the classes the scenario instantiates.
     * \param scenario the scenario, for the message (e.g. "RiflLinkScenario").
     * \param strict whether every class is checked (see above).
     */
    static void CheckUsed(const std::map<std::string, std::string>& attributes,
                          const std::vector<std::string>& used, const std::string& scenario,
                          bool strict = true);
};

} // namespace ns3

#endif /* RIFL_SCENARIO_ATTRIBUTES_H */
