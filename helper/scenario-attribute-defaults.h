/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_ATTRIBUTE_DEFAULTS_H
#define SCENARIO_ATTRIBUTE_DEFAULTS_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rifl-scenario
 * \brief Remembers the defaults of the attributes a run changes and puts them back
 *        when it goes out of scope, also when the run throws.
 *
 * ScenarioAttributes::Apply sets process-wide attribute defaults; without this,
 * one run's attributes would leak into every later run of the process (a Python
 * interpreter running many scenarios, a C++ sweep). Names that do not exist are
 * skipped (Apply reports them).
 */
class ScenarioAttributeDefaults
{
  public:
    /**
     * \brief Remember the current default of every named attribute that exists.
     * \param attributes full attribute names ("ns3::Class::Attribute") -> values.
     */
    explicit ScenarioAttributeDefaults(const std::map<std::string, std::string>& attributes);

    /// \brief Restore the remembered defaults.
    ~ScenarioAttributeDefaults();

    /// \brief Not copyable (it restores once).
    ScenarioAttributeDefaults(const ScenarioAttributeDefaults&) = delete;
    /// \brief Not copyable. \return never.
    ScenarioAttributeDefaults& operator=(const ScenarioAttributeDefaults&) = delete;

  private:
    /// One remembered default.
    struct Saved
    {
        TypeId tid;                      //!< the class
        std::size_t index;               //!< attribute index in tid
        Ptr<const AttributeValue> value; //!< the default before the run
    };

    std::vector<Saved> m_saved; //!< remembered defaults
};

} // namespace ns3

#endif /* SCENARIO_ATTRIBUTE_DEFAULTS_H */
